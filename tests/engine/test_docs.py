"""The examples in the engine's docstrings run as written (the README quotes the package's)."""

import doctest
import importlib
import pkgutil

import pytest

import engine

MODULES = [engine] + [importlib.import_module(info.name)
                      for info in pkgutil.walk_packages(engine.__path__, "engine.")]
EXAMPLES = [test for module in MODULES for test in doctest.DocTestFinder().find(module)
            if test.examples]


def test_the_package_has_its_example():
    assert "engine" in {test.name for test in EXAMPLES}


@pytest.mark.parametrize("test", EXAMPLES, ids=lambda test: test.name)
def test_example_runs(test):
    runner = doctest.DocTestRunner()
    # the globals kept: a second run in one process (mutmut's) would otherwise find them gone
    runner.run(test, clear_globs=False)  # prints what differs
    assert runner.failures == 0
