#!/usr/bin/env bash
# Mutation testing of engine/ with the mutmut pinned in pyproject.toml (extra "mutation"), then
# the figures: killed, survived, timeouts, per module. Not run in CI; see docs/mutation.md.
#
#   scripts/mutation.sh            # run (incremental: mutants/ keeps earlier results) and report
#   scripts/mutation.sh --fresh    # forget earlier results first
#   scripts/mutation.sh --report   # only print the figures of the last run
#
# MUTATION_JOBS (default: the number of cores) is how many mutants are tried at once.
# The conformance records are looked for in ../shared/conformance (CARDROOM_CONFORMANCE).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
scripts/bootstrap.sh
pin=$(sed -n 's/^mutation = \["\(mutmut==[0-9.]*\)"\]$/\1/p' pyproject.toml)
[ -n "$pin" ] || { echo "no mutmut pin in pyproject.toml's mutation extra" >&2; exit 1; }
if [ "$(.venv/bin/python -c 'import importlib.metadata as m; print("mutmut==" + m.version("mutmut"))' 2>/dev/null)" != "$pin" ]; then
    echo "installing $pin into .venv ..." >&2
    .venv/bin/python -m pip install -q "$pin"
fi

export CARDROOM_CONFORMANCE=${CARDROOM_CONFORMANCE:-$(cd .. && pwd)/shared/conformance}
[ -d "$CARDROOM_CONFORMANCE" ] || echo "warning: no $CARDROOM_CONFORMANCE: the conformance tests will skip" >&2

case "$mode" in
    --fresh) rm -rf mutants ;&
    run) .venv/bin/mutmut run --max-children "${MUTATION_JOBS:-$(nproc)}" ;;
    --report) ;;
    *) echo "usage: $0 [--fresh|--report]" >&2; exit 2 ;;
esac

# The figures, from mutmut's own results (mutants/**/*.py.meta), by module; the mutants shown
# equivalent are those named in docs/mutation.md's "Equivalent mutants" section.
.venv/bin/python - <<'EOF'
import collections, json, pathlib, re

# mutmut's exit codes (mutmut/stats.py)
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 36: "timeout",
          24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout", 37: "killed", None: "not checked"}
doc = pathlib.Path("docs/mutation.md")
text = doc.read_text() if doc.exists() else ""
section = text.split("## Equivalent mutants", 1)[1].split("\n## ", 1)[0] if "## Equivalent mutants" in text else ""
equivalent = set(re.findall(r"`(engine\.[^`\s]+__mutmut_\d+)`", section))

rows = collections.defaultdict(collections.Counter)
survivors = []
for meta in sorted(pathlib.Path("mutants/engine").rglob("*.py.meta")):
    module = meta.relative_to("mutants").as_posix()[: -len(".meta")]
    for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
        status = STATUS.get(code, "suspicious")
        if status != "killed" and name in equivalent:
            status = "equivalent"
        rows[module][status] += 1
        if status not in ("killed", "equivalent"):
            survivors.append(f"{name}: {status}")
if not rows:
    raise SystemExit("no results in mutants/: run it first")

cols = ["killed", "survived", "timeout", "no tests", "suspicious", "not checked", "equivalent"]
def line(label, c):
    total = sum(c.values())
    scored = total - c["equivalent"]
    score = f"{100 * (c['killed'] + c['timeout']) / scored:.1f}%" if scored else "-"
    return f"| {label} | {total} | " + " | ".join(str(c[k]) for k in cols) + f" | {score} |"
print("\n| module | mutants | " + " | ".join(cols) + " | killed of non-equivalent |")
print("|---|" + "---:|" * (len(cols) + 2))
for module in sorted(rows):
    print(line(f"`{module}`", rows[module]))
rules = sum((c for m, c in rows.items() if not m.startswith("engine/bots/")), collections.Counter())
bots = sum((c for m, c in rows.items() if m.startswith("engine/bots/")), collections.Counter())
print(line("**engine/ without bots/**", rules))
print(line("**engine/bots/**", bots))
print(line("**engine/**", rules + bots))
print("\n(timeouts count as killed: the mutant made the tests loop)")
if survivors:
    print(f"\n{len(survivors)} not killed and not shown equivalent:")
    print("\n".join("    " + s for s in survivors))
EOF
