"""The table page when what carries it fails. A link that dies without a word (a phone that
changed networks): nothing answers the page in time, it gives the socket up for a new one and
plays on. The production topology (tests/scale/: two app processes on PostgreSQL and Redis,
the shipped nginx.conf in front, HTTPS): when the process holding a room dies, both pages say
they are reconnecting, nginx sends them to the other process, and play goes on from its
welcome, each event's changes applied to the page's STATE without ever asking for the whole
state again."""

from __future__ import annotations

import time
from types import SimpleNamespace

import httpx
import pytest

from tests.scale.conftest import TcpProxy, pg_url, processes, redis_url  # noqa: F401 (fixtures)
from tests.scale.test_tls import nginx_binary, proxy, rooms_held  # noqa: F401 (fixtures)

from .conftest import LAPTOP, PHONE, shot
from .test_tables import (
    act,
    create_room,
    healthy,
    my_turn,
    play_first_legal,
    sit,
    state,
    try_click,
    wait_state,
)

pytestmark = [pytest.mark.browser, pytest.mark.services, pytest.mark.timeout(180)]


def through(base: str) -> SimpleNamespace:
    """A server address as ``sit`` takes it (nginx's, or a proxy's)."""
    return SimpleNamespace(http=base)


def play(pages, actions: int) -> None:
    """Marjolet's seats draw when they must and play their first playable card, until
    ``actions`` cards have been played; each is answered (``act`` fails the test if not)."""
    played, deadline = 0, time.monotonic() + 60
    while played < actions:
        assert time.monotonic() < deadline, f"{played} of {actions} cards played in 60 s"
        for page in pages:
            if page.locator("[data-testid=draw]").count():
                act(page, page.locator("[data-testid=draw]"))
            elif my_turn(page) and play_first_legal(page):
                played += 1


def test_the_pages_of_a_killed_process_play_on_through_the_other(proxy, new_page):  # noqa: F811
    https, _, trust, apps = proxy
    made = httpx.post(f"{https}/api/rooms", json={"game": "marjolet", "seats": ["open", "open"]},
                      verify=trust)
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    phone = new_page(PHONE, locale="ru-RU", has_touch=True, is_mobile=True,
                     ignore_https_errors=True)
    laptop = new_page(LAPTOP, ignore_https_errors=True)
    pages = [phone, laptop]
    asked = {id(page): 0 for page in pages}  # the `sync` messages each page sent
    for page in pages:
        page.on("websocket", lambda ws, page=page: ws.on(
            "framesent", lambda text, page=page: asked.__setitem__(
                id(page), asked[id(page)] + ('"sync"' in str(text)))))
    for seat, (page, name) in enumerate(zip(pages, ("Anna", "Boris"))):
        sit(page, through(https), code, name, seat)
    play(pages, 4)
    held = rooms_held(apps)
    assert sorted(held) == [0, 1], f"rooms held by each process: {held}"
    home, other = apps if held[0] else apps[::-1]
    before = [state(page)["seq"] for page in pages]

    home.kill()
    for page in pages:
        page.wait_for_selector("#conn[data-status=reconnecting]")
    shot(phone, "failover-reconnecting-phone")
    for page in pages:
        page.wait_for_selector("#conn[data-status=online]", timeout=30000)
    assert rooms_held([other]) == [1]
    assert [state(page)["seq"] for page in pages] == before, "the welcome lost an event"
    play(pages, 4)
    shot(phone, "failover-played-on-phone")

    healthy(*pages)  # (a page that lost step says so on its console, which fails here)
    after = [state(page) for page in pages]
    assert after[0]["seq"] == after[1]["seq"] > before[0] + 4
    assert after[0]["match"]["deal"]["trick"] == after[1]["match"]["deal"]["trick"]
    assert asked == {id(page): 0 for page in pages}, "a page asked for the whole state"


def anna_here_and_boris_through(link, live, new_page, answer_ms: int):
    """A Marjolet table: Anna on a laptop on the server itself, Boris on a phone through
    ``link``, his page pinging only after the test (what it waits for is answers to what he
    sends) and giving a socket up after ``answer_ms``."""
    code = create_room(live, "marjolet", ["open", "open"])
    anna = new_page(LAPTOP)
    boris = new_page(PHONE, has_touch=True, is_mobile=True)
    boris.add_init_script(
        f"window.CARDROOM_PING_MS = 60000; window.CARDROOM_ANSWER_MS = {answer_ms};")
    sockets = []
    boris.on("websocket", lambda ws: sockets.append(ws))
    sit(anna, live, code, "Anna", 0)
    sit(boris, through(f"http://127.0.0.1:{link.port}"), code, "Boris", 1)
    return anna, boris, sockets


def test_a_link_that_died_without_a_word_is_given_up_for_a_new_one(live, new_page):
    """Boris's phone reaches the server through a proxy whose connections then carry nothing
    more and close nothing (``TcpProxy.freeze``), new ones too for a while. He plays a card,
    which never arrives: the card stays raised and the page says it is sending his move; with
    no answer in time, it gives the socket up, and each new one that never opens too, until the
    link is back. The welcome shows that the card never arrived, and the page sends it again by
    itself, with its id: Anna, on the server itself, sees it played once, and Boris has no
    error and no card left marked as on its way."""
    link = TcpProxy(live.port)
    try:
        anna, boris, sockets = anna_here_and_boris_through(link, live, new_page, answer_ms=2000)
        while not (my_turn(boris) and not boris.locator("[data-testid=draw]").count()):
            play([anna, boris], 1)
        opened, seq = len(sockets), state(boris)["seq"]
        wait_state(anna, f"s.seq === {seq}")  # (Boris's last action reached her)
        link.freeze(also_new=True)
        card = boris.locator(".hand-row .card.playable").first
        played = card.get_attribute("data-card")
        assert try_click(card)
        boris.wait_for_selector(f'.hand-row .card.sending[data-card="{played}"]', timeout=3000)
        assert "sending" in boris.locator("[data-testid=status]").get_attribute("class")
        shot(boris, "dead-link-sending")
        deadline = time.monotonic() + 15
        while len(sockets) < opened + 2:
            assert time.monotonic() < deadline, \
                f"{len(sockets) - opened} new sockets in 15 s: one left hanging"
            boris.wait_for_timeout(100)
        assert state(anna)["seq"] == seq, "the card went through the frozen link"
        link.thaw()
        boris.wait_for_selector("#conn[data-status=online]", timeout=10000)
        wait_state(anna, f"s.seq === {seq + 1}")
        wait_state(boris, f"s.seq === {seq + 1}")
        assert played not in state(boris)["match"]["deal"]["hands"][1]
        assert not boris.locator(".sending").count(), "a mark of sending left on the page"
        boris.wait_for_timeout(500)  # (a second copy would be stored by now)
        assert state(anna)["seq"] == seq + 1
        healthy(anna, boris)
        play([anna, boris], 2)
        healthy(anna, boris)
        assert state(anna)["seq"] == state(boris)["seq"]
    finally:
        link.close()


def test_a_chat_line_lost_with_a_dead_link_goes_back_into_the_box(live, new_page):
    """Boris writes to the table on a link that then carries nothing: the page gives the socket
    up, and the new one's welcome shows the line never arrived. It is back in the box, before
    what he has typed since, and the page says so; sent again, Anna reads it once. His line
    before, answered (its event carries its id), is not put back, although the server kept
    it without its invisible direction mark."""
    link = TcpProxy(live.port)
    try:
        anna, boris, _ = anna_here_and_boris_through(link, live, new_page, answer_ms=1500)
        boris.click("[data-testid=chat-tab]")
        boris.fill("#chat-input", "made it\u200f")
        boris.click("#chat-form button")
        anna.locator("[data-testid=chat-lines] li", has_text="made it").wait_for()
        # (its event, with its ack, back on his page too: the link then dies)
        boris.locator("[data-testid=chat-lines] li", has_text="made it").wait_for()
        link.freeze(also_new=True)
        boris.fill("#chat-input", "see you at nine")
        boris.click("#chat-form button")
        assert boris.input_value("#chat-input") == ""
        boris.wait_for_selector("#conn[data-status=reconnecting]", timeout=5000)
        boris.fill("#chat-input", "or ten")  # typed meanwhile
        link.thaw()
        boris.wait_for_selector("#conn[data-status=online]", timeout=10000)
        boris.wait_for_function(
            "document.getElementById('chat-input').value === 'see you at nine or ten'")
        assert "back in the box" in boris.text_content("#toast.info")
        shot(boris, "dead-link-chat")
        assert not anna.locator("[data-testid=chat-lines] li", has_text="see you").count()
        boris.click("#chat-form button")
        anna.locator("[data-testid=chat-lines] li", has_text="see you at nine or ten").wait_for()
        boris.wait_for_timeout(300)
        assert anna.locator("[data-testid=chat-lines] li", has_text="see you").count() == 1
        assert boris.input_value("#chat-input") == ""
        healthy(anna, boris)
    finally:
        link.close()


def test_offline_the_page_says_so_at_once_and_plays_on_when_back(live, new_page):
    """The browser goes offline (a phone in a tunnel): the page does not wait for a ping's
    answer to say it is reconnecting, and its own seat's dot goes grey (it had stayed green
    while offline); back online, it is at the table again and plays on."""
    code = create_room(live, "marjolet", ["open", "bot:rules"])
    boris = new_page(PHONE, locale="ru-RU", has_touch=True, is_mobile=True)
    sit(boris, live, code, "Boris", 0)
    own_dot = boris.locator("[data-testid=presence-0]")
    assert own_dot.get_attribute("class") == "dot on"
    boris.context.set_offline(True)
    boris.wait_for_selector("#conn[data-status=reconnecting]", timeout=2000)
    assert boris.text_content("#conn") == "переподключение…"
    assert own_dot.get_attribute("class") == "dot off"
    assert own_dot.get_attribute("title") == "не на связи"
    boris.context.set_offline(False)
    boris.wait_for_selector("#conn[data-status=online]", timeout=10000)
    assert own_dot.get_attribute("class") == "dot on"
    boris.errors[:] = [e for e in boris.errors if "ERR_INTERNET_DISCONNECTED" not in e]
    play([boris], 2)
    healthy(boris)


def test_back_online_the_page_tries_at_once_rather_than_after_its_wait(live, new_page):
    """Boris's link dies and his phone goes offline: each attempt fails and the next waits
    longer, four seconds at least after the fifth (common.js reconnectDelay). Back online, the
    page does not wait: its next attempt comes at once, and it is at the table again."""
    link = TcpProxy(live.port)
    try:
        code = create_room(live, "marjolet", ["open", "open"])
        boris = new_page(PHONE, has_touch=True, is_mobile=True)
        boris.add_init_script("window.CARDROOM_PING_MS = 500; window.CARDROOM_ANSWER_MS = 1500;")
        sockets = []
        boris.on("websocket", lambda ws: sockets.append(time.monotonic()))
        sit(boris, through(f"http://127.0.0.1:{link.port}"), code, "Boris", 1)
        opened = len(sockets)
        boris.context.set_offline(True)
        link.freeze()
        deadline = time.monotonic() + 20
        while len(sockets) < opened + 5:
            assert time.monotonic() < deadline, f"{len(sockets) - opened} attempts in 20 s"
            boris.wait_for_timeout(50)
        boris.wait_for_timeout(200)  # (the fifth fails at once)
        assert boris.locator("#conn[data-status=reconnecting]").count()
        boris.context.set_offline(False)
        boris.wait_for_selector("#conn[data-status=online]", timeout=10000)
        fifth, sixth = sockets[opened + 4], sockets[opened + 5]
        assert sixth - fifth < 3, f"the attempt after the fifth came {sixth - fifth:.1f} s later"
        # the browser's own words for the attempts made offline
        boris.errors[:] = [e for e in boris.errors if "ERR_INTERNET_DISCONNECTED" not in e]
        healthy(boris)
    finally:
        link.close()
