"""The load benchmark's pacing (each table acts on its own clock), its disk probe and its count of
the services' CPU."""

from __future__ import annotations

import asyncio
import importlib.util
import pathlib
import threading
import time

import pytest

PATH = pathlib.Path(__file__).resolve().parents[2] / "bench" / "load_bench.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("load_bench", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def bench():
    """The bench module on a clock that moves only when it sleeps."""
    module = load_bench()
    clock = [100.0]

    async def sleep(seconds):
        clock[0] += seconds

    module.monotonic, module.pause = (lambda: clock[0]), sleep
    module.clock = clock
    return module


def test_a_table_acts_once_per_tick_from_its_own_phase(bench):
    table = bench.Table(0, 3, pace=2)  # a tick every half second
    table.begin()
    phase = table.next_slot
    assert 100.0 <= phase < 100.5
    acted = []
    for _ in range(3):
        asyncio.run(table.slot())
        acted.append(bench.clock[0])
    assert acted == pytest.approx([phase, phase + 0.5, phase + 1.0])


def test_moves_that_come_after_the_tick_wait_for_the_next_one(bench):
    """After a pause (between deals, or the server held up) the table keeps its rhythm: tables
    whose moves came at the same moment do not act in step from then on."""
    tables = [bench.Table(i, 3, pace=1) for i in range(2)]
    for table, phase in zip(tables, (0.2, 0.7)):
        table.next_slot = 100.0 + phase
    bench.clock[0] = 103.9  # both tables' next moves come now, long after their ticks
    acted = []
    for table in tables:
        start = bench.clock[0]
        asyncio.run(table.slot())
        acted.append(bench.clock[0])
        bench.clock[0] = start
    assert acted == pytest.approx([104.2, 104.7])
    assert tables[0].next_slot == pytest.approx(105.2)


def probe_writes(directory, writes: int) -> None:
    """Wait until the disk probe has written its file ``writes`` times or more: each write
    changes the file's modification time (they are PROBE_EVERY apart, and each comes after
    the fdatasync of the one before)."""
    seen = set()
    deadline = time.monotonic() + 120  # only so that a probe that never writes fails
    while len(seen) < writes:
        for path in directory.iterdir():
            try:
                seen.add(path.stat().st_mtime_ns)
            except FileNotFoundError:
                pass
        assert time.monotonic() < deadline, f"the probe wrote {len(seen)} times in 2 minutes"
        time.sleep(0.005)


def test_the_disk_probe_times_fdatasyncs_in_the_directory_it_is_given(tmp_path):
    bench = load_bench()
    before = time.monotonic()
    probe = bench.DiskProbe(str(tmp_path), None)
    probe_writes(tmp_path, 4)  # the file's creation, then three writes at least
    syncs = probe.stop()  # it ends the fdatasync of its last write first
    after = time.monotonic()
    assert len(syncs) >= 3
    # each: when it began (the monotonic clock, which the probe shares), and how long it took
    assert all(before <= began and began + seconds <= after for began, seconds in syncs)
    assert all(seconds >= 0 for _, seconds in syncs)
    assert [began for began, _ in syncs] == sorted(began for began, _ in syncs)
    assert not any(tmp_path.iterdir())  # its file is gone


def test_the_host_fsync_figures_count_the_play_only():
    """A stall before the tables play (or after) is not the play's: only fdatasyncs begun
    within the play count."""
    syncs = [[1.0, 0.9], [2.0, 0.001], [2.5, 0.07], [3.0, 0.002], [4.0, 0.003], [9.0, 2.0]]
    figures = load_bench().disk_figures(syncs, 2.0, 4.0)
    assert figures["syncs"] == 4 and figures["slow"] == 1
    assert figures["max_ms"] == pytest.approx(70)
    assert load_bench().disk_figures(syncs, 5.0, 8.0) == {}


def test_the_server_stalls_are_its_own_lines_begun_within_the_play(tmp_path):
    """The server's stall lines (app/stalls.py) as the logging of ``cardroom serve`` writes
    them, counted by kind with the longest. A line is written when its stall ends: only those
    that began within the play count (not the setup's, which may end just after the play
    began, nor the hanging up after it); other lines are passed by."""
    import logging

    from app.ops import logs, stalls

    path = tmp_path / "ours-0.log"
    with open(path, "w") as stream:
        handler = logging.StreamHandler(stream)  # as logs.configure's QueueListener writes
        handler.setFormatter(logging.Formatter("%(message)s"))
        # this test's lines alone: a live server of another test in this process has its own
        # stalls on a loaded machine, in its own thread
        me = threading.get_ident()
        handler.addFilter(lambda record: record.thread == me)
        logs.room_log.addHandler(handler)
        level = logs.room_log.level
        logs.room_log.setLevel(logging.INFO)
        try:
            start = time.time()
            # the setup's, which began 0.8 s before the play and ended just after it began
            # (however long this line took to come)
            stalls.stalled("loop_stall", time.time() - start + 0.800)
            time.sleep(0.2)  # a stall's line comes at its end: these began in the play
            stalls.stalled("gc_pause", 0.061, generation=0, collected=0)
            stalls.stalled("slow_write", 0.025, what="commit", writes=12)
            stalls.stalled("slow_write", 0.140, what="commit", writes=3)
            logs.event("room_created", "ABCDEF", ms_left=3)
            end = time.time()
            time.sleep(0.01)
            stalls.stalled("loop_stall", 0.005)  # after the play: the tables hanging up
        finally:
            logs.room_log.removeHandler(handler)
            logs.room_log.setLevel(level)
            handler.flush()
    lines = path.read_text().splitlines() + ["not json", '{"ms": 5}']
    # the lines' times are to the millisecond: the window as well
    figures = load_bench().stall_figures(lines, start - 0.001, end + 0.001)
    assert figures == {"loop": [0, 0.0], "gc": [1, 61.0], "writes": [2, 140.0]}


def test_a_service_process_started_during_play_counts_whole():
    """PostgreSQL starts a process for each connection, and the servers connect while they
    play: its CPU counts though it was not there at the first reading."""
    import subprocess
    import sys

    bench = load_bench()
    name = f"crbench{threading.get_ident() % 10**6}"  # /proc/PID/comm: 15 characters at most
    before = bench.service_cpu([name])
    burn = ("import time\nopen('/proc/self/comm', 'w').write(%r)\n"
            "t = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"
            "print('burnt', flush=True)\ntime.sleep(30)\n" % name)
    process = subprocess.Popen([sys.executable, "-c", burn], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline() == "burnt\n"
        after = bench.service_cpu([name])
        assert list(after) == [process.pid] and before == {}
        assert 0.25 <= bench.services_used(before, after) < 5
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize("game", ["marjolet", "black_maria", "big_mariage"])
def test_the_bench_seats_finish_a_match_of_every_game(bench, game):
    """The bench measures each game's events (its bytes per event): its seats' moves must end
    a match. Seats that all passed in Big Mariage's auction threw in every deal for ever."""
    import random

    from engine import new_match

    rng, match, actions = random.Random(7), new_match(game, {"target": 1}), 0
    while not match.finished and actions < 2000:
        if match.current is None:
            match.start_deal(rng=rng)
        seat = match.to_act()[0]
        match.apply(seat, bench.choose(match.moves(seat), rng))
        actions += 1
    assert match.finished
