#!/bin/bash
# Two versions of the server measured at the same time, on the same core, each with its own
# SQLite database and its own client process: a change's CPU per action, free of the drift of
# this machine's speed between runs (10-30%, more than most changes are worth). Run it twice
# with the trees swapped.
#   bash bench/tools/side_by_side.sh TREE_A TREE_B [TABLES per server, 500]
# TREE: a checkout with its .venv (for another commit: git worktree add DIR COMMIT, then
# ln -s "$PWD/.venv" DIR/.venv). Both servers on core 0, both clients on core 1.
set -euo pipefail
trees=("$(realpath "$1")" "$(realpath "$2")"); tables=${3:-500}
tmp=$(mktemp -d)
trap 'kill $(cat "$tmp"/server*.pid 2>/dev/null) 2>/dev/null; sleep 2; rm -rf "$tmp"' EXIT
for i in 0 1; do
  url="sqlite:///$tmp/$i.db"
  # the server alone in the background (not the cd with it): $! is its pid, which the bench
  # measures and the trap stops
  (cd "${trees[$i]}"
   DATABASE_URL=$url BOT_DELAY=0 DEAL_PAUSE=0 RATE=1000 LIMITS=false LOG_LEVEL=warning taskset -c 0 \
     .venv/bin/python -m app.cli serve --port $((8765 + i)) \
     >"$tmp/server$i.log" 2>&1 </dev/null & echo $! >"$tmp/server$i.pid")
done
for i in 0 1; do
  until curl -sf "http://127.0.0.1:$((8765 + i))/api/health" >/dev/null; do sleep 0.2; done
done
for i in 0 1; do
  (cd "${trees[$i]}" && taskset -c 1 .venv/bin/python bench/load_bench.py --tables "$tables" \
     --url "http://127.0.0.1:$((8765 + i))" --pids "$(cat "$tmp/server$i.pid")" \
     --database-url "sqlite:///$tmp/$i.db" --no-bare --no-pin --no-audit >"$tmp/out$i" 2>&1) &
done
wait $(jobs -p)
for i in 0 1; do
  echo "${trees[$i]}: $(grep -o 'p99=.*while all play: [0-9.]* ms' "$tmp/out$i")"
done
