#!/usr/bin/env bash
# Mutation testing with the mutmut pinned in pyproject.toml (extra "mutation"), then the figures:
# killed, survived, timeouts, per module. Not run in CI; see docs/mutation.md.
#
#   scripts/mutation.sh [engine] [--fresh|--report] [MUTANT...]
#   scripts/mutation.sh server   [--fresh|--report] [MUTANT...]
#
# engine: engine/ (but the strong bot) with tests/engine, configured by pyproject.toml's
#         [tool.mutmut]; works in mutants/ and is incremental (only the mutants of functions
#         that changed are tried again).
# server: the server's pure parts (room state, the driver's planning, protocol, players and
#         history) with the in-process tests of tests/app on SQLite, configured by
#         scripts/mutation-server.toml; works in a copy of the checkout, mutants-server/, made
#         anew on each run; incremental as the engine's.
# --fresh forgets earlier results first; --report only prints the figures of the last run;
# MUTANT names (or globs, as `mutmut show` takes them) try those mutants again.
#
# MUTATION_JOBS (default: the number of cores) is how many mutants are tried at once.
# MUTATION_REV (server mode): a commit to measure instead of the working tree, e.g. HEAD while
# others have changes under way (mutmut stops when a test fails without a mutant).
# MUTATION_SELECT (server mode): globs that narrow a run to some of the selection, e.g.
# 'app.rooms.state.* app.protocol.*'; as without it, only mutants with no result are tried.
# The conformance records are looked for in ../shared/conformance (CARDROOM_CONFORMANCE).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

target=engine
case "${1:-}" in engine|server) target=$1; shift ;; esac
action=run
case "${1:-}" in
    --fresh|--report) action=$1; shift ;;
    -*) echo "usage: $0 [engine|server] [--fresh|--report] [MUTANT...]" >&2; exit 2 ;;
esac

scripts/bootstrap.sh
pin=$(sed -n 's/^mutation = \["\(mutmut==[0-9.]*\)"\]$/\1/p' pyproject.toml)
[ -n "$pin" ] || { echo "no mutmut pin in pyproject.toml's mutation extra" >&2; exit 1; }
if [ "$(.venv/bin/python -c 'import importlib.metadata as m; print("mutmut==" + m.version("mutmut"))' 2>/dev/null)" != "$pin" ]; then
    echo "installing $pin into .venv ..." >&2
    .venv/bin/python -m pip install -q "$pin"
fi

export CARDROOM_CONFORMANCE=${CARDROOM_CONFORMANCE:-$(cd .. && pwd)/shared/conformance}
[ -d "$CARDROOM_CONFORMANCE" ] || echo "warning: no $CARDROOM_CONFORMANCE: the conformance tests will skip" >&2

if [ "$target" = server ]; then
    work=$root/mutants-server
    [ "$action" = --fresh ] && rm -rf "$work"
    if [ "$action" != --report ]; then
        # the checkout as it is (tracked and new files, not what git ignores), or the commit
        # MUTATION_REV, over the copy; its pyproject.toml with the server's [tool.mutmut]
        mkdir -p "$work"
        if [ -n "${MUTATION_REV:-}" ]; then
            # the files dated now: mutmut then compares each function with its last run's
            git archive "$MUTATION_REV" | tar -xmf - -C "$work"
        else
            git ls-files -z -c -o --exclude-standard | grep -zv '^mutants-server/' |
                tar --null -T - --ignore-failed-read -cf - | tar -xf - -C "$work"
        fi
        .venv/bin/python - "$work/pyproject.toml" scripts/mutation-server.toml <<'EOF'
import re, sys
project, server = (open(p).read() for p in sys.argv[1:])
project = re.sub(r"^\[tool\.mutmut\]\n.*?(?=^\[|\Z)", "", project, flags=re.S | re.M)
open(sys.argv[1], "w").write(project + "\n" + server)
EOF
        # tests run .venv/bin/cardroom from the root of the copy that mutmut runs them in
        mkdir -p "$work/mutants" && ln -sfn "$root/.venv" "$work/mutants/.venv"
    fi
    if [ $# -eq 0 ] && [ -n "${MUTATION_SELECT:-}" ]; then
        read -ra selected <<< "$MUTATION_SELECT"
    elif [ $# -eq 0 ]; then
        mapfile -t selected < <(.venv/bin/python -c 'import sys, tomllib
print("\n".join(tomllib.load(open(sys.argv[1], "rb"))["tool"]["cardroom-mutation"]["mutants"]))' scripts/mutation-server.toml)
    else
        selected=("$@")
    fi
else
    work=$root
    [ "$action" = --fresh ] && rm -rf "$work/mutants"
    selected=("$@")
fi

if [ "$action" != --report ]; then
    cd "$work"
    # mutmut copies the files it does not mutate into mutants/ only when they are not there yet:
    # bring over those that changed since (the server's other modules, the strong bot)
    "$root/.venv/bin/python" - <<'EOF'
import filecmp, pathlib, shutil
from mutmut.configuration import config
from mutmut.utils.file_utils import walk_all_files
for root, name in walk_all_files():
    source = pathlib.Path(root, name)
    copy = "mutants" / source
    if copy.exists() and not config().should_mutate(source) and not filecmp.cmp(source, copy, False):
        shutil.copy2(source, copy)
EOF
    if [ "$target" = server ] && [ $# -eq 0 ]; then
        # mutmut tries again every mutant it is given by name, and the server's selection is
        # given by name: keep those with no result yet, as a run without names does (an
        # interrupted run goes on where it stopped; --fresh tries them all). mutmut is pinned.
        "$root/.venv/bin/python" - run --max-children "${MUTATION_JOBS:-$(nproc)}" "${selected[@]}" <<'EOF'
import sys
import mutmut.__main__ as mutmut
collect = mutmut.collect_source_file_mutation_data
def untried(*, mutant_names):
    mutants, by_path = collect(mutant_names=mutant_names)
    return [(data, name, result) for data, name, result in mutants if result is None], by_path
mutmut.collect_source_file_mutation_data = untried
mutmut.cli(sys.argv[1:], prog_name="mutmut")
EOF
    else
        "$root/.venv/bin/mutmut" run --max-children "${MUTATION_JOBS:-$(nproc)}" "${selected[@]}"
    fi
    cd "$root"
fi

# The figures, from mutmut's own results (mutants/**/*.py.meta), by module; the mutants shown
# equivalent are those named in docs/mutation.md's "Equivalent mutants" sections. In the server
# mode only the selected mutants count (scripts/mutation-server.toml).
.venv/bin/python - "$target" "$work/mutants" scripts/mutation-server.toml <<'EOF'
import collections, fnmatch, json, pathlib, re, sys, tomllib

target, results, server_config = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
# mutmut's exit codes (mutmut/stats.py)
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 36: "timeout",
          24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout", 37: "killed", None: "not checked"}
doc = pathlib.Path("docs/mutation.md")
text = doc.read_text() if doc.exists() else ""
# every section whose title begins "Equivalent mutants" (the engine's, the server's)
equivalent = {name for part in re.split(r"^#+ ", text, flags=re.M)
              if part.startswith("Equivalent mutants")
              for name in re.findall(r"`((?:engine|app)\.[^`\s]+__mutmut_\d+)`", part)}
if target == "server":
    patterns = tomllib.load(open(server_config, "rb"))["tool"]["cardroom-mutation"]["mutants"]
    counted = lambda name: any(fnmatch.fnmatchcase(name, p) for p in patterns)
    metas = [m for d in ("app", "engine") for m in sorted((results / d).rglob("*.py.meta"))]
else:
    counted = lambda name: True
    metas = sorted((results / "engine").rglob("*.py.meta"))

rows = collections.defaultdict(collections.Counter)
survivors = []
for meta in metas:
    module = meta.relative_to(results).as_posix()[: -len(".meta")]
    for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
        if not counted(name):
            continue
        status = STATUS.get(code, "suspicious")
        if status != "killed" and name in equivalent:
            status = "equivalent"
        rows[module][status] += 1
        if status not in ("killed", "timeout", "equivalent", "not checked"):
            survivors.append(f"{name}: {status}")
if not rows:
    raise SystemExit(f"no results in {results}: run it first")

cols = ["killed", "timeout", "survived", "no tests", "suspicious", "not checked", "equivalent"]
def line(label, c):
    total = sum(c.values())
    scored = total - c["equivalent"] - c["not checked"]
    score = f"{100 * (c['killed'] + c['timeout']) / scored:.1f}%" if scored else "-"
    return f"| {label} | {total} | " + " | ".join(str(c[k]) for k in cols) + f" | {score} |"
print("\n| module | mutants | " + " | ".join(cols) + " | killed of non-equivalent tried |")
print("|---|" + "---:|" * (len(cols) + 2))
for module in sorted(rows):
    print(line(f"`{module}`", rows[module]))
total = lambda keep: sum((c for m, c in rows.items() if keep(m)), collections.Counter())
if target == "server":
    print(line("**server parts**", total(lambda m: True)))
else:
    print(line("**rules (engine/ without bots/)**", total(lambda m: not m.startswith("engine/bots/"))))
    print(line("**rules bots (engine/bots/ without strong/)**", total(lambda m: m.startswith("engine/bots/"))))
    print(line("**engine/**", total(lambda m: True)))
print("\n(timeouts count as killed: the mutant made the tests loop; mutants not checked, which no"
      " run reached, are left out of the percentage)")
if survivors:
    print(f"\n{len(survivors)} tried, not killed and not shown equivalent:")
    print("\n".join("    " + s for s in survivors))
EOF
