#!/bin/bash
# Instructions per random self-play deal, for each game, the loop bench/engine_bench.py times:
# valgrind callgrind counts are deterministic, unlike wall-clock timings on a shared machine.
#   bash bench/tools/irdeal.sh [game...]      (N=200 deals each by default)
cd "$(dirname "$0")/../.."
export PYTHONHASHSEED=0  # string hashes, hence dict and set probes, the same every run
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/tools/ir.py "$@" 2>&1 | awk '/Collected/{print $4}'; }
n=${N:-200}
tmp=$(mktemp -d)
ir black_maria 0 >"$tmp/base" &
for g in ${@:-black_maria marjolet big_mariage}; do ir "$g" "$n" >"$tmp/$g" & done
wait
for g in ${@:-black_maria marjolet big_mariage}; do
  echo "$g $(( ($(cat "$tmp/$g") - $(cat "$tmp/base")) / n / 1000 ))k instr/deal"
done
rm -r "$tmp"
