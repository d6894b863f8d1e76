"""The table page's side of the state changes (static/js/table/sync.js), in Chromium: it works
out the same STATE and the same hash as the server for a whole match of each game and for
names that JSON writes with escapes, and it asks for the whole state when it loses step."""

from __future__ import annotations

import pytest

from app import protocol
from tests.app.test_state_changes import a_match_played

pytestmark = pytest.mark.browser

SYNC = "import('/static/js/table/sync.js')"
ODD_NAMES = ['Анна "А" \\ Ж', "🂡 ♠♥", "tab\there", "bell\u0007 del\u007f", "line\u2028sep",
             "é e\u0301", "</script>"]


def page_at(live, new_page):
    page = new_page()
    page.goto(live.http + "/")
    return page


def test_the_page_writes_the_text_and_the_hash_of_a_state_as_the_server_does(live, new_page):
    page = page_at(live, new_page)
    state = protocol.state({"seats": [{"name": n, "connected": True} for n in ODD_NAMES],
                            "think_time": protocol.js_number(1.0)}, 0, ODD_NAMES[0], 7,
                           {"hand": ["QS"], "scores": [-40, 0]},
                           [{"text": n, "seat": 1} for n in ODD_NAMES])
    text, digest = page.evaluate(f"(s) => {SYNC}.then((m) => [m.canonical(s), m.stateHash(s)])",
                                 state)
    assert text == protocol.canonical(state).decode()
    assert digest == protocol.state_hash(protocol.canonical(state))


@pytest.mark.parametrize("game", ["marjolet", "black_maria", "big_mariage"])
def test_the_page_follows_every_seats_state_through_a_match(live, new_page, game):
    """Each seat's welcome, then each action's changes, through a match of rules bots: the
    page's follower gives the server's STATE each time, and never loses step."""
    page = page_at(live, new_page)
    messages, expected, sent = [], [], {}
    for seq, views in enumerate(a_match_played(game, 5), start=1):
        state = protocol.state({"code": "C"}, 1, "n", seq, views[2], [])
        digest = protocol.state_hash(protocol.canonical(state))
        if not sent:
            messages.append(protocol.welcome(seq, state, None, digest))
        else:
            messages.append(protocol.event(seq, {"kind": "action"},
                                           protocol.state_changes(sent, state), digest))
        expected.append(state)
        sent = state
    got = page.evaluate(f"""(messages) => {SYNC}.then((m) => {{
        let lost = 0;
        const follow = m.follower(() => {{ lost += 1; }});
        return {{lost, states: messages.map((msg) => m.canonical(follow(msg)))}};
    }})""", messages)
    assert got["states"] == [protocol.canonical(s).decode() for s in expected]
    assert not page.errors


def test_the_page_asks_for_the_whole_state_once_when_it_loses_step(live, new_page):
    page = page_at(live, new_page)
    states = [protocol.state({"code": "C"}, 0, "n", seq, {"hand": ["QS", "9H"][:3 - seq]}, [])
              for seq in (1, 2, 3)]
    digests = [protocol.state_hash(protocol.canonical(s)) for s in states]
    welcome = protocol.welcome(1, states[0], None, digests[0])
    skipped = protocol.event(3, {"kind": "action"}, protocol.state_changes(states[0], states[2]),
                             digests[2])
    wrong = protocol.event(2, {"kind": "action"}, protocol.state_changes(states[0], states[1]),
                           digests[2])
    got = page.evaluate(f"""([welcome, skipped, wrong]) => {SYNC}.then((m) => {{
        let asked = 0;
        const follow = m.follower(() => {{ asked += 1; }});
        const out = [follow(welcome), follow(skipped), follow(skipped), asked];
        out.push(follow(welcome), follow(wrong), asked);
        // a sync refused (too many messages): asked again while events come, once a while
        let again = 0;
        const retrying = m.follower(() => {{ again += 1; }}, 0);
        retrying(welcome);
        retrying(skipped);
        retrying(skipped);
        out.push(again);
        return out;
    }})""", [welcome, skipped, wrong])
    assert got == [states[0], None, None, 1, states[0], None, 2, 2]
    assert len(page.errors) == 3 and all("asking for the whole state" in e for e in page.errors)
