#!/usr/bin/env bash
# Run the whole test suite (./test) N times on a loaded machine: two CPU-bound processes and
# one that writes to the disk and fdatasyncs in a loop run all along. Prints each run's result
# and duration, then a summary; exits 1 if any run failed. The load stops when the script
# ends, however it ends (Ctrl-C included).
#
#   scripts/loaded-suite.sh            # 5 runs
#   scripts/loaded-suite.sh -n 2       # 2 runs
#   CI=true scripts/loaded-suite.sh -- tests/app -x     # what follows -- goes to ./test
#
# LOAD_DIR: where the disk load writes (default: the temporary directory, where the tests'
# databases are). Each run's output: test-artifacts/loaded-suite/run-N.log.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
while [ $# -gt 0 ]; do
    case $1 in
        -n) runs=$2; shift 2 ;;
        --) shift; break ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "usage: $0 [-n RUNS] [-- ./test arguments]" >&2; exit 2 ;;
    esac
done

python=$(command -v python3)
load_dir=$(mktemp -d "${LOAD_DIR:-${TMPDIR:-/tmp}}/loaded-suite.XXXXXX")
logs=test-artifacts/loaded-suite
mkdir -p "$logs"
pids=()

stop_load() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    pids=()
    rm -rf "$load_dir"
}
trap stop_load EXIT
trap 'echo "interrupted: load stopped" >&2; exit 130' INT
trap 'exit 143' TERM

# Two CPU-bound processes.
for _ in 1 2; do
    "$python" -c 'while True: pass' &
    pids+=($!)
done
# One process writing to the disk and syncing: 256 KiB then fdatasync, over and over, in a
# file that starts again from the beginning every 64 MiB.
"$python" - "$load_dir/disk-load" <<'EOF' &
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
block, offset = os.urandom(256 * 1024), 0
while True:
    os.pwrite(fd, block, offset)
    os.fdatasync(fd)
    offset = (offset + len(block)) % (64 * 1024 * 1024)
EOF
pids+=($!)
echo "load: CPU-bound ${pids[0]} ${pids[1]}, disk ${pids[2]} (writing in $load_dir)"

passed=0
results=()
for ((run = 1; run <= runs; run++)); do
    log=$logs/run-$run.log
    start=$(date +%s)
    if ./test "$@" >"$log" 2>&1; then
        outcome=pass
        passed=$((passed + 1))
    else
        outcome=FAIL
    fi
    seconds=$(($(date +%s) - start))
    summary=$(grep -E '^(=+ )?[0-9]+ (passed|failed)|(passed|failed|error).* in [0-9.]+s' "$log" \
              | tail -n 1 | sed -E 's/^=+ //; s/ =+$//' || true)
    echo "run $run/$runs: $outcome in ${seconds} s (${summary:-see $log})"
    if [ "$outcome" = FAIL ]; then
        grep -E '^(FAILED|ERROR) ' "$log" | sed 's/^/    /' || true
    fi
    results+=("$outcome ${seconds}s")
done

echo "loaded suite: $passed of $runs runs passed (${results[*]}); logs in $logs/"
[ "$passed" -eq "$runs" ]
