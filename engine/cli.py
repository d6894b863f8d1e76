"""``cardroom replay FILE``: replay a match record and print its outcome as JSON (record.md)."""

from __future__ import annotations

import json
import sys

from .record import RecordError, load, summary


def replay_command(path: str) -> int:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as error:
        print(f"deal -, action -, seat -, -: cannot read {path}: {error.strerror}", file=sys.stderr)
        return 1
    try:
        match = load(text)
    except RecordError as error:
        print(error.line(), file=sys.stderr)
        return 1
    print(json.dumps(summary(match)))
    return 0
