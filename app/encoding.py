"""JSON text, as the server writes it everywhere: in JSON columns and in WebSocket frames."""

from __future__ import annotations

import orjson


def json_text(value) -> str:
    """Compact JSON text. orjson: at several messages per action, the stdlib's encoder had
    been a fifth of the server's CPU. Keys that are not strings (numbers) are written as
    strings, as the stdlib does; orjson's option for them makes every message a third slower,
    so it is used only when it is needed."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
