#!/bin/bash
# Instructions per random self-play deal, for each game, the loop bench/engine_bench.py times:
# valgrind callgrind counts are deterministic, unlike wall-clock timings on a shared machine.
#   bash bench/tools/irdeal.sh [game...]      (N=200 deals each by default)
# The name "floor" counts a game whose rules do nothing (bench/tools/irfloor.py).
# With no game named, OpenSpiel's Hearts (the issue's bar) is counted too when a python with
# pyspiel is found: $PYSPIEL_PYTHON, else /tmp/probe/bin/python.
cd "$(dirname "$0")/../.."
export PYTHONHASHSEED=0  # string hashes, hence dict and set probes, the same every run
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | awk '/Collected/{print $4}'; }
n=${N:-200}
games=${@:-black_maria marjolet big_mariage}
tmp=$(mktemp -d)
count .venv/bin/python bench/tools/ir.py black_maria 0 >"$tmp/base" &
for g in $games; do
  script=bench/tools/ir.py; [ "$g" = floor ] && script=bench/tools/irfloor.py
  count .venv/bin/python $script "$g" "$n" >"$tmp/$g" &
done
pyspiel=${PYSPIEL_PYTHON:-/tmp/probe/bin/python}
if [ $# -eq 0 ] && "$pyspiel" -c 'import pyspiel' 2>/dev/null; then
  count "$pyspiel" bench/tools/irhearts.py 0 >"$tmp/hearts_base" &
  count "$pyspiel" bench/tools/irhearts.py "$n" >"$tmp/hearts" &
fi
wait
for g in $games; do
  echo "$g $(( ($(cat "$tmp/$g") - $(cat "$tmp/base")) / n / 1000 ))k instr/deal"
done
if [ -s "$tmp/hearts" ]; then
  echo "openspiel_hearts $(( ($(cat "$tmp/hearts") - $(cat "$tmp/hearts_base")) / n / 1000 ))k instr/deal"
fi
rm -r "$tmp"
