"""``cardroom load-demo``: store the records of seeds/ as finished matches (idempotent)."""

from __future__ import annotations

import glob
import json
import os
from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from engine.record import replay

from ..storage.history import seat_results
from ..storage.migrate import ROOT
from ..storage.models import DealRow, MatchPlayer, MatchRow, Room, RoomEvent, Seat
from ..storage.players import guest
from ..storage.store import Store

#: How long a demo match's move takes, on average (a person thinking, a bot's pause).
SECONDS_A_MOVE = 5


def load_demo(url: str, directory: str | None = None) -> tuple[int, int]:
    directory = directory or os.path.join(ROOT, "seeds")
    store = Store(url)
    loaded = skipped = 0
    try:
        paths = sorted(glob.glob(os.path.join(directory, "*.json")))
        today = datetime.now(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
        for number, path in enumerate(paths):
            code = "DEMO" + f"{number:02d}"
            record = json.load(open(path, encoding="utf-8"))
            match = replay(record)  # a record that does not replay is refused here
            with store.sessions() as session, session.begin():
                if session.scalar(select(Room.id).where(Room.code == code)) is not None:
                    skipped += 1
                    continue
                names = record.get("players") or [f"Player {i + 1}"
                                                   for i in range(match.game.seats)]
                # one an evening, the last yesterday's, each as long as its moves and a minute
                # between deals took (all at the same hour, each 30 minutes, had looked made up)
                when = (today - timedelta(days=len(paths) - number)
                        + timedelta(hours=18 + number % 4, minutes=number * 17 % 60))
                moves = sum(len(deal.actions) for deal in match.deals)
                store_match(session, code, match, names, when,
                            minutes=moves * SECONDS_A_MOVE / 60 + len(match.deals))
                loaded += 1
    finally:
        store.close()
    return loaded, skipped


def store_match(session, code: str, match, names: list[str], when: datetime,
                bots: dict[int, str] | None = None, actions: bool = True,
                minutes: float = 30) -> int:
    """An engine Match stored as a room's match, its seats taken by ``names`` (people, as
    guests) except ``bots`` (seat -> bot kind), with every deal and (unless not ``actions``)
    every action as the server would have stored them, begun at ``when`` and, if finished,
    ended ``minutes`` later: the demo matches, and hand-made ones in tests and benchmarks.
    Returns the match's id."""
    bots = bots or {}
    game = match.game.name
    room = Room(code=code, game=game, options=dict(match.options), created=when)
    session.add(room)
    session.flush()
    row = MatchRow(room_id=room.id, number=1, game=game, options=dict(match.options),
                   status="finished" if match.finished else "running", started=when,
                   ended=when + timedelta(minutes=minutes) if match.finished else None,
                   totals=list(match.totals), winners=list(match.winners), bot_seats=len(bots))
    session.add(row)
    session.flush()
    for seat, (name, (points, deals, won)) in enumerate(zip(names, seat_results(match))):
        person = None if seat in bots else guest(session, name)
        session.add(Seat(room_id=room.id, seat=seat, kind="bot" if seat in bots else "human",
                         bot=bots.get(seat), name=None if seat in bots else name,
                         player_id=person and person.id, standin=False))
        session.add(MatchPlayer(match_id=row.id, seat=seat, player_id=person and person.id,
                                name=f"Bot {seat + 1}" if seat in bots else name,
                                bot=bots.get(seat), side=match.game.side(seat), points=points,
                                deals=deals, won=won))
    n = 0
    for index, deal in enumerate(match.deals):
        session.add(DealRow(match_id=row.id, index=index, dealer=deal.dealer, deck=deal.deck,
                            kitty=list(deal.kitty) if deal.kitty is not None else None,
                            over=deal.over, scores=deal.scores(),
                            summary=deal.summary() if deal.over else None,
                            started=when, ended=when if deal.over else None))
        for i, (seat, action) in enumerate(deal.actions if actions else ()):
            deal_over = deal.over and i + 1 == len(deal.actions)
            session.add(RoomEvent(
                room_id=room.id, seq=n + 1, kind="action", created=when, match_id=row.id,
                data={"match": row.id, "deal": index, "seat": seat, "action": action,
                      "deal_over": deal_over,
                      "match_over": deal_over and index + 1 == len(match.deals)
                      and match.finished, "n": n}))
            n += 1
    return row.id
