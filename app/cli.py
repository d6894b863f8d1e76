"""The ``cardroom`` command line."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cardroom")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a match record and print its outcome")
    replay.add_argument("file", help="the record's path, or - for standard input")
    args = parser.parse_args(argv)
    if args.command == "replay":
        from engine.cli import replay_command

        return replay_command(args.file)
    return 2


if __name__ == "__main__":
    sys.exit(main())
