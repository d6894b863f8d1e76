#!/bin/bash
# Instructions for one run of a Python statement, by callgrind (deterministic):
#   bash bench/tools/irstmt.sh SETUP STMT [N=20000]
cd "$(dirname "$0")/../.."
export PYTHONHASHSEED=0  # string hashes, hence dict and set probes, the same every run
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/tools/irstmt.py "$@" 2>&1 | awk '/Collected/{print $4}'; }
n=${3:-20000}
a=$(ir "$1" "pass" $n); b=$(ir "$1" "$2" $n)
echo "$(( (b-a)/n )) instr: $2"
