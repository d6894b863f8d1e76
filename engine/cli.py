"""``cardroom replay FILE``: replay a match record and print its outcome as JSON (record.md);
``cardroom analyse FILE``: print its analysis as JSON (docs/analysis.md)."""

from __future__ import annotations

import json
import sys

from .record import RecordError, load, summary


def _read(path: str) -> str | None:
    """The text of ``path`` (``-``: standard input); None, once said on standard error, when
    it cannot be read."""
    try:
        return sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as error:
        print(f"deal -, action -, seat -, -: cannot read {path}: {error.strerror}", file=sys.stderr)
        return None


def replay_command(path: str) -> int:
    text = _read(path)
    if text is None:
        return 1
    try:
        match = load(text)
    except RecordError as error:
        print(error.line(), file=sys.stderr)
        return 1
    print(json.dumps(summary(match)))
    return 0


def analyse_command(path: str, simulations: int | None = None, seed: int = 0,
                    indent: int | None = None) -> int:
    """Print the analysis of the record at ``path`` (``-``: standard input) as one JSON object;
    a record that breaks a rule is reported as ``cardroom replay`` reports it (status 1)."""
    from .analysis import analyse

    text = _read(path)
    if text is None:
        return 1
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        print(RecordError(f"not JSON: {error}").line(), file=sys.stderr)
        return 1
    try:
        result = analyse(record, simulations=simulations, seed=seed)
    except RecordError as error:
        print(error.line(), file=sys.stderr)
        return 1
    print(json.dumps(result, indent=indent))
    return 0
