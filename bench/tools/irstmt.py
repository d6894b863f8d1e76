"""Run ``stmt`` N times after ``setup`` (exec'd at module level): irstmt.sh subtracts N=0."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

setup, stmt, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
env: dict = {}
exec(setup, env)
exec(f"def _run():\n    for _ in range({n}):\n        {stmt}\n", env)  # globals, as in a module
env["_run"]()
