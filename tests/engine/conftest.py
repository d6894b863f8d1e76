"""Under mutmut (scripts/mutation.sh) only: the quick tests first.

A mutant is killed by the first test that fails (mutmut runs pytest with ``-x``), and most are
caught by a quick one; the random play-outs, which take seconds each, then run only for the
mutants nothing quicker catches. Outside mutmut this changes nothing.
"""

import json
import os
import pathlib

_durations: dict[str, float] = {}


def pytest_collection_modifyitems(items):
    if not os.environ.get("MUTANT_UNDER_TEST"):
        return
    stats = pathlib.Path("mutmut-stats.json")  # mutmut runs the tests from within mutants/
    if not _durations and stats.exists():
        _durations.update(json.loads(stats.read_text()).get("duration_by_test", {}))
    items.sort(key=lambda item: _durations.get(item.nodeid, 0.0))
