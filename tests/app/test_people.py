"""People: a name held by a player key, the identity and its seats on a second device, guests,
players' pages and standings (issue 25), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import re
import secrets
from datetime import datetime, timedelta, timezone
from urllib.parse import quote

import httpx
import pytest
from cardroom_client import Client, create_room

from app.ops.seeds import store_match
from engine import new_match
from engine.bots import bot_for


def tag() -> str:
    return secrets.token_hex(3)


def played(game: str, seed: int, options=None):
    """A whole match of the rules bots' play (random play of Big Mariage sinks below zero
    for ever), the same for a seed."""
    rng, bot = random.Random(seed), bot_for(game, "rules")
    match = new_match(game, options or {})
    while not match.finished:
        match.start_deal(rng=rng)
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, bot(match.view(seat), match.moves(seat), rng))
    return match


def stored(server, match, names, when=None, bots=None) -> int:
    with server.app.state.store.sessions() as session, session.begin():
        return store_match(session, f"H{tag()}", match, names,
                           when or datetime.now(timezone.utc), bots)


async def test_a_name_is_held_by_its_key_and_guests_keep_away_from_it(server):
    anna = f"Anna {tag()}"
    async with httpx.AsyncClient(base_url=server.http) as http:
        made = await http.post("/api/me", json={"name": f"  {anna} "})
        assert made.status_code == 201 and made.json()["name"] == anna
        key = made.json()["key"]
        assert (await http.get("/api/me", headers={"X-Player-Key": key})).json() == \
            {"name": anna, "key": None}
        taken = await http.post("/api/me", json={"name": anna})
        assert taken.status_code == 409 and taken.json()["reason"] == "name_claimed"
        assert taken.json()["params"] == {"name": anna, "suggestion": f"{anna} 2"}
        # the name suggested is one nobody has
        assert (await http.post("/api/me", json={"name": f"{anna} 2"})).status_code == 201
        again = await http.post("/api/me", json={"name": anna})
        assert again.json()["params"] == {"name": anna, "suggestion": f"{anna} 3"}
        code = await create_room(server.http, "marjolet", ["open", "open"])
        guest = await http.post(f"/api/rooms/{code}/join", json={"name": anna})
        assert guest.status_code == 409 and guest.json()["reason"] == "name_claimed"
        forged = await http.get("/api/me", headers={"X-Player-Key": key[:-2] + "xx"})
        assert forged.status_code == 403 and forged.json()["reason"] == "bad_player_key"
        # with the key, the seat is hers, whatever the form said
        seat = await http.post(f"/api/rooms/{code}/join", json={"name": "whoever", "seat": 1},
                               headers={"X-Player-Key": key})
        assert seat.status_code == 200
        assert seat.json()["room"]["seats"][1]["name"] == anna


async def test_a_table_made_with_its_creators_seat_is_made_only_if_the_seat_can_be_taken(server):
    anna = f"Anna {tag()}"
    async with httpx.AsyncClient(base_url=server.http) as http:
        key = (await http.post("/api/me", json={"name": anna})).json()["key"]

        async def listed() -> set[str]:
            return {r["code"] for r in (await http.get("/api/rooms?open=true")).json()["rooms"]}

        before = await listed()
        table = {"game": "marjolet", "seats": ["open", "bot:rules"]}
        for join, headers, status, reason in [
                ({"name": anna}, {}, 409, "name_claimed"),  # a guest under a player's name
                ({"name": "Boris", "seat": 1}, {}, 409, "seat_taken"),  # the bot's
                ({"name": "Boris", "seat": 2}, {}, 422, "no_such_seat"),
                ({"name": "  "}, {}, 422, "need_name"),
                ({"name": "Boris"}, {"X-Player-Key": key[:-2] + "xx"}, 403, "bad_player_key")]:
            refused = await http.post("/api/rooms", json={**table, "join": join}, headers=headers)
            assert (refused.status_code, refused.json()["reason"]) == (status, reason), join
        assert await listed() == before  # no table left behind
        # a guest, and a player whatever name the form said: seated at once
        made = await http.post("/api/rooms", json={**table, "join": {"name": " Boris "}})
        assert made.status_code == 201 and made.json()["seat"] == 0
        assert made.json()["room"]["seats"][0]["name"] == "Boris"
        mine = await http.post("/api/rooms", json={**table, "join": {"name": "x"}},
                               headers={"X-Player-Key": key})
        assert mine.json()["room"]["seats"][0]["name"] == anna
        anna_ws = Client(server.ws, mine.json()["code"], mine.json()["token"])
        assert (await anna_ws.connect())["state"]["you"] == {"seat": 0, "name": anna}
        await anna_ws.close()
        # without `join`, as before: every seat as asked, no token
        alone = (await http.post("/api/rooms", json=table)).json()
        assert alone["token"] is None and alone["room"]["seats"][0]["kind"] == "open"


async def test_the_standings_page_without_names_ranks_everyone_who_played(server):
    names = [f"Lead {tag()}", f"Follow {tag()}"]
    stored(server, played("marjolet", 4, {"target": 1}), names)
    async with httpx.AsyncClient(base_url=server.http) as http:
        page = (await http.get("/standings", headers={"Accept-Language": "en"})).text
        table = (await http.get("/api/standings")).json()
    assert "Everyone who has played here, over all their matches" in page  # (it had been empty
    # until names were typed)
    assert all(f'href="/players/{quote(name, safe="")}"' in page for name in names)
    assert {row["name"] for row in table["standings"]} >= set(names)  # (so does the API's)
    # a game or dates chosen, it says so ("over all their matches" had been said of one game's)
    async with httpx.AsyncClient(base_url=server.http) as http:
        for query in ("?game=marjolet", "?since=2026-01-01"):
            chosen = (await http.get("/standings" + query, headers={"Accept-Language": "en"})).text
            said = chosen.split('data-testid="standings-rule">')[1].split("</p>")[0]
            assert "over the matches chosen above" in said and "all their matches" not in said
        # (a date that is none chooses nothing)
        unread = (await http.get("/standings?since=not-a-date", headers={"Accept-Language": "en"})).text
        assert "over all their matches" in unread


async def test_level_players_share_a_place_and_the_standings_page_says_how_it_ranks(server):
    """Amy and Zed each won one of two Marjolet matches with as many points, and lost a Black
    Maria match, Zed with more penalties: over all games they share first place, by name (Zed
    had been first, his penalties added to his points as if they were good); in Black Maria
    Amy is first. The page shows the ranks and says what they are worked out from."""
    t = tag()
    amy, zed = f"Amy {t}", f"Zed {t}"
    marjolet = played("marjolet", 4, {"target": 1})
    black_maria = played("black_maria", 2, {"target": 1})
    stored(server, marjolet, [amy, zed])
    stored(server, marjolet, [zed, amy])
    stored(server, black_maria, [amy, zed, f"Stranger {t}"])
    # the premise: a stranger won the Black Maria match; Zed took more penalties than Amy
    assert black_maria.winners == [2] and black_maria.totals[1] > black_maria.totals[0]
    english = {"Accept-Language": "en"}
    async with httpx.AsyncClient(base_url=server.http, headers=english) as http:
        params = {"players": f"{zed},{amy}"}
        table = (await http.get("/api/standings", params=params)).json()["standings"]
        page = (await http.get("/standings", params=params)).text
        maria = (await http.get("/standings", params={**params, "game": "black_maria"})).text
    assert [(r["rank"], r["name"], r["played"], r["won"]) for r in table] == \
        [(1, amy, 3, 1), (1, zed, 3, 1)]
    shown = r'<tr><td>(\d+)</td><td><a href="[^"]*">([^<]*)</a>'
    assert re.findall(shown, page) == [("1", amy), ("1", zed)]
    assert "then the fewest played; players level on both share a place." in page
    assert re.findall(shown, maria) == [("1", amy), ("2", zed)]
    assert "then the fewest penalty points per deal" in maria


async def test_a_game_has_one_colour_on_every_players_chart(server):
    """Black Maria's line is the same colour on the page of a player who also plays Marjolet
    and on one's who plays Black Maria alone (each game had taken its colour from its place on
    the page: blue on one, gold on the other); each game's colour its own."""
    t = tag()
    both, alone = f"Both {t}", f"Alone {t}"
    stored(server, played("marjolet", 4, {"target": 1}), [both, f"other {t}"])
    stored(server, played("black_maria", 2, {"target": 1}), [both, alone, f"third {t}"])
    partners = [f"partner {n} {t}" for n in (2, 3, 4)]
    stored(server, played("big_mariage", 1, {"target": 300}), [alone, *partners])
    english = {"Accept-Language": "en"}
    async with httpx.AsyncClient(base_url=server.http, headers=english) as http:
        charts = [(await http.get(f"/players/{quote(name)}")).text for name in (both, alone)]
    colours = [dict((label, colour) for colour, label in re.findall(
        r'<text x="[\d.]+" y="[\d.]+" fill="(#\w+)">([^<]*)</text>', chart)) for chart in charts]
    assert set(colours[0]) == {"Marjolet", "Black Maria"}
    assert set(colours[1]) == {"Black Maria", "Big Mariage"}
    assert colours[0]["Black Maria"] == colours[1]["Black Maria"], colours
    assert len({*colours[0].values(), *colours[1].values()}) == 3, colours


async def test_a_players_page_says_nothing_of_a_game_whose_match_has_no_deal_over(server):
    """A Marjolet match just begun (a walk's: "Played 0, Won 0, Points 0, —" and a flat
    Marjolet line under the player's Black Maria) is left off the player's page until a deal
    of it is over."""
    name = f"Begun {tag()}"
    stored(server, played("black_maria", 2, {"target": 1}), [name, f"b {tag()}", f"c {tag()}"])
    code = await create_room(server.http, "marjolet", ["open", "bot:rules"])
    async with httpx.AsyncClient(base_url=server.http, headers={"Accept-Language": "en"}) as http:
        assert (await http.post(f"/api/rooms/{code}/join", json={"name": name})).status_code == 200
        assert set((await http.get(f"/api/players/{quote(name)}")).json()["by_game"]) == {"black_maria", "marjolet"}
        page = (await http.get(f"/players/{quote(name)}")).text
    assert 'data-testid="game-black_maria"' in page and 'data-testid="game-marjolet"' not in page
    assert ">Black Maria</text>" in page and ">Marjolet</text>" not in page  # the chart's lines


async def test_a_russian_name_is_found_in_any_case_in_history_and_standings(server):
    """(SQLite's lower() knows no Cyrillic: the names are compared by the server.)"""
    vera = f"Вера {tag()}"
    stored(server, played("marjolet", 3, {"target": 1}), [vera, f"other {tag()}"])
    async with httpx.AsyncClient(base_url=server.http) as http:
        for typed in (vera.upper(), vera.lower()):
            listed = (await http.get("/api/matches", params={"player": typed})).json()["matches"]
            assert [p["name"] for p in listed[0]["players"]][0] == vera and len(listed) == 1
        table = (await http.get("/api/standings", params={"players": f"{vera.lower()},ЖЖЖ"})).json()
        assert [r["name"] for r in table["standings"]] == [vera] and table["unknown"] == ["ЖЖЖ"]


async def test_claiming_a_guests_name_keeps_its_history_and_a_rename_keeps_it_too(server):
    name = f"Gena {tag()}"
    match = played("marjolet", 1, {"target": 1})
    stored(server, match, [name, f"other {tag()}"])
    async with httpx.AsyncClient(base_url=server.http) as http:
        listed = (await http.get("/api/matches", params={"player": name})).json()["matches"]
        assert [p["guest"] for p in listed[0]["players"]] == [True, True]
        replay = (await http.get(f"/api/matches/{listed[0]['id']}/replay")).json()
        key = (await http.post("/api/me", json={"name": name})).json()["key"]
        page = (await http.get(f"/api/players/{name}")).json()
        assert page["claimed"] and page["played"] == 1
        listed = (await http.get("/api/matches", params={"player": name})).json()["matches"]
        assert listed[0]["players"][0]["guest"] is False
        new = f"Gennady {tag()}"
        renamed = await http.patch("/api/me", json={"name": new}, headers={"X-Player-Key": key})
        assert renamed.json() == {"name": new, "key": None}
        assert (await http.get(f"/api/players/{new}")).json()["played"] == 1
        page = await http.get(f"/players/{new}", headers={"Accept-Language": "en"})
        # (not "1 matches"; no full stop before the "·" of the history's link)
        assert re.search(r"1 match finished, [01] won\s+·", page.text), page.text
        average = (await http.get(f"/api/players/{new}")).json()["by_game"]["marjolet"]["average_per_deal"]
        assert f"<td>{average:.2f}</td>" in page.text  # (two places: "90.00" beside "10.33")
        russian = await http.get(f"/players/{new}", headers={"Accept-Language": "ru"})
        assert f"<td>{average:.2f}</td>".replace(".", ",") in russian.text  # (as its analysis writes)
        assert (await http.get(f"/api/players/{name}")).status_code == 404
        listed = (await http.get("/api/matches", params={"player": new})).json()["matches"]
        assert listed[0]["players"][0]["name"] == new  # the history shows her new name
        again = (await http.get(f"/api/matches/{listed[0]['id']}/replay")).json()
        assert again["players"][0] == new  # and so does the replay, worked out before
        assert again["frames"] == replay["frames"]
        # a name someone has, claimed or not, cannot be taken by a rename
        other = listed[0]["players"][1]["name"]
        clash = await http.patch("/api/me", json={"name": other}, headers={"X-Player-Key": key})
        assert clash.status_code == 409
        assert clash.json()["params"] == {"name": other, "suggestion": f"{other} 2"}


@pytest.mark.parametrize("name, reason", [
    ("", "need_name"), ("   ", "need_name"), ("x" * 33, "name_too_long"),
    ("Anna\x00", "bad_name"), ("\x1b[31mAnna", "bad_name"), ("anna\u202e", "bad_name"),
    ("\u2067Boris", "bad_name"), ("vict\u0456m", "name_mixes_alphabets"),
    ("\u03a9mega", "name_mixes_alphabets"), ("Bob.\u0456", "name_mixes_alphabets"),
    ("Anna\u034f", "bad_name"), ("Bot 2", "name_like_a_bot"),
])
async def test_names_with_control_or_direction_characters_are_refused(server, name, reason):
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/me", json={"name": name})
        code = await create_room(server.http, "marjolet", ["open", "open"])
        j = await http.post(f"/api/rooms/{code}/join", json={"name": name})
    for answer in (r, j):
        assert answer.status_code in (409, 422) and answer.json().get("reason") == reason, \
            answer.text


async def test_one_person_takes_one_seat_of_a_table(server):
    """A second seat for the same player (by their key) or the same guest's name is refused:
    one person had sat on both teams of a Big Mariage table, winning and losing the match."""
    name = f"Twice {tag()}"
    code = await create_room(server.http, "big_mariage", ["open"] * 4)
    async with httpx.AsyncClient(base_url=server.http) as http:
        key = (await http.post("/api/me", json={"name": name})).json()["key"]
        mine = {"X-Player-Key": key}
        assert (await http.post(f"/api/rooms/{code}/join", json={"seat": 0}, headers=mine)).status_code == 200
        again = await http.post(f"/api/rooms/{code}/join", json={"seat": 1}, headers=mine)
        assert again.status_code == 409 and again.json()["reason"] == "already_seated", again.text
        assert again.json()["params"] == {"name": name, "seat": 0}
        guest = f"Guest {tag()}"
        assert (await http.post(f"/api/rooms/{code}/join", json={"name": guest})).status_code == 200
        twin = await http.post(f"/api/rooms/{code}/join", json={"name": guest})
        assert twin.status_code == 409 and twin.json()["reason"] == "already_seated"
        room = (await http.get(f"/api/rooms/{code}")).json()
    assert [s["kind"] for s in room["seats"]] == ["human", "human", "open", "open"]


async def test_the_name_suggested_for_a_long_name_taken_may_be_taken(server):
    name = tag() + "W" * 26  # 32 characters, the most
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert (await http.post("/api/me", json={"name": name})).status_code == 201
        taken = await http.post("/api/me", json={"name": name})
        assert taken.status_code == 409
        suggestion = taken.json()["params"]["suggestion"]
        assert suggestion == name[:30] + " 2"
        assert (await http.post("/api/me", json={"name": suggestion})).status_code == 201


async def test_names_are_compared_as_people_read_them(server):
    """NFC: "Ё" typed as E and a combining diaeresis is the same name as "Ё"."""
    base = f"Сём {tag()}"
    async with httpx.AsyncClient(base_url=server.http) as http:
        typed = base.replace("ё", "е\u0308")
        first = await http.post("/api/me", json={"name": typed})
        assert first.json()["name"] == base
        again = await http.post("/api/me", json={"name": base})
        assert again.status_code == 409
        for path in (f"/api/players/{quote(typed)}", f"/players/{quote(typed)}"):  # (an address)
            assert (await http.get(path)).status_code == 200, path


async def test_names_that_read_alike_are_one_players(server):
    """Case, full-width letters and doubled spaces make no other name: "anna" had been a second
    player beside "Anna", and "Anna  Lee" beside "Anna Lee". Each word keeps to one alphabet
    ("victіm" with a Cyrillic і is refused above); words of two alphabets may meet."""
    name = f"Lee {tag()} Anna"
    async with httpx.AsyncClient(base_url=server.http) as http:
        key = (await http.post("/api/me", json={"name": name})).json()["key"]
        guest = f"Gus {tag()}"  # a guest's name claimed in another case: the key holds it as stored
        code = await create_room(server.http, "marjolet", ["open", "open"])
        assert (await http.post(f"/api/rooms/{code}/join", json={"name": guest})).status_code == 200
        claimed = await http.post("/api/me", json={"name": guest.upper()})
        assert claimed.status_code == 201 and claimed.json()["name"] == guest, claimed.text
        for alike in (name.lower(), name.upper().replace(" ", "  "),
                      "".join(chr(ord(c) + 0xfee0) if c.isalnum() and c.isascii() else c
                              for c in name)):
            taken = await http.post("/api/me", json={"name": alike})
            assert taken.status_code == 409 and taken.json()["reason"] == "name_claimed", alike
            code = await create_room(server.http, "marjolet", ["open", "open"])
            guest = await http.post(f"/api/rooms/{code}/join", json={"name": alike})
            assert guest.status_code == 409 and guest.json()["reason"] == "name_claimed", alike
        assert (await http.get(f"/api/players/{quote(name.lower())}")).json()["name"] == name
        renamed = await http.patch("/api/me", json={"name": name.upper()},
                                   headers={"X-Player-Key": key})  # her own name, in capitals
        assert renamed.status_code == 200 and renamed.json()["name"] == name.upper()
        both = f"Анна {tag()} Anna"  # a Russian and a Latin word
        assert (await http.post("/api/me", json={"name": both})).status_code == 201
        code = await create_room(server.http, "black_maria", ["open"] * 3)
        guest = f"Guest {tag()}"
        assert (await http.post(f"/api/rooms/{code}/join", json={"name": guest})).status_code == 200
        twin = await http.post(f"/api/rooms/{code}/join", json={"name": guest.lower()})
    assert twin.status_code == 409 and twin.json()["reason"] == "already_seated", twin.text


async def test_the_identity_brings_its_seats_to_another_device(server):
    """A second browser with the same key (no seat token) sits at the player's seat at once,
    and the first one keeps working too."""
    name = f"Mira {tag()}"
    async with httpx.AsyncClient(base_url=server.http) as http:
        key = (await http.post("/api/me", json={"name": name})).json()["key"]
        device = (await http.post("/api/me/device", headers={"X-Player-Key": key})).json()
        assert device["link"] == f"{server.http}/me/continue#key={key}"
        assert device["qr"].startswith("<svg") and key not in device["qr"]
        code = await create_room(server.http, "black_maria",
                                 ["open", "bot:random", "bot:random"])
        joined = (await http.post(f"/api/rooms/{code}/join", json={},
                                  headers={"X-Player-Key": key})).json()
    laptop = Client(server.ws, code, joined["token"], name="laptop")
    await laptop.connect()
    phone = Client(server.ws, code, name="phone", player=key)
    welcome = await phone.connect()
    assert welcome["state"]["you"] == {"seat": joined["seat"], "name": name}
    assert welcome["state"]["match"]["deal"]["hands"][joined["seat"]]  # her hand, there
    reply = await phone.act()  # her pass, from the phone
    assert reply["type"] == "event" and reply["event"]["seat"] == joined["seat"]
    await laptop.until(lambda s: laptop.my_turn(), timeout=30)
    reply = await laptop.act()  # the first device goes on too: her first card
    assert reply["type"] == "event" and reply["event"]["seat"] == joined["seat"]
    stranger = Client(server.ws, code, name="stranger", player="not-a-key")
    welcome = await stranger.connect()
    assert welcome["state"]["you"]["seat"] is None
    assert any(m.get("reason") == "bad_player_key" for m in stranger.messages)
    for client in (laptop, phone, stranger):
        await client.close()


async def test_a_rename_is_the_name_at_the_tables_in_play(server):
    """A player who renames themselves is called so at their seats in the rooms still in play,
    told to the table as a seat's change (a walk's table had kept the old name to its end);
    the seat stays theirs."""
    name, renamed = f"Old {tag()}", f"New {tag()}"
    playing = await create_room(server.http, "black_maria", ["open", "bot:random", "bot:random"])
    waiting = await create_room(server.http, "marjolet", ["open", "open"])
    as_guest = await create_room(server.http, "marjolet", ["open", "open"])
    async with httpx.AsyncClient(base_url=server.http) as http:
        # (a guest's seat under the name before it was claimed: whoever claimed it may not be them)
        assert (await http.post(f"/api/rooms/{as_guest}/join", json={"name": name})).status_code == 200
        key = (await http.post("/api/me", json={"name": name})).json()["key"]
        mine = {"X-Player-Key": key}
        for code in (playing, waiting):
            assert (await http.post(f"/api/rooms/{code}/join", json={}, headers=mine)).status_code == 200
        table = Client(server.ws, playing, name="table", player=key)
        await table.connect()
        assert (await http.patch("/api/me", json={"name": renamed}, headers=mine)).json()["name"] == renamed
        await table.until(lambda s: s["room"]["seats"][0]["name"] == renamed, timeout=10)
        assert any(m.get("event", {}).get("kind") == "seat" for m in table.messages)
        for code in (playing, waiting):
            seats = (await http.get(f"/api/rooms/{code}")).json()["seats"]
            assert seats[0]["name"] == renamed, seats
        assert (await http.get(f"/api/rooms/{as_guest}")).json()["seats"][0]["name"] == name
        # the seat is still the player's: another device of theirs sits there
        phone = Client(server.ws, waiting, name="phone", player=key)
        assert (await phone.connect())["state"]["you"] == {"seat": 0, "name": renamed}
    for client in (table, phone):
        await client.close()


async def test_claiming_a_seated_guests_name_takes_none_of_their_seats(server):
    """The name of a guest at a table is free to claim (with its history), but the guest's
    seat stays their seat token's: whoever claimed the name had sat at it, seen the hand and
    played for them with the new key."""
    name = f"Victim {tag()}"
    code = await create_room(server.http, "black_maria", ["open", "bot:random", "bot:random"])
    async with httpx.AsyncClient(base_url=server.http) as http:
        joined = (await http.post(f"/api/rooms/{code}/join", json={"name": name})).json()
        key = (await http.post("/api/me", json={"name": name})).json()["key"]
    guest = Client(server.ws, code, joined["token"], name="guest")
    await guest.connect()
    claimer = Client(server.ws, code, name="claimer", player=key)
    welcome = await claimer.connect()
    assert welcome["state"]["you"]["seat"] is None
    assert "hands" not in welcome["state"]["match"]["deal"] \
        or not welcome["state"]["match"]["deal"]["hands"][joined["seat"]]
    reply = await claimer.act({"type": "pass", "cards": guest.state["match"]["moves"]["pass"]["from"][:3]})
    assert reply["type"] == "error" and reply["code"] == "not_seated"
    assert (await guest.act())["type"] == "event"  # the guest plays on
    for client in (guest, claimer):
        await client.close()


async def test_a_players_page_adds_up_their_matches_by_game_against_people_and_bots(server):
    """Hand-made matches: Lena at various seats, with people and with bots."""
    lena, pavel, rita = f"Lena {tag()}", f"Pavel {tag()}", f"Rita {tag()}"
    start = datetime(2026, 11, 1, tzinfo=timezone.utc)
    games = [  # (game, seed, names, bots)
        ("black_maria", 1, [pavel, lena, rita], None),
        ("black_maria", 2, [lena, rita, pavel], None),
        ("black_maria", 3, [lena, "x", "y"], {1: "rules", 2: "random"}),
        ("big_mariage", 4, [lena, pavel, rita, "z"], {3: "rules"}),
    ]
    matches = []
    for day, (game, seed, names, bots) in enumerate(games):
        match = played(game, seed, {"target": 1} if game == "black_maria" else {"target": 300})
        match_id = stored(server, match, names, start + timedelta(days=day), bots)
        matches.append((match_id, match, names))
    async with httpx.AsyncClient(base_url=server.http) as http:
        page = (await http.get(f"/api/players/{lena}")).json()

    def side_points(match, seat):
        return sum(s[match.game.side(seat)] for s in match.deal_scores())

    def won(match, seat):
        return match.game.side(seat) in match.winners

    bm = [(i, m, names.index(lena)) for i, m, names in matches if m.game.name == "black_maria"]
    figures = page["by_game"]["black_maria"]
    assert figures["played"] == 3
    assert figures["won"] == sum(won(m, s) for _, m, s in bm)
    assert figures["points"] == sum(side_points(m, s) for _, m, s in bm)
    assert figures["people"]["played"] == 2 and figures["bots"]["played"] == 1
    assert figures["bots"]["points"] == side_points(bm[2][1], 0)
    best = min(bm, key=lambda item: side_points(item[1], item[2]))  # penalties: the lowest
    assert figures["best"] == {"match": best[0], "points": side_points(best[1], best[2])}
    assert figures["form"] == ["won" if won(m, s) else "lost" for _, m, s in bm]
    assert figures["form_matches"] == [i for i, _, _ in bm]  # (each result leads to its match)
    async with httpx.AsyncClient(base_url=server.http) as http:
        html = (await http.get(f"/players/{quote(lena, safe='')}")).text
    form = html.split('data-testid="form-black_maria">')[1].split("</span></p>")[0]
    assert re.findall(r'href="/matches/(\d+)"', form) == [str(i) for i, _, _ in bm]
    assert [t["match"] for t in page["timeline"]] == [i for i, _, _ in matches]
    # Pavel: her opponent in every match they shared; Rita: her partner in Big Mariage
    mariage_id, mariage, _ = matches[3]
    assert page["partners"] == [{"name": rita, "played": 1, "won": int(won(mariage, 0)),
                                 "points": side_points(mariage, 0)}]
    pavel_row = next(o for o in page["opponents"] if o["name"] == pavel)
    shared = [(m, names.index(lena), names.index(pavel)) for _, m, names in matches
              if pavel in names]
    assert pavel_row["played"] == 3
    assert pavel_row["won"] == sum(won(m, a) and not won(m, b) for m, a, b in shared)
    assert pavel_row["lost"] == sum(won(m, b) and not won(m, a) for m, a, b in shared)


async def test_standings_count_the_matches_of_the_chosen_people_best_first(server):
    """Hand-made: three Big Mariage matches of four friends, one Black Maria match of two of
    them with a stranger; a match of one of them alone does not count."""
    a, b, c, d = (f"{n} {tag()}" for n in ("Ada", "Bo", "Cy", "Di"))
    matches = [
        ("big_mariage", 11, [a, b, c, d]),
        ("big_mariage", 12, [a, c, b, d]),
        ("big_mariage", 13, [b, a, d, c]),
        ("black_maria", 14, [a, b, f"stranger {tag()}"]),
        ("black_maria", 15, [c, f"s1 {tag()}", f"s2 {tag()}"]),  # only one of them
    ]
    start = datetime(2026, 10, 1, tzinfo=timezone.utc)
    kept = []
    for day, (game, seed, names) in enumerate(matches):
        match = played(game, seed, {"target": 1} if game == "black_maria" else {"target": 300})
        stored(server, match, names, start + timedelta(days=day))
        kept.append((match, names))
    async with httpx.AsyncClient(base_url=server.http) as http:
        table = (await http.get("/api/standings", params={"players": f"{a},{b},{c},{d}"})
                 ).json()
        mariage = (await http.get("/api/standings", params={
            "players": f"{a},{b},{c},{d}", "game": "big_mariage",
            "until": (start + timedelta(days=1, hours=1)).isoformat()})).json()
        bad = await http.get("/api/standings", params={"players": a, "game": "chess"})
    assert bad.status_code == 422

    def expected(name, chosen, until=None):
        rows = [(m, names.index(name)) for day, (m, names) in enumerate(kept)
                if name in names and sum(n in chosen for n in names) > 1
                and (until is None or day <= until)]
        points = sum(sum(s[m.game.side(seat)] for s in m.deal_scores()) for m, seat in rows)
        deals = sum(len(m.deal_scores()) for m, _ in rows)
        return {"played": len(rows), "won": sum(m.game.side(s) in m.winners for m, s in rows),
                "deals": deals, "points": points}

    chosen = {a, b, c, d}
    for row in table["standings"]:
        assert {k: row[k] for k in ("played", "won", "deals", "points")} == \
            expected(row["name"], chosen)
    assert [r["won"] for r in table["standings"]] == sorted(
        (r["won"] for r in table["standings"]), reverse=True)
    assert {r["name"] for r in table["standings"]} == chosen
    # Big Mariage up to the second day: two matches, each person's side's points
    for row in mariage["standings"]:
        assert row["played"] == 2 and set(row["by_game"]) == {"big_mariage"}
    pairs = {tuple(p["players"]): p for p in table["partnerships"]}
    expected_pairs = {}
    for match, names in kept:
        if match.game.name != "big_mariage":
            continue
        for x, y in ((0, 2), (1, 3)):  # partners sit opposite
            pair = tuple(sorted((names[x], names[y])))
            record = expected_pairs.setdefault(pair, {"played": 0, "won": 0})
            record["played"] += 1
            record["won"] += match.game.side(x) in match.winners
    assert {pair: {k: r[k] for k in ("played", "won")} for pair, r in pairs.items()} == \
        expected_pairs


async def test_standings_break_ties_by_fewer_matches_then_within_a_game_the_better_average(server):
    """Best first: more matches won, then fewer played, then in one game the better average
    per deal (the fewer penalties in Black Maria); rows level in all of that share a rank, by
    name; across games no average (the penalties had counted as good points); a person who
    played none of these matches comes last (with none won, fewer played had put them above
    those who lost). Two one-deal Black Maria
    matches: in each, two people lose at once with different penalties."""
    t = tag()
    p, q, r, s, u, z = (f"{n} {t}" for n in ("Cat", "Ann", "Dan", "Eve", "Bob", "Fay"))
    kept = []
    for seed, names in ((2, [p, q, r]), (4, [r, s, u]), (1, [z, f"x {t}", f"y {t}"])):
        match = played("black_maria", seed, {"target": 1})
        stored(server, match, names)
        kept.append((match, names))
    chosen = [p, q, r, s, u, z]

    def figures(name):  # over the matches shared with another chosen person
        rows = [(m, names.index(name)) for m, names in kept
                if name in names and sum(n in chosen for n in names) > 1]
        points = sum(sum(sc[m.game.side(seat)] for sc in m.deal_scores()) for m, seat in rows)
        deals = sum(len(m.deal_scores()) for m, _ in rows)
        return {"won": sum(m.game.side(seat) in m.winners for m, seat in rows),
                "played": len(rows), "average": round(points / deals, 2) if deals else None}

    expected = {name: figures(name) for name in chosen}
    losers = [name for name in chosen if expected[name]["played"] and not expected[name]["won"]]
    assert losers  # (and z, who played none of them, is ranked under them: below)
    # the premise: a tie of wins and matches that only the average breaks, and no deal for z
    assert expected[p]["won"] == expected[q]["won"] and expected[p]["played"] == \
        expected[q]["played"] and expected[p]["average"] != expected[q]["average"]
    assert expected[z]["average"] is None and expected[z]["played"] == 0

    def ranked(game):
        """(rank, name) best first: a rank is one more than the number of rows better."""
        def level(name):
            e = expected[name]
            if game is None:
                return (not e["played"], -e["won"], e["played"])
            average = e["average"]
            return (not e["played"], -e["won"], e["played"],
                    float("inf") if average is None else average)
        order = sorted(chosen, key=lambda name: (level(name), name))
        return [(1 + sum(level(other) < level(name) for other in chosen), name)
                for name in order]

    async with httpx.AsyncClient(base_url=server.http) as http:
        for game in (None, "black_maria"):
            params = {"players": ",".join(chosen), **({"game": game} if game else {})}
            table = (await http.get("/api/standings", params=params)).json()
            assert [(row["rank"], row["name"]) for row in table["standings"]] == \
                ranked(game), game
            assert table["standings"][-1]["name"] == z, game
        # one person asked: all their matches; two: only the matches they shared
        alone = (await http.get("/api/standings", params={"players": r})).json()
        pair = (await http.get("/api/standings", params={"players": f"{r},{s}"})).json()
    assert [row["played"] for row in alone["standings"]] == [2]
    assert {row["name"]: row["played"] for row in pair["standings"]} == {r: 1, s: 1}


async def test_a_name_stored_by_another_process_meanwhile_is_refused_as_taken():
    """Two processes claiming names that read alike at once: the second's write meets the
    unique key (a Conflict), is tried again and finds the name taken: 409 with a suggestion,
    not the storage failure's 503."""
    from app.protocol import Refusal
    from app.storage import players
    from app.storage.stored import Conflict
    from app.web.people import _named

    class Racing:
        writes = 0

        async def write(self, work):
            self.writes += 1
            if self.writes == 1:
                raise Conflict("uq_players_name_key")
            raise players.NameTaken("anna", "anna 2")

    store = Racing()
    with pytest.raises(Refusal) as refused:
        await _named(store, lambda session: None)
    assert refused.value.reason == "name_claimed" and store.writes == 2


def test_averages_are_written_to_two_places_in_the_pages_language():
    """"90,00" beside "10,33" (the player page had shown "90,0" beside "10,33"); a minus sign,
    as the sheet writes it."""
    from app.web.pages import decimal

    assert [decimal(90.0, "ru"), decimal(10.33, "ru"), decimal(-2.5, "en"), decimal(-0.001, "ru"), decimal(None, "en")] \
        == ["90,00", "10,33", "\u22122.50", "0,00", "—"]


async def test_a_replay_asked_for_at_once_is_worked_out_once(server, monkeypatch):
    """Twenty replays asked for at once had held the server's answers up for seconds: the first
    request works it out, the others wait for it, and a later one reads it kept."""
    import app.web.pages as pages
    worked_out, real = [], pages.replay_frames

    def counted(record):
        worked_out.append(record["match_id"])
        return real(record)
    monkeypatch.setattr(pages, "replay_frames", counted)
    match_id = stored(server, played("black_maria", 7, {"target": 30}), [f"R {tag()}", f"S {tag()}", f"T {tag()}"])
    async with httpx.AsyncClient(base_url=server.http) as http:
        answers = await asyncio.gather(*(http.get(f"/api/matches/{match_id}/replay") for _ in range(6)))
        answers.append(await http.get(f"/api/matches/{match_id}/replay"))
    assert [a.status_code for a in answers] == [200] * 7 and len({a.content for a in answers}) == 1
    assert worked_out == [match_id]


async def test_the_history_pages_on_to_older_matches_keeping_its_filters(server):
    """Past a page of matches, the history links to the older ones (it had stopped at the
    newest 200, saying nothing), and back, keeping what it was filtered by; a page that is no
    number is the first."""
    from app.web.pages import HISTORY_PAGE

    names = [f"Pager {tag()}", f"Other {tag()}"]
    match, start = played("marjolet", 5, {"target": 1}), datetime.now(timezone.utc)
    ids = [stored(server, match, names, start - timedelta(minutes=n))
           for n in range(HISTORY_PAGE + 2)]  # newest first

    def listed(html: str) -> list[int]:
        return list(dict.fromkeys(int(i) for i in re.findall(r'href="/matches/(\d+)"', html)))

    async with httpx.AsyncClient(base_url=server.http, headers={"Accept-Language": "en"}) as http:
        first = (await http.get("/history", params={"player": names[0], "game": "marjolet"})).text
        assert listed(first) == ids[:HISTORY_PAGE]
        # each row says how the player filtered by came out (by the full name, in any case)
        result = "won" if 0 in match.winners else "lost"
        assert re.findall(r'data-testid="history-result">(\w+)<', first) == [result] * HISTORY_PAGE
        upper = (await http.get("/history", params={"player": names[0].upper()})).text
        assert re.findall(r'data-testid="history-result">(\w+)<', upper) == [result] * HISTORY_PAGE
        partly = (await http.get("/history", params={"player": names[0][:-1]})).text
        assert 'data-testid="history-result"' not in partly and listed(partly)
        older = re.search(r'<a [^>]*rel="next" href="([^"]+)"', first).group(1).replace("&amp;", "&")
        assert "Older matches" in first and 'rel="prev"' not in first
        second = (await http.get(older)).text
        assert listed(second) == ids[HISTORY_PAGE:] and "page 2" in second
        assert 'rel="next"' not in second
        newer = re.search(r'<a [^>]*rel="prev" href="([^"]+)"', second).group(1).replace("&amp;", "&")
        assert listed((await http.get(newer)).text) == ids[:HISTORY_PAGE]
        for wrong in ("x", "-1", "0", "²", "①", "9" * 5000, "99999999999999999999"):
            r = await http.get("/history", params={"player": names[0], "page": wrong})
            assert r.status_code == 200 and listed(r.text) == ids[:HISTORY_PAGE], wrong[:20]
        far = await http.get("/history", params={"player": names[0], "page": "999999"})
        assert far.status_code == 200 and listed(far.text) == []
