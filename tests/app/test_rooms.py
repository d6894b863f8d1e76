"""Room delivery, in process: what every seat gets alike (ROOM, the chat) is encoded once and
kept between deliveries, so each change of it must reach the next state sent."""

from __future__ import annotations

import asyncio

import orjson
import pytest
from sqlalchemy import select

from app.protocol import Follower, Refusal
from app.rooms import Connection, RoomRegistry
from app.settings import Settings
from app.storage.repository import RoomRepository
from app.storage.store import Store


class Seat:
    """A connection whose frames are kept, decoded."""

    def __init__(self):
        self.messages: list[dict] = []
        self.conn = Connection(self._send)
        self.follower = Follower()

    async def _send(self, text: str) -> None:
        message = orjson.loads(text)
        state = self.follower.follow(message)
        if state is not None and message["type"] != "presence":
            message["state"] = state  # as the table page works it out
        self.messages.append(message)

    @property
    def state(self) -> dict:
        return self.follower.state


@pytest.fixture
def options():
    """The table's match options and settings (a test may ask for others)."""
    return {"target": 1}, {"deal_pause": 0, "standin_grace": 0}


@pytest.fixture
async def table(tmp_path, options):
    """A Black Maria room, three people connected: (room, seats, tokens)."""
    from app.storage.migrate import upgrade

    url = f"sqlite:///{tmp_path}/rooms.db"
    upgrade(url)
    match_options, more = options
    settings = Settings(database_url=url, bot_delay=0, room_idle=0, **more)
    store = Store(url)
    rooms = RoomRegistry(settings, RoomRepository(store))
    room = await rooms.create("black_maria", match_options, [("open", None)] * 3, None)
    seats, tokens = [], []
    for i in range(3):
        _, token = await room.join(f"p{i}", i)
        seat = Seat()
        await room.attach(seat.conn, token, None)
        seats.append(seat)
        tokens.append(token)
    # the last seat taken starts the match and deals, before join returns
    assert room.state.status == "playing" and room.state.match.current is not None
    yield room, seats, tokens
    await rooms.close()
    store.close()


async def settled(room, predicate, what: str) -> None:
    """Let the room's driver (bots, deals) run until ``predicate()`` holds."""
    for _ in range(1000):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never {what}")


async def act(room, seats) -> None:
    """The first legal move of a person whose turn it is (a stand-in plays by itself); none
    if the deal ends meanwhile (a stand-in played its last card)."""
    state = room.state

    def people_to_act() -> list[int]:
        return [s for s in state.match.to_act() if not state.seats[s].played_by_bot]
    await settled(room, lambda: state.match.current is None or people_to_act(), "a person's turn")
    if state.match.current is None:
        return
    match = state.match
    seat = people_to_act()[0]
    moves = match.moves(seat)
    action = ({"type": "play", "card": moves["play"][0]} if "play" in moves
              else {"type": "pass", "cards": moves["pass"]["from"][:3]})
    await room.act(seat, action, by=seats[seat].conn)


@pytest.mark.parametrize("options", [({"target": 1}, {"deal_pause": 0, "standin_grace": 30})])
async def test_a_seat_is_handed_to_a_bot_only_once_its_person_has_been_away_a_while(table):
    """A blip of a phone's link is not leaving the table: within ``standin_grace`` of a
    person's going, their seat is not handed to a bot (an opponent had given it to the random
    bot 0.3 s after a phone went offline); after it, it is. A person whose going this process
    did not see (away before the room was loaded here) is away since it was loaded."""
    room, seats, _ = table
    room.detach(seats[2].conn)
    with pytest.raises(Refusal) as refused:  # (played for in earnest: never by the random bot)
        await room.standin(0, 2, "random")
    assert refused.value.reason == "standin_not_random"
    with pytest.raises(Refusal) as refused:
        await room.standin(0, 2, "rules")
    assert refused.value.reason == "away_briefly" and 29 <= refused.value.params["seconds"] <= 30
    assert not room.state.seats[2].standin
    room.presence.gone_at[2] -= 30  # (half a minute on)
    await room.standin(0, 2, "rules")
    assert room.state.seats[2].standin
    room.detach(seats[1].conn)
    del room.presence.gone_at[1]  # (as if gone before the room was loaded here, just now)
    with pytest.raises(Refusal):  # (after a restart, everyone comes back at once)
        await room.standin(0, 1, "rules")
    room.presence.since -= 30
    await room.standin(0, 1, "rules")
    assert room.state.seats[1].standin


@pytest.mark.parametrize("options", [({"target": 1000}, {"deal_pause": 3600, "standin_grace": 0})])
async def test_a_wait_for_the_summary_is_told_stored_and_undone_by_the_next_deal_asked(table):
    room, seats, _ = table
    while not room.state.between_deals:
        await act(room, seats)
    await room.ready(1, wait=True)
    await act_settled(room, seats, lambda s: s["room"]["waiting"] == [1])
    async with room.lock:
        await room.reload()  # as another process, or a restart, finds it
    assert room.state.waiting == {1} and room.state.ready == set()
    await room.ready(1)
    async with room.lock:
        await room.reload()
    assert room.state.waiting == {1} and room.state.ready == {1}
    with pytest.raises(Refusal):
        await room.ready(None, wait=True)


async def play_to_the_end(room, seats) -> None:
    """The people play their first legal moves, and stand-ins theirs, to the match's end."""
    state = room.state
    while not state.match.finished:
        if all(state.seats[s].played_by_bot for s in state.match.to_act()):
            await settled(room, lambda: state.match.finished or not all(
                state.seats[s].played_by_bot for s in state.match.to_act()),
                "the stand-in played")
        else:
            await act(room, seats)


async def act_settled(room, seats, predicate) -> None:
    """Every connection's state satisfies ``predicate``."""
    await settled(room, lambda: all(predicate(seat.state) for seat in seats), "told")


async def test_each_change_of_room_or_chat_reaches_the_next_state(table):
    room, seats, tokens = table
    await act(room, seats)
    assert seats[0].state["room"]["seats"][2]["connected"]
    # a person leaves: the states after say so
    room.detach(seats[2].conn)
    await act(room, seats)
    assert not seats[0].state["room"]["seats"][2]["connected"]
    # ... and comes back
    back = Seat()
    await room.attach(back.conn, tokens[2], None)
    seats[2] = back
    await act(room, seats)
    assert seats[0].state["room"]["seats"][2]["connected"]
    # a chat line
    await room.say(1, "hello")
    await act(room, seats)
    assert [line["text"] for line in seats[0].state["chat"]] == ["hello"]
    # a seat handed to a bot
    room.detach(seats[2].conn)
    await room.standin(0, 2, "rules")
    await act(room, seats)
    assert seats[0].state["room"]["seats"][2]["standin"]
    # the match ends: its last state says finished
    await play_to_the_end(room, seats)
    await settled(room, lambda: seats[0].state["room"]["status"] == "finished",
                  "told the match is over")
    assert seats[0].state["room"] == room.describe()


async def test_the_others_are_told_at_once_when_a_person_leaves_and_comes_back(table):
    """PRESENCE: a person's last connection gone, or back, reaches the others without waiting
    for the next state (the page shows the seat away); and each state sent carries the event
    number of the frame that brings it."""
    room, seats, tokens = table
    room.detach(seats[2].conn)
    gone = {"type": "presence", "seat": 2, "connected": False}
    await settled(room, lambda: all(gone in seat.messages for seat in seats[:2]),
                  "told the others seat 2 is away")
    seats[2] = Seat()
    await room.attach(seats[2].conn, tokens[2], None)
    back = {"type": "presence", "seat": 2, "connected": True}
    await settled(room, lambda: all(back in seat.messages for seat in seats[:2]),
                  "told the others seat 2 is back")
    # the server knows each client set it in its state: the next changes start from there
    assert all(seat.conn.sent == seat.state for seat in seats[:2])
    assert seats[0].state["room"]["seats"][2]["connected"] is True
    await act(room, seats)
    framed = [m for seat in seats for m in seat.messages if m.get("state")]
    assert {m["type"] for m in framed} == {"welcome", "event"}
    assert all(m["state"]["seq"] == m["seq"] for m in framed)


async def test_every_seat_gets_the_state_of_its_own_seat(table):
    """Frames are built once per seat and shared by that seat's connections only: each one
    holds its seat's own view (its hand, its pass), never another seat's."""
    room, seats, tokens = table
    twin = Seat()  # a second connection of seat 1
    await room.attach(twin.conn, tokens[1], None)
    watcher = Seat()
    await room.attach(watcher.conn, None, None)
    viewers = [(0, seats[0]), (1, seats[1]), (2, seats[2]), (1, twin), (None, watcher)]
    for _ in range(8):  # the three passes, then the first tricks' cards
        for _, seat in viewers:
            seat.messages.clear()
        await act(room, seats)
        for viewer, seat in viewers:
            states = [m["state"] for m in seat.messages if "state" in m]
            assert states, f"seat {viewer} was told nothing"
            assert all(s["you"]["seat"] == viewer for s in states)
            assert states[-1]["match"] == room.state.match.view(viewer)
            hands = states[-1]["match"]["deal"]["hands"]
            assert [i for i, hand in enumerate(hands) if hand is not None] == \
                ([] if viewer is None else [viewer])


@pytest.mark.parametrize("options", [({"target": 1000}, {"deal_pause": 3600})])
async def test_the_next_deal_comes_once_every_person_at_the_table_asked_for_it(table):
    """A deal's summary stays (an hour here) until each person connected to a seat asked for
    the next deal; a person who left is not waited for."""
    from app.protocol import Refusal

    room, seats, tokens = table
    with pytest.raises(Refusal) as refused:
        await room.ready(0)  # the deal is not over
    assert refused.value.reason == "no_deal_to_close"
    state = room.state
    while state.match.current is not None:
        await act(room, seats)
    assert state.between_deals and seats[0].state["room"]["deal_left"] > 3000
    await room.ready(1)
    await room.ready(1)  # twice: nothing more
    assert seats[0].state["room"]["ready"] == [1]
    assert [m["event"]["kind"] for m in seats[0].messages[-2:]] == ["action", "ready"]
    room.detach(seats[2].conn)  # gone: not waited for
    await room.ready(0)
    await settled(room, lambda: len(state.match.deals) == 2, "dealt the next deal")
    assert state.ready == set() and seats[0].state["room"]["ready"] == []
    # asked for by a page as the next deal came (its countdown ended meanwhile): nothing to do,
    # and no refusal (a person had been told "no deal is waiting for the next one")
    seq = state.seq
    for wait in (False, True):
        await room.ready(1, wait=wait, read=0)
    assert state.seq == seq and state.ready == set() and state.waiting == set()
    for read in (1, None):  # (the deal in play, or not said: refused as before)
        with pytest.raises(Refusal) as refused:
            await room.ready(1, read=read)
        assert refused.value.reason == "no_deal_to_close"
    with pytest.raises(Refusal) as refused:
        await room.ready(None)
    assert refused.value.code == "not_seated"


@pytest.mark.parametrize("options", [({"target": 1000}, {"deal_pause": 3600, "standin_grace": 0})])
async def test_a_seat_a_bot_plays_for_someone_away_can_be_taken_by_another_person(table):
    """A spectator (a grandmother watching) takes the seat of someone away that a bot plays,
    once the deal ends (during one, its hidden cards would reach whoever handed the seat to the
    bot and came back as another person): the seat is hers, with a new token; the old one no
    longer seats anyone; the match stays credited to whoever began it there. A seat whose
    person is only away, or connected, is not to be taken."""
    from app.protocol import Refusal
    from app.storage.models import MatchPlayer

    room, seats, tokens = table
    state = room.state
    with pytest.raises(Refusal) as refused:
        await room.join("Gran", 1)  # p1 is here
    assert refused.value.reason == "seat_taken"
    room.detach(seats[1].conn)
    with pytest.raises(Refusal) as refused:
        await room.join("Gran", 1)  # away, but nobody has handed the seat to a bot
    assert refused.value.reason == "seat_taken"
    await room.standin(0, 1, "rules")
    for name in ("Gran", "p1"):  # (a guest's name is anyone's: p1's own too)
        with pytest.raises(Refusal) as refused:
            await room.join(name, 1)
        assert refused.value.reason == "take_over_between_deals"
    # nor by whoever claimed p1's name meanwhile (a guest's player row is the name's, and
    # claiming it gives the row to anyone): only a seat taken with a key is its player's
    with pytest.raises(Refusal) as refused:
        await room.join("p1", 1, player_id=state.seats[1].player_id)
    assert refused.value.reason == "take_over_between_deals"
    with pytest.raises(Refusal) as refused:
        await room.join("p0", 1)  # (one person, one seat)
    assert refused.value.reason in ("already_seated", "take_over_between_deals")
    while state.match.current is not None:
        await act(room, seats)
    with pytest.raises(Refusal) as refused:
        await room.join("p0", 1)
    assert refused.value.reason == "already_seated"
    held = Seat()  # a connection still seated there (its stand-in not yet gone): not taken
    await room.attach(held.conn, None, None)
    held.conn.seat = 1
    with pytest.raises(Refusal) as refused:
        await room.join("Gran", 1)
    assert refused.value.reason == "take_over_between_deals"
    room.detach(held.conn)
    seat, token = await room.join("Gran", 1)
    assert seat == 1 and token != tokens[1]
    taken = state.seats[1]
    assert (taken.kind, taken.name, taken.standin, taken.bot) == ("human", "Gran", False, None)
    gran = Seat()
    assert await room.attach(gran.conn, token, None)
    assert gran.state["you"]["seat"] == 1
    back = Seat()
    await room.attach(back.conn, tokens[1], None)  # p1 back: a spectator now
    assert back.state["you"]["seat"] is None
    await room.reload()  # as stored: hers, with no stand-in left
    assert room.state.seats[1].name == "Gran" and not room.state.seats[1].standin
    with room.repository.store.sessions() as session:
        names = session.scalars(select(MatchPlayer.name).where(
            MatchPlayer.match_id == room.state.match_id).order_by(MatchPlayer.seat)).all()
    assert names == ["p0", "p1", "p2"]


async def test_a_room_rebuilt_from_the_database_still_sends_a_person_what_they_missed(table):
    """After the replica is rebuilt (a failed write, another process's events), a person
    coming back with the last event they saw gets exactly the events since, as long as that
    event is of the running match; an older one gets the state alone. Its match is the
    room's first: number 1."""
    room, seats, tokens = table
    assert seats[0].state["room"]["match"]["number"] == 1
    before_match = room.state.match_event_seq - 2  # the match starts at match_event_seq
    room.detach(seats[2].conn)
    seen = room.state.seq
    await act(room, seats)  # seats 0 and 1 pass their cards
    await act(room, seats)
    assert room.state.seq == seen + 2  # the two passes
    async with room.lock:
        await room.reload()
    for since, missed in ((seen, [seen + 1, seen + 2]), (before_match, None)):
        back = Seat()
        await room.attach(back.conn, tokens[2], since)
        welcome = back.messages[0]
        assert welcome["type"] == "welcome" and welcome["state"]["room"]["match"]["number"] == 1
        if missed is None:
            assert welcome["missed"] is None
        else:
            assert [(m["seq"], m["event"]["kind"]) for m in welcome["missed"]] == \
                [(seq, "action") for seq in missed]
        room.detach(back.conn)


async def test_the_next_persons_turn_timer_counts_from_the_move_before_it_is_stored(
        table, monkeypatch):
    """A person moves just before their turn timer runs out, and the deadline falls while the
    move is being stored: the next person still has the whole timer (the rules bot had played
    for them at once, from the move's replica, with the deadline of the one who had moved)."""
    room, seats, _ = table
    store_action = room.repository.store_action

    async def slow_store_action(*args, **kwargs):
        await asyncio.sleep(0.4)
        return await store_action(*args, **kwargs)
    monkeypatch.setattr(room.repository, "store_action", slow_store_action)
    room.state.turn_timer = 1.0
    room.driver.progressed()
    room.driver.poke()
    await asyncio.sleep(0.8)
    assert room.state.action_count == 0
    await act(room, seats)  # stored at about 1.2 s, the deadline of 1 s between
    moved = asyncio.get_running_loop().time()
    await asyncio.sleep(0.6)
    assert room.state.action_count == 1, "the timer played for the next person at once"
    await settled(room, lambda: room.state.action_count == 2, "the next timer ran out")
    assert asyncio.get_running_loop().time() - moved >= 0.9


@pytest.mark.parametrize("options", [({"target": 1}, {"deal_pause": 0, "bot_table_idle": 0.3})])
async def test_a_table_everyone_left_pauses_and_its_timer_starts_again_when_one_is_back(table):
    room, seats, tokens = table
    room.state.turn_timer = 1.0
    for seat in seats:
        room.detach(seat.conn)
    room.driver.poke()
    await asyncio.sleep(1.5)
    assert room.state.action_count == 0, "the turn timer played for nobody"
    back = Seat()
    await room.attach(back.conn, tokens[0], None)
    await asyncio.sleep(0.5)
    assert room.state.action_count == 0, "the timer ran out as the person came back"
    await settled(room, lambda: room.state.action_count == 1, "the timer ran out")


async def test_a_driver_waiting_its_step_stops_when_cancelled_as_it_is_woken(table):
    """A room let go cancels its driver: cancelled as something wakes it (an action, a chat
    line), it stops all the same (Python 3.11's wait_for had lost such a cancellation, and the
    driver of a room let go played on; a test's event loop never closed)."""
    room, seats, tokens = table
    driver = room.driver
    room.state.turn_timer = 3600.0  # (its next step an hour away)
    driver.poke()
    await settled(room, lambda: not driver.idle and driver.plan() is not None
                  and driver.plan().what == "timer", "waiting for the turn timer")
    await asyncio.sleep(0.05)  # (in its wait)
    driver.changed.set()
    driver.task.cancel()
    await asyncio.sleep(0.1)
    assert driver.task.done() and driver.task.cancelled()


async def test_the_moves_a_stand_in_made_are_the_records_bot_moves_and_not_the_persons(table):
    """A stand-in's moves for someone away are kept as a bot's (the turn timer's too): the
    match's record lists them in each deal's ``by_bot``, the replay says so at each, and the
    analysis counts none of them to the person (a player who left had had the stand-in's play
    graded as theirs)."""
    from app.storage import history
    from app.web.pages import replay_frames
    from engine.analysis import analyse

    room, seats, _ = table
    await act(room, seats)  # a move of the person's own first
    own = [seat for seat, _ in room.state.match.current.actions]
    room.detach(seats[2].conn)
    await room.standin(0, 2, "rules")
    state = room.state
    await play_to_the_end(room, seats)
    store = room.repository.store
    record = store.transact(lambda s: history.record(s, state.match_id))
    [deal] = record["deals"]
    seat_2 = [i for i, (seat, _) in enumerate(deal["actions"]) if seat == 2]
    assert deal["by_bot"] == [i for i in seat_2 if i >= len(own)] and deal["by_bot"]
    frames = replay_frames(record)["frames"]
    assert [f["index"] for f in frames if f.get("by_bot")] == deal["by_bot"]
    analysis = analyse(record, simulations=2)
    decisions = analysis["deals"][0]["decisions"]
    assert {d["index"] for d in decisions if d.get("by_bot")} == {
        i for i in deal["by_bot"] if "choices" in decisions[i]}
    assert all(d["mark"] is None for d in decisions if d.get("by_bot"))
    counted = [d for d in decisions if d["seat"] == 2 and "choices" in d
               and d["index"] not in deal["by_bot"]]
    assert analysis["summary"][2]["decisions"] == len(counted)


@pytest.mark.parametrize("options", [({"target": 1}, {"deal_pause": 0, "standin_grace": 30})])
async def test_a_blip_on_the_result_screen_is_not_leaving_the_table(table):
    """The others asked for the rematch; a reload or a phone's blip of the third person's link
    does not open their seat (it had, at once: they came back to "your seat could not be
    recognised"): the rematch waits the stand-in's grace for them, and they come back seated."""
    from app.rooms.driver import next_step

    room, seats, tokens = table
    state = room.state
    await play_to_the_end(room, seats)
    await room.rematch(0)
    await room.rematch(1)
    room.detach(seats[2].conn)
    await asyncio.sleep(0.05)
    step = next_step(state, room.settings, room.presence.connected, False, room.presence.away_for)
    assert step.what == "rematch" and 29 < step.delay <= 30
    await room.begin_rematch()  # (as the driver would, too early: nothing happens)
    assert state.seats[2].kind == "human" and state.match.finished
    back = Seat()
    await room.attach(back.conn, tokens[2], None)
    assert back.state["you"]["seat"] == 2
    await room.rematch(2)
    await settled(room, lambda: not state.match.finished, "the rematch begun")
    assert [s.kind for s in state.seats] == ["human"] * 3


@pytest.mark.parametrize("options", [({"target": 1}, {"deal_pause": 0, "standin_grace": 30})])
async def test_a_seat_filled_does_not_begin_a_rematch_without_someone_away_a_moment(table):
    """One left (seat 2 opened), a bot taken for it, while another's link blips: the rematch
    waits for the one away a moment rather than begin without them."""
    room, seats, tokens = table
    state = room.state
    await play_to_the_end(room, seats)
    await room.rematch(0)
    await room.leave(2)
    room.detach(seats[1].conn)  # (a blip)
    await room.standin(0, 2, "rules")
    await asyncio.sleep(0.05)
    assert state.match.finished and state.seats[1].kind == "human"
    back = Seat()
    await room.attach(back.conn, tokens[1], None)
    await room.rematch(1)
    await settled(room, lambda: not state.match.finished, "the rematch begun")
