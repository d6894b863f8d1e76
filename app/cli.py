"""The ``cardroom`` command line."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cardroom")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a match record and print its outcome")
    replay.add_argument("file", help="the record's path, or - for standard input")
    analyse = commands.add_parser(
        "analyse", help="analyse a match record: what each decision cost (docs/analysis.md)")
    analyse.add_argument("file", help="the record's path, or - for standard input")
    analyse.add_argument("--simulations", type=_positive, default=None,
                         help="determinizations each choice is played out in (default: the game's)")
    analyse.add_argument("--seed", type=int, default=0,
                         help="the same seed gives the same analysis (default 0)")
    analyse.add_argument("--indent", type=int, default=None, help="indent the JSON")
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
    if args.command == "analyse":
        from engine.cli import analyse_command

        return analyse_command(args.file, args.simulations, args.seed, args.indent)
    if args.command == "serve":
        return serve_command(args.host, args.port, not args.no_migrate)
    if args.command == "load-demo":
        return load_demo_command(args.dir)
    return 2


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def serve_command(host: str, port: int, migrate: bool) -> int:
    import uvicorn

    from app.settings import Settings

    settings = Settings(host=host)
    if migrate:
        from app.storage.migrate import upgrade

        upgrade(settings.database_url)
    from app.main import create_app
    from app.ops import logs

    logs.configure(settings.log_level)
    app = create_app(settings)
    calm_garbage_collector()
    uvicorn.run(app, host=host, port=port, log_level="info", proxy_headers=True,
                forwarded_allow_ips=settings.forwarded_allow_ips, **websocket_options(settings))
    return 0


def websocket_options(settings) -> dict:
    """How uvicorn runs cardroom's WebSockets (``cardroom serve``, and the tests' server)."""
    from app.web.keepalive import SpreadPings

    return {"ws": SpreadPings, "ws_max_size": settings.ws_max_size,
            "ws_per_message_deflate": settings.ws_deflate}


def calm_garbage_collector() -> None:
    """Fewer, shorter collector pauses for a serving process: young collections every 50,000
    allocations let what lives between two actions die young (the defaults ran a full
    collection, every room stalled, every few seconds at 1,000 tables), and what is loaded
    before serving is frozen out of the walks (docs/performance.md#garbage-collector)."""
    import gc

    gc.freeze()
    gc.set_threshold(50_000, 20, 10)


def load_demo_command(directory: str | None) -> int:
    from app.ops.seeds import load_demo
    from app.settings import Settings
    from app.storage.migrate import upgrade

    settings = Settings()
    upgrade(settings.database_url)
    loaded, skipped = load_demo(settings.database_url, directory)
    print(f"loaded {loaded} demo matches ({skipped} already there)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
