#!/bin/bash
# Instructions per action of the server's own work (bench/tools/irroom.py: rooms, the store, the
# engine, encoding; no sockets), by callgrind: deterministic, unlike timings on a shared machine.
#   bash bench/tools/irroom.sh          (K=30 rooms, R=30 rounds by default)
cd "$(dirname "$0")/../.."
export PYTHONHASHSEED=0  # string hashes, hence dict and set probes, the same every run
k=${K:-30}; r=${R:-30}
tmp=$(mktemp -d)
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python \
  bench/tools/irroom.py "$k" 10 "$1" >"$tmp/$2.out" 2>&1; }
count 0 base &
count "$r" run
wait
instructions() { awk '/Collected/{print $4}' "$tmp/$1.out"; }
actions=$(awk '/actions,/{print $1}' "$tmp/run.out")
echo "$(( ($(instructions run) - $(instructions base)) / actions / 1000 ))k instr/action ($actions actions)"
rm -r "$tmp"
