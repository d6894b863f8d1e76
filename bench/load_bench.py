"""Load benchmark: T tables of client bots over real WebSockets, whole matches, against cardroom
and, in the same run, against a bare relay (bench/bare_relay.py) as the baseline.

    .venv/bin/python bench/load_bench.py --tables 50,200,500,1000 --pace 1
    .venv/bin/python bench/load_bench.py --tables 200 --pace 0            # as fast as it can
    .venv/bin/python bench/load_bench.py --tables 500 --db postgres --processes 2 \\
        --redis redis://127.0.0.1:6379/0
    .venv/bin/python bench/load_bench.py --tables 100 --url http://127.0.0.1:8000 --no-bare
    .venv/bin/python bench/load_bench.py --tables 1000 --db postgres --processes 2 \\
        --baseline sqlite --rounds 3      # against one SQLite process rather than the relay

Each table is one match of ``--game`` (default Black Maria, target 1: one deal, 54 actions)
whose every seat is a client of this script; a table acts at ``--pace`` actions per second
(0: each seat acts as soon as it may). The script starts the server itself (one process on
SQLite, or ``--processes`` on PostgreSQL, with Redis fan-out when there are several; each
table is made on the processes in turn, then joined and played on the one its code hashes to,
as deploy/nginx.conf sends it, or with ``--spread-seats`` its seats on the processes in turn,
each process then applying every action) unless ``--url`` is given, and runs the clients in a
separate process (pinned to the last core, servers to the others, with ``--pin``).

Reported per run: actions/s; latency from an action's send to its receipt by the last seat
of the table (p50, p99, max); errors; server CPU per action (utime+stime of the server
processes from /proc/<pid>/stat over the play, connections included, and apart over the time
every table plays: after the last one began, before the first one ends; PostgreSQL's and
Redis's CPU shown apart, and counted in the ratios); memory per table (server RSS growth /
tables); and, for cardroom, every acknowledged action stored and the audit (every stored match
replays through the engine to its stored scores); and the share of this machine's CPU time
its host took back over the play ("host steal": on a shared VM a busy neighbour delays
everything, the latencies the most), and how long this machine's disk took to make a small
write durable over the play ("host fsync": a probe process writes 4 KiB and fdatasyncs it
every 50 ms beside the database, as a commit does; the host's disk stalls hold every SQLite
commit, and none of the bare relay's frames).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import pathlib
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib

import orjson

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

# The clients' frames are JSON by orjson, as the server's: 3,000 sockets share one core, and the
# standard library's JSON made the client a bottleneck of its own at 1,000 tables.
from app.encoding import json_text  # noqa: E402
from app.protocol import Follower, OutOfStep  # noqa: E402

PY = sys.executable
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
PG_BASE = os.environ.get("BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


# -- process figures -------------------------------------------------------------------------


def cpu_seconds(pids) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except OSError:
            pass
    return total / TICK


def host_ticks() -> tuple[int, int]:
    """This machine's CPU time stolen by its host (a VM waiting for a physical core) and all
    of its CPU time, in ticks since boot (/proc/stat)."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    return ticks[7], sum(ticks[:8])  # steal; user .. steal (guest time is inside user)


#: Seconds between two writes of the disk probe (DiskProbe).
PROBE_EVERY = 0.05


def disk_probe(directory: str) -> None:
    """The probe process: until SIGTERM, write 4 KiB to a file in ``directory`` and fdatasync
    it every PROBE_EVERY seconds; then print each fdatasync as ``[monotonic start, seconds]``."""
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    path = os.path.join(directory, f"disk-probe-{os.getpid()}")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    block, samples = os.urandom(4096), []
    try:
        while not stop:
            os.pwrite(fd, block, 0)
            start = time.monotonic()
            os.fdatasync(fd)
            samples.append((start, time.monotonic() - start))
            time.sleep(PROBE_EVERY)
    finally:
        os.close(fd)
        os.unlink(path)
    print(json.dumps(samples))


class DiskProbe:
    """:func:`disk_probe` in a process of its own (on the clients' core), for one run."""

    def __init__(self, directory: str, cpus: set[int] | None):
        self.proc = subprocess.Popen([PY, os.path.abspath(__file__), "_disk_probe", directory],
                                     stdout=subprocess.PIPE, text=True)
        if cpus:
            os.sched_setaffinity(self.proc.pid, cpus)

    def stop(self) -> list:
        """Its fdatasyncs: ``[monotonic start, seconds]`` each."""
        self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=30)
        return json.loads(out)


def disk_figures(syncs: list, start: float, end: float) -> dict:
    """The probe's fdatasyncs that began between ``start`` and ``end`` (monotonic)."""
    times = sorted(seconds for began, seconds in syncs if start <= began <= end)
    if not times:
        return {}
    return {"syncs": len(times), "p99_ms": 1000 * times[int(len(times) * 0.99)],
            "max_ms": 1000 * times[-1], "slow": sum(t > 0.05 for t in times)}


#: The server's own lines about its event loop's stalls (app/stalls.py).
STALLS = {"loop_stall": "loop", "gc_pause": "gc", "slow_write": "writes"}


def stall_figures(lines, start: float, end: float) -> dict:
    """How many of the server's stall lines (JSON log ``lines``) began between ``start`` and
    ``end`` (wall time), and the longest, by kind: ``{kind: [count, max ms]}``. A line is
    written when its stall ends: one that ends just after the play began is the setup's (3,000
    seats connecting at once and welcomed hold the loop for up to a second)."""
    figures = {kind: [0, 0.0] for kind in STALLS.values()}
    for line in lines:
        if '"ms"' not in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        kind = STALLS.get(record.get("event"))
        if kind is not None and start <= record.get("ts", 0) - record["ms"] / 1000 <= end:
            figures[kind][0] += 1
            figures[kind][1] = max(figures[kind][1], record["ms"])
    return figures


def rss_bytes(pids) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * PAGE
        except OSError:
            pass
    return total


def service_pids(*names: str) -> list[int]:
    """The processes of these programs (``postgres``, ``redis-server``)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as f:
                    if f.read().strip() in names:
                        pids.append(int(entry))
            except OSError:
                pass
    return pids


def service_cpu(names) -> dict[int, float]:
    """CPU seconds so far of each process of these programs, whose CPU counts too. Read at the
    start and at the end of the play: PostgreSQL starts a process for each connection, and the
    servers open some while they play."""
    return {pid: cpu_seconds([pid]) for pid in service_pids(*names)}


def services_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds the services used between two :func:`service_cpu` readings."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 30) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(url, timeout=2).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not come up")
        time.sleep(0.1)


# -- the client side (its own process) -------------------------------------------------------


#: The tables' clock and their wait for a tick: this module's own, so that a test of the
#: pacing can give the tables a clock of its own without changing other threads' (tests/bench/).
monotonic = time.monotonic
pause = asyncio.sleep


class Table:
    def __init__(self, index: int, seats: int, pace: float):
        self.index, self.nseats, self.pace = index, seats, pace
        self.next_slot = 0.0
        self.pending: dict[int, list] = {}  # actor -> [send time, receipts]
        self.latencies: list[float] = []
        self.acks = 0
        self.done = asyncio.Event()
        self.finished_seats = 0
        self.turn = 0  # bare relay: actions so far
        self.debug: dict = {}  # seat -> its last message (shown if the table gets stuck)
        self.welcomed = 0

    def begin(self) -> None:
        """Play begins: the table's first action comes at a random moment of the next 1/pace
        seconds (tables that all began on the same clock would act in step, every second, as
        no real tables do)."""
        if self.pace:
            self.next_slot = monotonic() + random.random() / self.pace

    async def slot(self) -> None:
        """Wait for the table's next tick: every 1/pace seconds, on the table's own clock.
        Moves that come after the tick (a new deal, after the pause between deals) wait for the
        next one rather than go at once: tables whose deals came together, held up by a pause
        of the server or of this process, would otherwise act in step from then on (in
        Black Maria matches to 40 at 1,000 tables, two groups of about 115 and 70 tables each
        came to act within the same 10 ms of every second, and p99 was 20 ms rather than 8)."""
        if not self.pace:
            return
        now = monotonic()
        period = 1 / self.pace
        at = self.next_slot
        if at < now:
            at += math.ceil((now - at) / period) * period
        self.next_slot = at + period
        if at > now:
            await pause(at - now)

    def received(self, key, expected: int) -> None:
        entry = self.pending.get(key)
        if entry is None:
            return
        entry[1] += 1
        if entry[1] == expected:
            self.latencies.append(monotonic() - entry[0])
            del self.pending[key]


class Stats:
    def __init__(self, tables: list[Table]):
        self.tables = tables
        self.ready = 0  # tables whose every seat is welcomed
        self.errors: dict[str, int] = {}
        self.first_send: float | None = None
        self.last_done = 0.0
        self.sent = 0  # actions sent so far
        self.everyone_playing = asyncio.Event()  # every table has begun
        self.one_finished = asyncio.Event()  # some table is done
        self.finished = 0
        self.event_frames = self.event_bytes = 0  # the event frames our seats received
        # Seats hang up only once every table is done: 3,000 connections closing in the last
        # second (the matches all end together) would weigh on the last tables' latencies.
        self.all_finished = asyncio.Event()

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def table_ready(self) -> None:
        """One more table has every seat connected (and, for cardroom, welcomed: a seat
        welcomed later would find earlier actions in its first state). Play begins once all
        are, for both servers alike: the latency measured is that of T tables playing, not of
        tables set up meanwhile."""
        self.ready += 1
        if self.ready == len(self.tables):
            for table in self.tables:
                table.begin()
            self.everyone_playing.set()

    def done(self, table: "Table") -> None:
        self.last_done = time.monotonic()
        table.done.set()
        self.one_finished.set()
        self.finished += 1
        if self.finished == len(self.tables):
            self.all_finished.set()


def choose(moves: dict, rng: random.Random) -> dict:
    """A move, short auctions: in Big Mariage the first to speak opens at the lowest bid and
    the others pass (had everyone passed, every deal would be thrown in, and the match never
    end)."""
    from engine import expand_moves
    from engine.big_mariage import MIN_BID

    if isinstance(moves.get("pass"), dict) and "choose" in moves["pass"]:
        return {"type": "pass", "cards": rng.sample(moves["pass"]["from"], moves["pass"]["choose"])}
    if "bid" in moves and "pass" in moves:
        opening = moves["bid"][0] == MIN_BID
        return {"type": "bid", "value": MIN_BID} if opening else {"type": "pass"}
    if "contract" in moves:
        return {"type": "contract", "value": min(moves["contract"])}
    return rng.choice(expand_moves(moves))


async def ours_seat(url: str, token: str, table: Table, stats: Stats) -> None:
    import websockets

    rng = random.Random()
    async with websockets.connect(url, max_size=2 ** 22, ping_interval=None,
                                  open_timeout=60) as ws:
        await ws.send(json_text({"type": "hello", "token": token}))
        seat, busy, counter, last_state = None, False, 0, None
        seen = [0] * table.nseats  # accepted actions of each seat so far, as this seat saw them
        last_seq = 0  # the last event number this seat has had (a later copy is ignored)
        follower = Follower()  # the seat's STATE: the welcome's, then each event's changes

        async def act(state):
            nonlocal busy, counter
            await stats.everyone_playing.wait()
            await table.slot()
            counter += 1
            now = time.monotonic()
            if stats.first_send is None:
                stats.first_send = now
            stats.sent += 1
            table.pending[(seat, seen[seat])] = [now, 0]
            action = choose(state["match"]["moves"], rng)
            await ws.send(json_text({"type": "action", "id": f"{seat}-{counter}",
                                     "action": action}))

        async for raw in ws:
            message = orjson.loads(raw)
            kind = message["type"]
            table.debug[seat] = {k: v for k, v in message.items() if k != "state"}
            if kind == "event":
                stats.event_frames += 1
                stats.event_bytes += len(raw)
                if message["seq"] <= last_seq:
                    stats.error("repeated_event")
                    continue
                if message["seq"] != last_seq + 1:
                    stats.error("missed_event")
                last_seq = message["seq"]
                event = message["event"]
                if event["kind"] == "action":
                    actor = event["seat"]
                    table.received((actor, seen[actor]), table.nseats)
                    seen[actor] += 1
                    if event["seat"] == seat:
                        busy = False
                if "ack" in message:  # the event of this seat's own action: acknowledged
                    table.acks += 1
                try:
                    state = follower.follow(message)
                except OutOfStep:  # as the table page does: ask for the whole state again
                    stats.error("out_of_step")
                    await ws.send(json_text({"type": "sync"}))
                    continue
                if state is None:  # an earlier event of a batch: the changes come last
                    continue
            elif kind == "welcome":
                state = follower.follow(message)
                last_seq = state["seq"]
                if seat is None:  # the first (a later one answers a sync)
                    table.welcomed += 1
                    if table.welcomed == table.nseats:
                        stats.table_ready()
                seat = state["you"]["seat"]
            elif kind == "error":
                stats.error(message["code"])
                busy = False  # refused: choose again from the latest state
                state = last_state
            else:
                follower.follow(message)  # a seat's presence changes the STATE too
                continue
            last_state = state
            view = state.get("match")
            if view is None:
                continue
            if view["finished"]:
                table.finished_seats += 1
                if table.finished_seats == table.nseats:
                    stats.done(table)
                await stats.all_finished.wait()
                return
            if view["moves"] and not busy:
                busy = True
                asyncio.create_task(act(state))


async def bare_seat(url: str, seat: int, table: Table, stats: Stats, actions: int,
                    ready: asyncio.Event, connected: list) -> None:
    import websockets

    async with websockets.connect(url, max_size=2 ** 22, ping_interval=None,
                                  open_timeout=60) as ws:
        connected.append(seat)
        await ready.wait()
        filler = "x" * 40

        async def act():
            await table.slot()
            now = time.monotonic()
            if stats.first_send is None:
                stats.first_send = now
            stats.sent += 1
            table.pending[(seat, table.turn)] = [now, 0]
            await ws.send(json_text({"type": "action", "id": f"{seat}-{table.turn}",
                                     "action": {"type": "play", "card": "QS"},
                                     "n": table.turn, "seat": seat, "pad": filler}))

        if seat == 0:
            asyncio.create_task(act())
        async for raw in ws:
            message = orjson.loads(raw)
            actor, n = message["seat"], message["n"]
            table.received((actor, n), table.nseats - 1)
            if (actor + 1) % table.nseats == seat:
                table.turn = n + 1
            if n + 1 >= actions:
                table.finished_seats += 1
                if table.finished_seats >= table.nseats - 1:
                    stats.done(table)
                await stats.all_finished.wait()
                return
            if (actor + 1) % table.nseats == seat:
                if n + 2 >= actions:  # this seat makes the last move: send it and leave
                    await act()
                    await stats.all_finished.wait()
                    return
                asyncio.create_task(act())


async def client_main(args) -> dict:
    import httpx

    bases = args.urls.split(",")
    pids = [int(p) for p in args.pids.split(",") if p]
    nseats = {"marjolet": 2, "black_maria": 3, "big_mariage": 4}[args.game]
    tables = [Table(i, nseats, args.pace) for i in range(args.tables)]
    stats = Stats(tables)
    limit = asyncio.Semaphore(50)
    tasks = []
    if args.kind == "ours":
        async with httpx.AsyncClient(timeout=60) as http:
            async def prepare(table: Table):
                async with limit:
                    base = bases[table.index % len(bases)]
                    r = await http.post(f"{base}/api/rooms", json={
                        "game": args.game, "options": json.loads(args.options),
                        "seats": ["open"] * nseats})
                    r.raise_for_status()
                    code = r.json()["code"]
                    base = bases[zlib.crc32(code.encode()) % len(bases)]  # the room's process
                    tokens = []
                    for seat in range(nseats):
                        r = await http.post(f"{base}/api/rooms/{code}/join",
                                            json={"name": f"b{table.index}-{seat}", "seat": seat})
                        r.raise_for_status()
                        tokens.append(r.json()["token"])
                    return code, tokens
            rooms = await asyncio.gather(*(prepare(t) for t in tables))
        t_connect = time.monotonic()
        cpu0 = cpu_seconds(pids)
        db0 = service_cpu(args.db_services)
        host0 = host_ticks()
        for table, (code, tokens) in zip(tables, rooms):
            for seat, token in enumerate(tokens):
                turn = table.index + seat if args.spread_seats else zlib.crc32(code.encode())
                base = bases[turn % len(bases)].replace("http", "ws", 1)
                tasks.append(asyncio.create_task(
                    ours_seat(f"{base}/ws/{code}", token, table, stats)))
    else:
        ready = asyncio.Event()
        connected: list = []
        base = bases[0].replace("http", "ws", 1)
        t_connect = time.monotonic()
        cpu0 = cpu_seconds(pids)
        db0 = 0.0
        host0 = host_ticks()
        for table in tables:
            code = secrets.token_hex(4)
            for seat in range(nseats):
                tasks.append(asyncio.create_task(bare_seat(
                    f"{base}/ws/{code}", seat, table, stats, args.actions, ready, connected)))
        while len(connected) < len(tables) * nseats:
            await asyncio.sleep(0.05)
            if any(t.done() and t.exception() for t in tasks):
                break
        for _ in tables:
            stats.table_ready()
        ready.set()
    rss_samples = []

    async def sample():
        while True:
            rss_samples.append(rss_bytes(pids))
            await asyncio.sleep(1)

    sampler = asyncio.create_task(sample())
    lags: list[float] = []

    async def lag_probe():  # how late this client's own event loop runs: its share of latency
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.01)
            lags.append(time.monotonic() - before - 0.01)

    prober = asyncio.create_task(lag_probe())

    async def watchdog():  # no action anywhere for 30 s: give up on the stuck tables
        last, still = -1, 0
        while True:
            await asyncio.sleep(1)
            now_done = sum(len(t.latencies) for t in tables)
            still = still + 1 if now_done == last else 0
            last = now_done
            if still >= 30:
                for t in tables:
                    if not t.done.is_set():
                        print(f"stuck table {t.index}: {t.debug}", file=sys.stderr)
                for task in tasks:
                    task.cancel()
                return

    steady: dict = {}

    async def steady_window():
        """Server CPU per action while every table plays: after the last one began (the
        connections are all made) and before the first one ends."""
        await stats.everyone_playing.wait()
        cpu, db, sent = cpu_seconds(pids), service_cpu(args.db_services), stats.sent
        await stats.one_finished.wait()
        steady.update(cpu_s=cpu_seconds(pids) - cpu, actions=stats.sent - sent,
                      db_cpu_s=services_used(db, service_cpu(args.db_services)))

    async def no_collector_while_all_play():
        """This process's garbage collector stays off while the tables play: its young
        collections walked the states every seat keeps (100-130 ms each, once or twice a run),
        and every table's latency took the pause as the server's. What play leaves is parsed
        JSON, without cycles: freed as it goes without the collector."""
        await stats.everyone_playing.wait()
        gc.freeze()
        gc.disable()

    dog = asyncio.create_task(watchdog())
    window = asyncio.create_task(steady_window())
    quiet = asyncio.create_task(no_collector_while_all_play())
    results = await asyncio.gather(*tasks, return_exceptions=True)
    quiet.cancel()
    gc.enable()
    dog.cancel()
    window.cancel()
    sampler.cancel()
    prober.cancel()
    lags.sort()
    cpu1 = cpu_seconds(pids)
    db1 = service_cpu(args.db_services)
    host1 = host_ticks()
    failures = [repr(r)[:200] for r in results if isinstance(r, BaseException)]
    latencies = sorted(x for t in tables for x in t.latencies)
    actions = len(latencies)
    start = stats.first_send or t_connect
    duration = max(stats.last_done, start + 1e-9) - start
    return {
        "tables": args.tables, "actions": actions,
        "acks": sum(t.acks for t in tables),
        "complete_tables": sum(1 for t in tables if t.done.is_set()),
        "duration": duration, "actions_per_s": actions / duration if duration else 0,
        "p50_ms": 1000 * latencies[len(latencies) // 2] if latencies else None,
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        if latencies else None,
        "max_ms": 1000 * latencies[-1] if latencies else None,
        "mean_ms": 1000 * statistics.fmean(latencies) if latencies else None,
        "errors": stats.errors, "failures": failures[:5], "failed_seats": len(failures),
        "event_bytes": stats.event_bytes / stats.event_frames if stats.event_frames else None,
        "cpu_s": cpu1 - cpu0, "db_cpu_s": services_used(db0, db1), "steady": steady,
        "rss_peak": max(rss_samples) if rss_samples else rss_bytes(pids),
        "connect_s": start - t_connect,
        "client_lag_p99_ms": 1000 * lags[int(len(lags) * 0.99)] if lags else None,
        "client_cpu_s": time.process_time(),
        "steal": (host1[0] - host0[0]) / max(1, host1[1] - host0[1]),
        "play": [start, start + duration],  # monotonic: the host's disk is judged over it
    }


# -- the orchestrator ------------------------------------------------------------------------


class Servers:
    def __init__(self, kind: str, n: int, env: dict, cpus: set[int] | None, logdir: str,
                 profile_dir: str | None = None):
        self.procs, self.urls, self.logs = [], [], []
        self.profile_dir = profile_dir
        for i in range(n):
            port = free_port()
            if kind == "ours":
                profile = ["-m", "cProfile", "-o", os.path.join(profile_dir, f"ours-{i}.prof")] \
                    if profile_dir else []
                cmd = [PY, *profile, "-m", "app.cli", "serve", "--no-migrate", "--port", str(port)]
            else:
                cmd = [PY, "-m", "uvicorn", "bench.bare_relay:app", "--port", str(port),
                       "--log-level", "warning", "--ws-per-message-deflate", "false"]
            log = open(os.path.join(logdir, f"{kind}-{i}.log"), "w")
            self.logs.append(log.name)
            proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=log)
            if cpus:
                os.sched_setaffinity(proc.pid, cpus)
            self.procs.append(proc)
            self.urls.append(f"http://127.0.0.1:{port}")
        for url in self.urls:
            wait_http(url + ("/api/health" if kind == "ours" else "/health"))

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def stop(self) -> None:
        # uvicorn raises the signal again once it has shut down: SIGTERM would end a profiled
        # server before cProfile writes, where SIGINT's KeyboardInterrupt lets it
        stop = signal.SIGINT if self.profile_dir else signal.SIGTERM
        for p in self.procs:
            p.send_signal(stop)
        for p in self.procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()


def fresh_database(kind: str, tmp: str) -> tuple[str, callable]:
    from app.storage.migrate import upgrade

    if kind == "sqlite":
        url = f"sqlite:///{tmp}/bench-{secrets.token_hex(3)}.db"
        upgrade(url)
        return url, lambda: None
    from contextlib import ExitStack

    from app.storage.db import scratch_schema

    schema = ExitStack()
    url = schema.enter_context(scratch_schema(PG_BASE, "cardroom_bench"))
    upgrade(url)
    return url, schema.close


def stored_actions(url: str) -> int:
    from sqlalchemy import func, select

    from app.storage.models import RoomEvent
    from app.storage.store import Store

    store = Store(url)
    with store.sessions() as s:
        n = s.scalar(select(func.count()).select_from(RoomEvent)
                     .where(RoomEvent.kind == "action"))
    store.close()
    return n


def run_clients(args, kind: str, urls: list[str], pids: list[int], tables: int,
                db_services, cpus: set[int] | None) -> dict:
    cmd = [PY, os.path.abspath(__file__), "_client", "--kind", kind, "--urls", ",".join(urls),
           "--pids", ",".join(map(str, pids)), "--tables", str(tables), "--pace", str(args.pace),
           "--game", args.game, "--options", args.options, "--actions", str(args.bare_actions),
           "--db-services", ",".join(db_services)]
    if args.spread_seats:
        cmd.append("--spread-seats")
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    if cpus:
        os.sched_setaffinity(proc.pid, cpus)
    out, _ = proc.communicate(timeout=args.timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"the client process failed ({proc.returncode})")
    return json.loads(out.strip().splitlines()[-1])


def one_run(args, kind: str, tables: int, tmp: str) -> dict:
    ncpu = os.cpu_count() or 1
    pin = args.pin and ncpu >= 2
    server_cpus = set(range(ncpu - 1)) if pin else None
    client_cpus = {ncpu - 1} if pin else None
    env = {**os.environ, "BOT_DELAY": "0", "DEAL_PAUSE": "0", "RATE": "1000", "LIMITS": "false",
           "LOG_LEVEL": args.log_level, "PYTHONPATH": ROOT}
    drop = lambda: None  # noqa: E731
    db_url = None
    n = 1
    if kind == "ours":
        if args.url:
            urls, pids = args.url.split(","), [int(p) for p in (args.pids or "").split(",") if p]
            db_url = args.database_url
        else:
            db_url, drop = fresh_database(args.db, tmp)
            env["DATABASE_URL"] = db_url
            n = args.processes
            if args.redis and n > 1:
                env["REDIS_URL"] = args.redis
                env["REDIS_CHANNEL"] = f"cardroom-bench-{secrets.token_hex(3)}"
    servers = None
    try:
        if not (kind == "ours" and args.url):
            servers = Servers(kind, n, env, server_cpus, tmp, args.profile)
            urls, pids = servers.urls, servers.pids
            time.sleep(0.5)
        rss0 = rss_bytes(pids)
        services = ("postgres", "redis-server") if env.get("REDIS_URL") else ("postgres",)
        db_services = services if (kind == "ours" and args.db == "postgres") else ()
        probe = DiskProbe(tmp, client_cpus)
        try:
            result = run_clients(args, kind, urls, pids, tables, db_services, client_cpus)
        finally:
            syncs = probe.stop()
        result["disk"] = disk_figures(syncs, *result["play"])
        if kind == "ours" and servers:  # the play's window in the logs' wall time
            wall = time.time() - time.monotonic()
            lines = [line for path in servers.logs
                     for line in pathlib.Path(path).read_text().splitlines()]
            result["stalls"] = stall_figures(lines, *(wall + t for t in result["play"]))
        result["rss0"] = rss0
        result["kind"] = kind
        result["db"] = args.db if kind == "ours" else None
        result["processes"] = n
        result["redis"] = "REDIS_URL" in env
        if kind == "ours" and db_url:
            result["stored"] = stored_actions(db_url)
            if args.audit:
                from app.ops.audit import audit

                result["audit"] = audit(db_url)
        return result
    finally:
        if servers:
            servers.stop()
        drop()


def show(r: dict) -> str:
    mem = (r["rss_peak"] - r["rss0"]) / max(1, r["tables"]) / 1024
    cpu = 1000 * (per_action(r) or 0)
    line = (f"{r['kind']:5} T={r['tables']:5} {r.get('db') or '':8} procs={r['processes']} "
            f"actions={r['actions']:6} done={r['complete_tables']}/{r['tables']} "
            f"{r['actions_per_s']:7.1f}/s  lat p50={r['p50_ms'] or 0:6.1f} "
            f"p99={r['p99_ms'] or 0:7.1f} max={r['max_ms'] or 0:7.1f} ms  "
            f"cpu/action={cpu:.3f} ms")
    steady = per_action(r, "steady")
    if steady:
        line += f" (while all play: {1000 * steady:.3f} ms)"
    if r.get("db_cpu_s"):
        services = "db, Redis" if r.get("redis") else "db"
        line += f" (+{services} {1000 * r['db_cpu_s'] / max(1, r['actions']):.3f} ms"
        if r.get("steady", {}).get("actions"):
            window = r["steady"]
            line += f", while all play {1000 * window['db_cpu_s'] / window['actions']:.3f}"
        line += ")"
    line += f"  mem/table={mem:.1f} KiB  errors={r['errors'] or 0}"
    if r.get("event_bytes"):
        line += f"  bytes/event/connection={r['event_bytes']:.0f}"
    line += (f"  client: lag p99={r['client_lag_p99_ms'] or 0:.1f} ms "
             f"cpu={100 * r['client_cpu_s'] / max(r['duration'], 1e-9):.0f}%")
    if r.get("steal") is not None:  # a slow host shows in every figure, latencies the most
        line += f"  host steal={100 * r['steal']:.0f}%"
    if r.get("disk"):  # a disk stall holds every commit: p99 over 20 ms with a fsync max as long
        d = r["disk"]
        line += (f"  host fsync p99={d['p99_ms']:.1f} max={d['max_ms']:.1f} ms "
                 f"({d['slow']} of {d['syncs']} over 50 ms)")
    if r.get("stalls"):  # what held the server's event loop, in its own words
        line += "  server stalls: " + " ".join(
            f"{kind} {n}" + (f" (max {longest:.0f} ms)" if n else "")
            for kind, (n, longest) in r["stalls"].items())
    if r["failed_seats"]:
        line += f" failed_seats={r['failed_seats']} {r['failures'][:2]}"
    if "stored" in r:
        line += f"  stored={r['stored']} acked={r['acks']}"
    if "audit" in r:
        a = r["audit"]
        line += (f"  audit: {a['matches']} matches, {a['finished']} finished, "
                 f"{'OK' if a['ok'] else 'FAILED ' + '; '.join(a['problems'][:3])}")
    return line


def per_action(r: dict, part: str | None = None, services: bool = False) -> float | None:
    """CPU seconds per action of a run's servers (``part="steady"``: while every table plays;
    ``services``: PostgreSQL's and Redis's included)."""
    r = (r.get(part) or {}) if part else r
    cpu = r.get("cpu_s", 0) + (r.get("db_cpu_s", 0) if services else 0)
    return cpu / r["actions"] if r.get("actions") else None


def ratios(ours: dict, base: dict) -> dict:
    """Ours over the baseline's: CPU per action, the services' included (overall and while all
    play), latencies, actions per second."""
    steady_o = per_action(ours, "steady", services=True)
    steady_b = per_action(base, "steady", services=True)
    return {
        "cpu": per_action(ours, services=True) / per_action(base, services=True),
        "cpu_steady": steady_o / steady_b if steady_o and steady_b else 0.0,
        "p50": (ours["p50_ms"] or 0) / (base["p50_ms"] or 1),
        "p99": (ours["p99_ms"] or 0) / (base["p99_ms"] or 1),
        "actions_per_s": ours["actions_per_s"] / (base["actions_per_s"] or 1),
    }


def show_ratios(r: dict, baseline: str, what: str = "") -> str:
    return (f"      ratio ours/{baseline}{' (' + what + ')' if what else ''}: cpu/action "
            f"x{r['cpu']:.2f} (while all play x{r['cpu_steady']:.2f})  p50 x{r['p50']:.2f}  "
            f"p99 x{r['p99']:.2f}  actions/s x{r['actions_per_s']:.2f}")


def baseline_run(args, tables: int, tmp: str) -> dict:
    """The bare relay, or cardroom's one process on SQLite (``--baseline sqlite``)."""
    if args.baseline == "bare":
        return one_run(args, "bare", tables, tmp)
    alone = argparse.Namespace(**{**vars(args), "db": "sqlite", "processes": 1, "redis": None,
                                  "url": None, "spread_seats": False})
    return one_run(alone, "ours", tables, tmp)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50", help="comma list of table counts")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="actions per second per table (0: as fast as possible)")
    parser.add_argument("--game", default="black_maria")
    parser.add_argument("--options", default='{"target": 1}', help="JSON game options")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--redis", default=None, help="Redis URL (several processes)")
    parser.add_argument("--url", default=None, help="use running server(s): comma list")
    parser.add_argument("--pids", default=None, help="their pids, for CPU and memory")
    parser.add_argument("--database-url", default=None, help="their database, for the audit")
    parser.add_argument("--no-bare", action="store_true", help="no baseline run")
    parser.add_argument("--baseline", choices=["bare", "sqlite"], default="bare",
                        help="what ours is compared with: the bare relay, or (for PostgreSQL) "
                             "cardroom's one process on SQLite")
    parser.add_argument("--spread-seats", action="store_true",
                        help="a table's seats on the processes in turn, not all on its own")
    parser.add_argument("--profile", default=None, metavar="DIR",
                        help="run our servers under cProfile, writing DIR/ours-N.prof (its "
                             "overhead inflates CPU and latency: for where the time goes only)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="ours then the baseline, this many times per table count, with "
                             "the median ratios (this machine's speed drifts 10-20%% between "
                             "runs)")
    parser.add_argument("--no-audit", dest="audit", action="store_false")
    parser.add_argument("--pin", action=argparse.BooleanOptionalAction, default=True,
                        help="servers on the first cores, clients on the last one")
    parser.add_argument("--bare-actions", type=int, default=54,
                        help="actions per table against the bare relay (a Black Maria deal)")
    parser.add_argument("--log-level", default="INFO")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--json", default=None, help="also write the results here")
    args = parser.parse_args()
    if args.db == "postgres" and args.processes > 1 and not args.redis:
        args.redis = "redis://127.0.0.1:6379/0"
    results = []
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-") as tmp:
        for tables in [int(t) for t in args.tables.split(",")]:
            rounds = []
            for _ in range(args.rounds):
                ours = one_run(args, "ours", tables, tmp)
                print(show(ours), flush=True)
                entry = {"ours": ours}
                if not args.no_bare:
                    base = baseline_run(args, tables, tmp)
                    print(show(base), flush=True)
                    entry["baseline"] = base
                    entry["ratios"] = ratios(ours, base)
                    print(show_ratios(entry["ratios"], args.baseline), flush=True)
                    rounds.append(entry["ratios"])
                results.append(entry)
            if len(rounds) > 1:
                print(show_ratios({key: statistics.median(r[key] for r in rounds)
                                   for key in rounds[0]}, args.baseline,
                                  f"median of {len(rounds)} rounds"),
                      "  cpu/action ratios: "
                      + " ".join(f"{r['cpu']:.2f}" for r in sorted(rounds, key=lambda r: r["cpu"])),
                      flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    bad = [e for e in results if "audit" in e["ours"] and not e["ours"]["audit"]["ok"]
           or e["ours"].get("stored", e["ours"]["acks"]) < e["ours"]["acks"]]
    return 1 if bad else 0


def client_entry() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("_client")
    parser.add_argument("--kind")
    parser.add_argument("--urls")
    parser.add_argument("--pids", default="")
    parser.add_argument("--db-services", default="")
    parser.add_argument("--tables", type=int)
    parser.add_argument("--pace", type=float)
    parser.add_argument("--game")
    parser.add_argument("--options")
    parser.add_argument("--actions", type=int)
    parser.add_argument("--spread-seats", action="store_true")
    args = parser.parse_args()
    args.db_services = [name for name in args.db_services.split(",") if name]
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    # The clients are the measuring instrument: the collector settings of `cardroom serve`
    # keep their own pauses (full collections over thousands of parsed states) out of the
    # latencies they measure, against either server.
    from app.cli import calm_garbage_collector

    calm_garbage_collector()
    print(json.dumps(asyncio.run(client_main(args))))
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "_client":
        sys.exit(client_entry())
    if len(sys.argv) > 2 and sys.argv[1] == "_disk_probe":
        sys.exit(disk_probe(sys.argv[2]))
    sys.exit(main())
