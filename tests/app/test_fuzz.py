"""No input gives a server error (issue 26): every REST operation fuzzed from the app's own
OpenAPI schema by schemathesis, with valid and with invalid requests; and the WebSocket
protocol fuzzed by hypothesis: every bad message gets an ``error`` frame for its sender, the
connection stays usable (a ``ping`` after it gets its ``pong``) and the room is unchanged.
How many requests and messages were tried is printed at the end of the run."""

from __future__ import annotations

import json
from collections import Counter

import httpx
import pytest
import schemathesis
import websockets
import websockets.sync.client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.generation import GenerationMode

from app.main import create_app
from app.protocol import TYPES
from app.settings import Settings
from tests.conftest import LiveServer, fresh_sqlite

#: Requests and messages tried, by kind: printed by tests/conftest.py's terminal summary.
COUNTS: Counter[str] = Counter()



def schema(mode: GenerationMode):
    """The app's OpenAPI schema, for requests of ``mode`` (valid or not by the schema)."""
    loaded = schemathesis.openapi.from_dict(
        create_app(Settings(database_url="sqlite://", limits=False)).openapi())
    loaded.config.generation.update(modes=[mode], max_examples=25)
    return loaded


#: A parameter's schema that every value meets (any text, or none): no request breaks it.
ANY_TEXT = ({"type": "string"}, {"anyOf": [{"type": "string"}, {"type": "null"}]})


def can_be_invalid(ctx) -> bool:
    """Whether a request of an operation can break its schema: a body, or a parameter that
    refuses some value (the others have no invalid request to fuzz with)."""
    raw = ctx.operation.definition.raw
    return "requestBody" in raw or any(
        {k: v for k, v in parameter["schema"].items() if k not in ("title", "description")}
        not in ANY_TEXT for parameter in raw.get("parameters", []))


VALID = schema(GenerationMode.POSITIVE)
INVALID = schema(GenerationMode.NEGATIVE).include(can_be_invalid)


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    """A server holding the demo matches and a room with people, its database its own."""
    from app.ops.seeds import load_demo

    url = fresh_sqlite(tmp_path_factory, "fuzzdb")
    load_demo(url)
    server = LiveServer(url, rate=100_000).start()  # the socket fuzz sends fast
    yield server
    server.stop()


def call(case, server: LiveServer, kind: str) -> None:
    response = case.call(base_url=server.http, timeout=30)
    COUNTS[kind] += 1
    assert response.status_code < 500, (
        f"{case.method} {case.formatted_path} {case.query} {case.body!r}: "
        f"{response.status_code} {response.text[:300]}")


@VALID.parametrize()
def test_no_valid_request_gets_a_server_error(case, fuzzed):
    call(case, fuzzed, "REST requests the schema allows")


@INVALID.parametrize()
def test_no_invalid_request_gets_a_server_error(case, fuzzed):
    call(case, fuzzed, "REST requests the schema refuses")


# -- the WebSocket ---------------------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
NOT_TEXT = JSON.filter(lambda value: not isinstance(value, str))
UNSEEN = st.text(st.sampled_from(" \t\n\x00\x1b\u202e\u2066\u200f"), min_size=1, max_size=8)


def of_type(kind: str, **fields) -> st.SearchStrategy[dict]:
    optional = {k: v for k, v in {"id": JSON, "extra": JSON}.items() if k not in fields}
    return st.fixed_dictionaries({"type": st.just(kind), **fields}, optional=optional)


#: Messages that no state of a table where it is seat 0's turn accepts.
BAD = st.one_of(
    st.text(max_size=40).filter(lambda text: not _is_json_object(text)),   # not JSON objects
    st.binary(max_size=40),
    JSON.filter(lambda value: not isinstance(value, dict)).map(json.dumps),
    st.dictionaries(st.text(max_size=8), JSON, max_size=4).filter(          # no known type
        lambda d: d.get("type") not in TYPES).map(json.dumps),
    st.one_of(
        of_type("action"),                                                # no action
        of_type("action", action=JSON.filter(lambda a: not _legal(a))),  # not a legal one
        of_type("action", action=st.just({"type": "play", "card": "7H"}),
                id=NOT_TEXT.filter(lambda v: v is not None)),            # a bad id
        of_type("chat"), of_type("chat", text=NOT_TEXT), of_type("chat", text=UNSEEN),
        of_type("chat", text=st.just("x" * 301)),                        # over chat_max
        of_type("standin", seat=JSON.filter(lambda v: type(v) is not int)),
        of_type("standin", seat=st.integers().filter(lambda n: n not in (0, 1))),
        of_type("standin", seat=st.just(0), bot=st.text(max_size=8).filter(
            lambda kind: kind not in ("rules", "random", "strong"))),
        of_type("hello"), of_type("next"), of_type("rematch"),           # not now
        of_type("ping", id=JSON).map(lambda d: {**d, "type": ["ping"]}),  # an unhashable type
    ).map(json.dumps),
    st.just("[" * 5000),                                                  # over max_message
)


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def _legal(action) -> bool:
    """Whether ``action`` is one the table may take now (the fuzz sends only others)."""
    return isinstance(action, dict) and action in LEGAL


LEGAL: list[dict] = []


def table(server: LiveServer) -> tuple[str, str, dict]:
    """A Marjolet table of two people where it is seat 0's turn: its code, seat 0's token,
    and the legal actions of seat 0 now."""
    from engine import expand_moves

    with httpx.Client(base_url=server.http) as http:
        code = http.post("/api/rooms", json={"game": "marjolet"}).json()["code"]
        tokens = [http.post(f"/api/rooms/{code}/join", json={"name": name}).json()["token"]
                  for name in ("Ana", "Boris")]
    for token in reversed(tokens):
        with websockets.sync.client.connect(f"{server.ws}/ws/{code}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            state = until(ws, "welcome")["state"]
            if state["match"]["to_act"] == [0]:
                return code, tokens[0], state
            # Boris leads: he plays his first legal card, then it is seat 0's turn
            action = expand_moves(state["match"]["moves"])[0]
            ws.send(json.dumps({"type": "action", "action": action}))
            until(ws, "event")
    raise AssertionError("seat 0 never had the turn")


def until(ws, kind: str) -> dict:
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == kind:
            return message


def room_now(server: LiveServer, code: str) -> dict:
    with websockets.sync.client.connect(f"{server.ws}/ws/{code}") as ws:
        ws.send(json.dumps({"type": "hello"}))
        state = until(ws, "welcome")["state"]
    return {"seq": state["seq"], "match": state["match"], "chat": state["chat"],
            "seats": [(s["kind"], s["bot"], s["standin"]) for s in state["room"]["seats"]]}


def test_every_bad_message_is_refused_to_its_sender_and_changes_nothing(fuzzed):
    from engine import expand_moves

    code, token, state = table(fuzzed)
    LEGAL[:] = expand_moves(state["match"]["moves"])
    before = room_now(fuzzed, code)
    with websockets.sync.client.connect(f"{fuzzed.ws}/ws/{code}", max_size=2 ** 22) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        until(ws, "welcome")

        @settings(max_examples=300, derandomize=True, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(BAD)
        def refused(message):
            ws.send(message)
            frame = until(ws, "error")
            assert frame["code"] and frame["reason"] and frame["message"], frame
            ws.send(json.dumps({"type": "ping"}))
            until(ws, "pong")
            COUNTS["WebSocket messages refused (each followed by a ping answered)"] += 1

        refused()
    assert room_now(fuzzed, code) == before
