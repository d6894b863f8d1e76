"""People in the browser: a name claimed in the lobby, the identity carried to a phone by its
link, a claimed name refused to another browser; players' pages and standings in both
languages at phone size."""

from __future__ import annotations

from datetime import datetime, timezone
from urllib.parse import quote

import httpx
import pytest

from ..conftest import stored_match
from .conftest import PHONE, fresh_name, shot
from .test_tables import Watch, create_room, healthy, pass_or_play, sit

pytestmark = pytest.mark.browser


def create_in_lobby(page, live, name: str) -> str:
    page.goto(live.http + "/")
    page.check("input[value=marjolet]")
    page.fill("#create-name", name)
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden]), #create-error:not(:empty)")
    return page.text_content("#created-code") or ""


def test_a_name_claimed_in_the_lobby_goes_to_a_phone_and_is_nobody_elses(live, new_page):
    name = fresh_name("Zoya")
    laptop = new_page()
    assert create_in_lobby(laptop, live, name)
    laptop.wait_for_selector("[data-testid=me-name]")
    assert name in laptop.text_content("[data-testid=me-name]")
    key = laptop.evaluate("JSON.parse(localStorage.getItem('cardroom.player')).key")
    assert httpx.get(f"{live.http}/api/me", headers={"X-Player-Key": key}).json()["name"] == name

    laptop.set_viewport_size({"width": 1366, "height": 657})  # (a 1366 by 768 screen's window)
    laptop.click("[data-testid=me-name]")
    laptop.click("[data-testid=me-device]")
    link = laptop.input_value("[data-testid=me-link]")
    # the code to scan whole on the screen (it had run past a laptop window's foot)
    assert laptop.evaluate("""() => { const r = document.querySelector('.qr svg').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight; }"""), "the QR code past the screen's foot"
    assert link.endswith(f"/me/continue#key={key}")
    # (the tests' server is at 127.0.0.1: the page says a phone cannot open that)
    assert laptop.text_content("[data-testid=me-link-local]").startswith("127.0.0.1 is this computer's own address")
    assert laptop.locator(".qr svg").count() == 1
    shot(laptop, "identity-device-laptop")

    phone = new_page(PHONE, locale="ru-RU")
    phone.goto(link)
    phone.wait_for_function("document.querySelector('[data-testid=continue-status]')"
                            ".textContent.includes(" + repr(name) + ")")
    assert "#" not in phone.url  # the key left the address bar at once
    assert phone.evaluate("JSON.parse(localStorage.getItem('cardroom.player')).key") == key
    phone.wait_for_selector("[data-testid=me-name]")
    shot(phone, "identity-continued-phone")

    stranger = new_page()
    create_in_lobby(stranger, live, name)
    error = stranger.text_content("#create-error")
    assert "is taken" in error and f"{name} 2" in error  # another name is suggested
    assert "Continue on another device" in error  # and how to bring it here, if it is theirs
    assert stranger.is_hidden("#created")
    # on a small phone, where the button is at the screen's foot, the refusal comes into sight
    small = new_page({"width": 360, "height": 640}, locale="ru-RU", has_touch=True, is_mobile=True)
    small.goto(live.http + "/")
    small.check("input[value=marjolet]")
    small.fill("#create-name", name)
    small.evaluate("document.getElementById('create-button').scrollIntoView({block: 'end'})")  # (as a thumb brings it)
    small.click("#create-button")
    small.wait_for_selector("#create-error:not(:empty)")
    assert small.evaluate("""() => { const r = document.getElementById('create-error').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight + 1; }"""), "the refusal under the screen's foot"
    healthy(laptop, phone)


def test_the_lobby_seats_a_player_under_their_name_or_a_guest_under_the_one_typed(live, new_page):
    """A player who types another name is told how to sit under it (they had sat under their
    own, whatever the form said); "Play as a guest" sits them under the typed one; a guest's
    name that is a player's is refused with no table left in the list."""
    name, other = fresh_name("Mike"), fresh_name("Zed")
    page = new_page()
    assert create_in_lobby(page, live, name)
    open_codes = lambda: {r["code"] for r in httpx.get(live.http + "/api/rooms?open=true").json()["rooms"]}  # noqa: E731
    before = open_codes()
    assert not create_in_lobby(page, live, other)
    assert page.text_content("#create-error") == (  # (a sentence: the reason said alone)
        f"You play here as «{name}»: to sit under another name, tick “Play as a guest”, or rename "
        f"yourself in the menu at the top (“You: {name}”).")
    assert open_codes() == before
    page.goto(live.http + "/")
    page.fill("#create-name", other)
    page.check("[data-testid=create-guest]")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    seats = httpx.get(f"{live.http}/api/rooms/{page.text_content('#created-code')}").json()["seats"]
    assert seats[0]["name"] == other  # (it had been the player's name)
    assert name in page.text_content("[data-testid=me-name]")  # and the player stays who they were
    # the same at a table's seat
    code = httpx.post(live.http + "/api/rooms", json={"game": "marjolet", "seats": ["open", "open"]}).json()["code"]
    page.goto(f"{live.http}/r/{code}")
    page.fill("#seat-name", other)
    page.click("[data-testid=take-seat-0]")
    page.wait_for_selector("#join-error:not(:empty)")
    assert f"you play here as «{name}»" in page.text_content("#join-error")
    page.check("[data-testid=seat-guest]")
    page.click("[data-testid=take-seat-0]")
    page.wait_for_selector(".seat.me[data-seat='0']")
    assert httpx.get(f"{live.http}/api/rooms/{code}").json()["seats"][0]["name"] == other

    stranger = new_page(locale="ru-RU")
    stranger.goto(live.http + "/")
    stranger.fill("#create-name", name)
    stranger.check("[data-testid=create-guest]")
    before = open_codes()
    stranger.click("#create-button")
    stranger.wait_for_selector("#create-error:not(:empty)")
    refused = stranger.text_content("#create-error")
    assert refused.startswith(f"Имя «{name}» уже занято") and refused.endswith("ссылку здесь)."), refused
    assert open_codes() == before  # (the table had been made, and left with nobody at it)
    assert [e for e in stranger.errors if "409 (Conflict)" not in e] == []  # (the refusal's own)
    healthy(page)


def test_a_rename_in_the_menu_is_the_name_the_lobby_then_seats(live, new_page):
    """The lobby's name field follows a rename in the menu: still saying the old name, its
    "Create the table" had been refused ("You play here as …") until the page was loaded again;
    a name typed meanwhile is left as it is."""
    name, renamed = fresh_name("Timofey"), fresh_name("Tim")
    page = new_page(PHONE)
    assert create_in_lobby(page, live, name)
    page.goto(live.http + "/")
    page.click("[data-testid=me-name]")
    page.fill("[data-testid=me-rename] input", renamed)
    page.click("[data-testid=me-rename] button")
    page.wait_for_function("(n) => document.querySelector('[data-testid=me-name]').textContent.includes(n)", arg=renamed)
    assert page.input_value("#create-name") == renamed
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden]), #create-error:not(:empty)")
    assert page.text_content("#create-error") == ""
    seats = httpx.get(f"{live.http}/api/rooms/{page.text_content('#created-code')}").json()["seats"]
    assert seats[0]["name"] == renamed
    # a guest's name typed, then a rename: the field keeps what was typed
    page.goto(live.http + "/")
    page.fill("#create-name", "Guest Gleb")
    page.click("[data-testid=me-name]")
    page.fill("[data-testid=me-rename] input", name)
    page.click("[data-testid=me-rename] button")
    page.wait_for_function("(n) => document.querySelector('[data-testid=me-name]').textContent.includes(n)", arg=name)
    assert page.input_value("#create-name") == "Guest Gleb"
    # the menu leads to one's matches: the history filtered by one's name
    page.click("[data-testid=me-name]")
    page.click("[data-testid=me-matches]")
    page.wait_for_url("**/history?player=*")
    assert page.input_value("input[name=player]") == name
    healthy(page)


def test_signing_out_forgets_the_player_and_their_seats_here_and_the_link_brings_them_back(live, new_page):
    """A shared computer's player signs out: the page forgets the key, the seats kept with it
    and the name typed, after showing the link, the only way back (there is no password)."""
    name = fresh_name("Sasha")
    page = new_page(PHONE, locale="ru-RU")
    code = create_in_lobby(page, live, name)
    assert code
    page.goto(f"{live.http}/r/{code}")
    page.wait_for_selector(".seat.me")
    page.click("[data-testid=me-name]")
    page.click("[data-testid=me-sign-out]")
    link = page.locator("[data-testid=me-link]")
    link.wait_for()
    assert f"Чтобы снова играть как «{name}»" in page.text_content("[data-testid=me-out]")
    back = link.input_value()
    # what a deal leaves here: the hand as last seen, the cards chosen to pass; and a setting
    page.evaluate(f"""() => {{ localStorage.setItem('cardroom.hand.{code}', '["QS"]');
      sessionStorage.setItem('cardroom.pass.{code}', '["QS"]'); localStorage.setItem('cardroom.sound', 'off'); }}""")
    other = page.context.new_page()  # another tab of the same browser, seated too
    other.goto(f"{live.http}/r/{code}")
    other.wait_for_selector(".seat.me")
    page.click("[data-testid=me-sign-out-now]")
    page.wait_for_selector("#seat-name")  # (the page again, a visitor's: a seat to take)
    assert page.locator("[data-testid=me-name]").count() == 0 and page.locator(".seat.me").count() == 0
    kept = page.evaluate("[...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((k) => k.startsWith('cardroom.'))")
    assert sorted(kept) == ["cardroom.lastTable", "cardroom.sound"], kept  # (the browser's settings stay: nobody's play)
    other.wait_for_selector("#seat-name")  # the other tab no longer plays as them either
    assert other.locator(".seat.me").count() == 0
    page.goto(back)
    page.wait_for_selector("[data-testid=me-name]")
    page.goto(f"{live.http}/r/{code}")
    page.wait_for_selector(".seat.me")  # the seat, by the player's key, on any device
    healthy(page)


def test_the_standings_and_a_players_chart_take_the_room_they_have_on_a_laptop(live, new_page):
    """The standings' players' box takes the room its row has (a box of a few letters had cut
    "Anna, Vera, Boris, Gleb, E…" with half the page bare beside it), and a player's chart the
    width of its box."""
    page = new_page({"width": 1366, "height": 768})
    page.goto(live.http + "/standings?players=" + quote("Anna, Vera, Boris, Gleb, Eve, Dasha"))
    box = page.locator("#standings-players")
    assert box.evaluate("(i) => i.scrollWidth <= i.clientWidth"), box.evaluate("(i) => [i.scrollWidth, i.clientWidth]")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # and a player's chart over time as wide as its box (at 700 it had used half of it)
    page.goto(live.http + "/players/Anna")
    drawn, room = page.evaluate("""() => { const box = document.querySelector('[data-testid=chart]'), style = getComputedStyle(box);
      return [box.querySelector('svg').getBoundingClientRect().width,
              box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)]; }""")
    assert room > 900 and abs(drawn - room) <= 1, (drawn, room)
    healthy(page)


@pytest.mark.parametrize("locale, words", [("en-GB", ("Head to head", "Played")),
                                           ("ru-RU", ("Личные встречи", "Партий"))])
def test_a_players_page_and_standings_read_well_on_a_phone(live, new_page, locale, words):
    page = new_page(PHONE, locale=locale)
    page.goto(live.http + "/players/Anna")  # a demo player: matches against Boris and others
    page.wait_for_selector("[data-testid=player-name]")
    assert page.text_content("[data-testid=player-name]").startswith("Anna")
    assert page.locator("[data-testid=chart] svg polyline").count() >= 1
    # what the chart counts is said over it, not only to a screen reader (its axes had read 0-3)
    says = page.text_content("[data-testid=chart-says]")
    assert says == {"en-GB": "Matches won less matches lost, per game, match by match",
                    "ru-RU": "Выигранные партии минус проигранные, по играм, партия за партией"}[locale]
    assert says in page.locator("[data-testid=chart] svg title").text_content()
    text = page.text_content("main")
    assert all(word in text for word in words)
    # what the figures mean where they are not what one would guess: Black Maria's points are
    # penalties (its "best match" the fewest), and a match a third player won is neither won nor
    # lost against anyone (the head-to-head had not added up, unexplained)
    assert page.get_by_test_id("penalties-black_maria").is_visible()
    assert page.locator("[data-testid^=penalties-]").count() == 1
    # each link of the top bar and each name in a table a thumb's target (23 and 15 pixels high)
    small = page.evaluate("""() => [...document.querySelectorAll('.topbar a, .grid td a')]
      .filter((a) => a.getBoundingClientRect().height < 24).map((a) => a.textContent)""")
    assert small == [], small
    meaning = page.text_content("[data-testid=opponents-meaning]")
    assert "Anna" in meaning and {"en-GB": "counts as neither", "ru-RU": "не в счёт"}[locale] in meaning
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), \
        "the page is wider than the phone"
    # each line's label (a game's name) whole inside the chart
    cut = page.evaluate("""() => [...document.querySelectorAll('[data-testid=chart] svg')].flatMap((svg) =>
        [...svg.querySelectorAll('text')].filter((t) => t.getBBox().x + t.getBBox().width > svg.viewBox.baseVal.width)
        .map((t) => t.textContent))""")
    assert cut == [], cut
    # and apart from each other, where lines end level
    overlapping = page.evaluate("""() => [...document.querySelectorAll('[data-testid=chart] svg')].flatMap((svg) => {
        const boxes = [...svg.querySelectorAll('text[fill]')].map((t) => [t.textContent, t.getBBox()]);
        return boxes.flatMap(([a, p], i) => boxes.slice(i + 1).filter(([, q]) => p.y < q.y + q.height && q.y < p.y + p.height)
          .map(([b]) => a + ' / ' + b)); })""")
    assert overlapping == [], overlapping
    # each line's name in the line's colour, as its legend
    colours = page.evaluate("""() => [...document.querySelectorAll('[data-testid=chart] svg')].flatMap((svg) => {
        const lines = [...svg.querySelectorAll('polyline')].map((l) => getComputedStyle(l).stroke);
        return [...svg.querySelectorAll('text[fill]')].map((t, i) => [getComputedStyle(t).fill, lines[i]]); })""")
    assert colours and all(fill == stroke for fill, stroke in colours), colours
    # no table wider than its box on the smallest phone
    page.set_viewport_size({"width": 360, "height": 640})
    wide = page.evaluate("""() => [...document.querySelectorAll('main .scroll')]
        .filter((box) => box.scrollWidth > box.clientWidth + 1).map((box) => box.querySelector('table').dataset.testid)""")
    assert wide == [], f"tables scrolling sideways at 360 pixels: {wide}"
    page.set_viewport_size(PHONE)
    shot(page, f"player-page-{locale}-phone")
    page.click("[data-testid=standings-link]")
    page.wait_for_selector("[data-testid=standings] tbody tr")
    rows = page.locator("[data-testid=standings] tbody tr")
    assert rows.count() >= 2
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shown = [tuple(rows.nth(i).locator("td").nth(cell).text_content() for cell in (0, 1))
             for i in range(rows.count())]  # (rank, name)
    api = httpx.get(f"{live.http}/api/standings",
                    params={"players": ",".join(name for _, name in shown)}).json()["standings"]
    # the page shows the server's order and ranks (its rows' places had been 1, 2, 3... even
    # where what it shows was level), and says what they are worked out from
    assert [(str(r["rank"]), r["name"]) for r in api] == shown
    assert page.get_by_test_id("standings-order").is_visible()
    shot(page, f"standings-{locale}-phone")
    page.goto(live.http + "/players/Nobody%20at%20all")
    assert page.locator("h1").text_content() in ("No such player", "Такого игрока нет")
    healthy(page)


def test_the_phone_of_a_player_sits_at_their_seat_and_the_laptop_plays_on(live, new_page):
    """Seats belong to the player: a second device with the identity (no seat token) is
    seated at once; both devices keep working."""
    name = fresh_name("Mila")
    r = httpx.post(live.http + "/api/rooms", json={"game": "black_maria",
                                                   "seats": ["open", "bot:rules", "bot:rules"]})
    code = r.json()["code"]
    laptop = new_page()
    laptop.goto(f"{live.http}/r/{code}")
    laptop.fill("#seat-name", name)
    laptop.click("[data-testid=take-seat-0]")
    laptop.wait_for_selector(".seat.me[data-seat='0'] a.name")  # a person's name links
    key = laptop.evaluate("JSON.parse(localStorage.getItem('cardroom.player')).key")
    link = httpx.post(live.http + "/api/me/device", headers={"X-Player-Key": key}).json()["link"]

    phone = new_page(PHONE)
    phone.goto(link)
    phone.wait_for_function("document.querySelector('[data-testid=continue-status]')"
                            ".textContent.includes(" + repr(name) + ")")
    # the lobby leads to her tables, known by her name (this phone holds no seat of them): the
    # match on, and a table still waiting for players (which has no match yet)
    waiting = create_room(live, "black_maria", ["open", "open", "bot:rules"])
    httpx.post(f"{live.http}/api/rooms/{waiting}/join", json={"seat": 0}, headers={"X-Player-Key": key})
    phone.goto(live.http + "/")
    phone.locator(f"[data-testid=my-table] a[href='/r/{waiting}']").wait_for()
    phone.locator(f"[data-testid=my-table] a[href='/r/{code}']").click()
    phone.wait_for_selector(".seat.me[data-seat='0']")  # her seat at once, no token here
    assert phone.evaluate("localStorage.getItem('cardroom.seat." + code + "')") is None
    phone.wait_for_selector("[data-testid=pass-button]")
    for i in range(3):  # she passes from the phone ...
        phone.locator(".hand-row .card.playable").nth(i).click()
    phone.click("[data-testid=pass-button]")
    laptop.wait_for_selector("[data-testid=received] .cardtext")  # ... the laptop sees it
    assert laptop.get_attribute("#conn", "data-status") == "online"
    healthy(laptop, phone)


def test_the_lobby_leads_back_to_ones_tables_first_saying_whose_turn(live, new_page):
    """A table's link lost, the lobby leads back: the tables this browser sits at come first,
    each saying whether the match is on, whose turn it is, or that it waits for players (the
    lobby had listed only other people's open tables)."""
    playing = create_room(live, "marjolet", ["open", "bot:rules"])
    waiting = create_room(live, "black_maria", ["open", "open", "bot:rules"])
    page = new_page({"width": 360, "height": 640}, locale="ru-RU", has_touch=True, is_mobile=True)
    page.context.add_init_script("window.CARDROOM_REFRESH_MS = 500;")
    sit(page, live, waiting, "Оля", 0)
    sit(page, live, playing, "Оля", 0)
    page.wait_for_selector("[data-testid=status].yours")  # (it waits for her: it stays so)
    page.goto(live.http + "/")
    tables = page.get_by_test_id("my-table")
    tables.first.wait_for()
    said = {t.locator("a").get_attribute("href"): t.inner_text() for t in tables.all()}
    assert set(said) == {f"/r/{playing}", f"/r/{waiting}"}
    assert "ваш ход · Оля, Бот 2" in said[f"/r/{playing}"]
    assert "ждёт игроков · Оля, Бот 3 · 1 свободное место" in said[f"/r/{waiting}"]  # (a free seat had been "—")
    assert page.get_by_test_id("my-tables").bounding_box()["y"] < page.locator("#create").bounding_box()["y"]
    shot(page, "lobby-my-tables-phone-ru")
    # its refreshes leave a focused link alone (each had rebuilt the lists, the focus lost)
    tables.first.locator("a").focus()
    page.wait_for_timeout(1500)  # (three refreshes)
    assert page.evaluate("document.activeElement.matches('[data-testid=my-table] a')")
    # kept current: a friend takes the last seat, and the table is on (it had stayed "waiting")
    friend = new_page()
    sit(friend, live, waiting, "Петя", 1)
    page.locator(f"[data-testid=my-table]:has(a[href='/r/{waiting}'])", has_text="ждёт игроков").wait_for(state="detached")
    tables.first.locator("a").click()
    page.wait_for_selector(".seat.me[data-seat='0']")
    healthy(page)


def test_a_table_whose_match_is_over_stays_among_your_tables_for_the_rematch(live, new_page):
    """A guest who goes to the lobby once the match is over finds the table there, "match over:
    a rematch?" (it had gone from the list at once: no way back to ask for it)."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"], {"target": 1})
    page = new_page({"width": 360, "height": 640}, locale="ru-RU", has_touch=True, is_mobile=True)
    sit(page, live, code, "Оля", 0)
    watch = Watch([page], 90, "a match to 1 against two bots")
    while not page.locator("[data-testid=match-over]").count():
        watch()
        if not pass_or_play(page):
            page.wait_for_timeout(20)
    page.goto(live.http + "/")
    listed = page.locator(f"[data-testid=my-table]:has(a[href='/r/{code}'])")
    listed.wait_for()
    assert "партия окончена: ещё одну?" in listed.inner_text()
    healthy(page)


def test_a_guest_stays_a_guest_at_the_next_table(live, new_page):
    """Having sat as a guest ("this browser keeps no name"), the next table's form and the
    lobby's come with the guest box ticked: unticked, one tap had claimed the name for good."""
    first = create_room(live, "marjolet", ["open", "bot:rules"])
    second = create_room(live, "marjolet", ["open", "bot:rules"])
    page = new_page()
    name = fresh_name("Cleo")
    sit(page, live, first, name, 0)  # (as a guest)
    page.goto(f"{live.http}/r/{second}")
    assert page.input_value("#seat-name") == name and page.is_checked("[data-testid=seat-guest]")
    page.goto(live.http + "/")
    assert page.input_value("#create-name") == name and page.is_checked("[data-testid=create-guest]")
    page.goto(f"{live.http}/r/{second}")
    page.uncheck("[data-testid=seat-guest]")  # now claimed: the box unticked from then on
    page.click("[data-testid=take-seat-0]")
    page.wait_for_selector(".seat.me[data-seat='0']")
    page.goto(live.http + "/")
    assert not page.is_checked("[data-testid=create-guest]")
    assert httpx.get(f"{live.http}/api/players/{quote(name, safe='')}").json()["claimed"]
    healthy(page)


def shows_the_player(page, name: str) -> None:
    page.wait_for_selector("[data-testid=player-name]")
    assert page.text_content("[data-testid=player-name]").startswith(name), page.url


def switch_language(page) -> None:
    lang = page.evaluate("document.documentElement.lang")
    page.click("[data-testid=lang-switch]")
    # (while the new page comes there may be no document element for a moment)
    page.wait_for_function("(lang) => ![null, lang, ''].includes(document.documentElement?.lang ?? null)",
                           arg=lang)


def test_names_holding_slash_hash_question_or_percent_have_their_pages(live, new_page):
    """A name is one part of its page's address whatever it holds: each link to a player's
    page leads there, and so does the language switch on it."""
    names = [fresh_name("a/b"), fresh_name("C# fan"), fresh_name("x?y 100%")]
    match_id = stored_match(live, "black_maria-1", names, datetime.now(timezone.utc))
    page = new_page()
    for name in names:
        assert httpx.get(f"{live.http}/api/players/{quote(name, safe='')}").json()["name"] == name
        opponent, partner_in_standings = [n for n in names if n != name]
        page.goto(f"{live.http}/history?player={quote(name)}")
        switch_language(page)
        assert page.input_value("input[name=player]") == name
        page.get_by_role("link", name=name, exact=True).click()
        shows_the_player(page, name)
        switch_language(page)
        shows_the_player(page, name)
        page.get_by_role("link", name=opponent, exact=True).click()  # head to head
        shows_the_player(page, opponent)
        page.go_back()
        page.click("[data-testid=standings-link]")
        page.get_by_role("link", name=partner_in_standings, exact=True).click()
        shows_the_player(page, partner_in_standings)
        page.goto(f"{live.http}/matches/{match_id}")
        page.get_by_role("link", name=name, exact=True).click()
        shows_the_player(page, name)
    healthy(page)


@pytest.mark.parametrize("locale", ["ru-RU", "en-GB"])
def test_a_laptops_lobby_says_what_it_is_and_shows_create_without_scrolling(live, new_page, locale):
    """In a 1366 by 768 laptop's window the lobby says in a line what the site is, each game leads
    to its own rules, and "Create the table" is on the screen for every game, against bots or
    with friends: the settings stand beside the game and the seats (the button had been under
    the window's foot)."""
    page = new_page({"width": 1366, "height": 657}, locale=locale)
    page.goto(live.http + "/")
    for game in ("marjolet", "black_maria", "big_mariage"):
        page.check(f"input[value={game}]")
        for seats in ("seats-bots", "seats-friends"):
            page.click(f"[data-testid={seats}]")
            button = page.locator("#create-button").bounding_box()
            assert button["y"] + button["height"] <= 657 and page.evaluate("scrollY") == 0, (game, seats, button)
        for row in page.locator(".seat-choice:has(select)").all():  # a seat's choice beside its number
            words, choice = row.locator(":scope > span").first.bounding_box(), row.locator("select").bounding_box()
            assert choice["y"] < words["y"] + words["height"], (game, words, choice)
    assert len(page.text_content(".lead").split()) > 8
    shot(page, f"lobby-laptop-{locale}")
    page.click("[data-testid=rules-big_mariage]")
    page.wait_for_url("**/rules#big_mariage")
    assert 8 <= page.evaluate("document.getElementById('big_mariage').getBoundingClientRect().top") < 100
    healthy(page)


SHARE_SHEET = """window.shared = [];
Object.defineProperty(navigator, 'share', { value: (data) => { window.shared.push(data); return Promise.resolve(); } });"""


def test_a_phone_shares_a_tables_invite_through_its_share_sheet(live, new_page):
    """On a phone the invitation goes through its share sheet, straight into a messenger (the
    link had only been copied, to be pasted): from the lobby's new table and from the table."""
    page = new_page(PHONE, locale="ru-RU", has_touch=True, is_mobile=True)
    page.context.add_init_script(SHARE_SHEET)
    page.goto(live.http + "/")
    page.check("input[value=big_mariage]")
    page.click("[data-testid=seats-friends]")
    page.fill("#create-name", fresh_name("Оля"))
    page.check("[data-testid=create-guest]")
    page.click("#create-button")
    page.get_by_test_id("share-link").click()
    link = page.input_value("#invite-link")
    page.wait_for_function("window.shared.length === 1")
    assert page.evaluate("window.shared[0]") == {"text": "Приглашаю за стол: Большой марьяж", "url": link}
    page.click("#go-table")
    page.wait_for_selector(".seat.me")  # (the table's script running: the button listened to)
    page.get_by_test_id("copy-invite").click()
    page.wait_for_function("window.shared.length === 1")  # (a new page: its own list)
    assert page.evaluate("window.shared[0].url") == link
    laptop = new_page()  # (no share sheet, or a mouse: the link is copied)
    laptop.goto(live.http + "/")
    assert laptop.evaluate("document.getElementById('share-link').hidden")
    healthy(page, laptop)
