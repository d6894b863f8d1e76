"""The ``cardroom`` command line."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cardroom")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a match record and print its outcome")
    replay.add_argument("file", help="the record's path, or - for standard input")
    serve = commands.add_parser(
        "serve", help="migrate the database (DATABASE_URL) and run the server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--no-migrate", action="store_true",
                       help="do not apply the Alembic migrations first")
    demo = commands.add_parser("load-demo", help="load the demo matches of seeds/ into the "
                                                 "database (DATABASE_URL)")
    demo.add_argument("--dir", default=None, help="a directory of records (default: seeds/)")
    args = parser.parse_args(argv)
    if args.command == "replay":
        from engine.cli import replay_command

        return replay_command(args.file)
    if args.command == "serve":
        return serve_command(args.host, args.port, not args.no_migrate)
    if args.command == "load-demo":
        return load_demo_command(args.dir)
    return 2


def serve_command(host: str, port: int, migrate: bool) -> int:
    import uvicorn

    from app.settings import Settings

    settings = Settings()
    if migrate:
        from app.migrate import upgrade

        upgrade(settings.database_url)
    from app import logs
    from app.main import create_app

    logs.configure(settings.log_level)
    app = create_app(settings)
    calm_garbage_collector()
    uvicorn.run(app, host=host, port=port, log_level="info", **websocket_options(settings))
    return 0


def websocket_options(settings) -> dict:
    """How uvicorn runs cardroom's WebSockets (``cardroom serve``, and the tests' server)."""
    from app.keepalive import SpreadPings

    return {"ws": SpreadPings, "ws_max_size": settings.ws_max_size,
            "ws_per_message_deflate": settings.ws_deflate}


def calm_garbage_collector() -> None:
    """Fewer, shorter collector pauses for a serving process. At 1,000 tables Python's default
    thresholds ran a full collection (~400 ms: every room stalled) every 2-3 s, 15% of the
    CPU, because what lives between two actions (about a second) outlived the young
    generations; young collections every 50,000 allocations let it die young. What is loaded
    before serving (modules, the app) lives as long as the process: frozen out of the walks."""
    import gc

    gc.freeze()
    gc.set_threshold(50_000, 20, 10)


def load_demo_command(directory: str | None) -> int:
    from app.migrate import upgrade
    from app.seeds import load_demo
    from app.settings import Settings

    settings = Settings()
    upgrade(settings.database_url)
    loaded, skipped = load_demo(settings.database_url, directory)
    print(f"loaded {loaded} demo matches ({skipped} already there)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
