"""Interface languages (Russian and English): every string of the pages lives in
``app/web/locales/{lang}.json``; the language comes from the ``lang`` cookie, else the browser's
Accept-Language, else English."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("en", "ru")
DEFAULT = "en"
LOCALES = Path(__file__).resolve().parent / "locales"


@lru_cache(maxsize=None)
def strings(lang: str) -> dict[str, str]:
    with open(LOCALES / f"{lang}.json", encoding="utf-8") as f:
        return json.load(f)


def from_accept_language(header: str | None) -> str | None:
    """The best of our languages in an Accept-Language header (q-values respected)."""
    if not header:
        return None
    choices = []
    for position, part in enumerate(header.split(",")):
        piece = part.strip().split(";")
        tag = piece[0].strip().lower()
        q = 1.0
        for param in piece[1:]:
            param = param.strip()
            if param.startswith("q="):
                try:
                    q = float(param[2:])
                except ValueError:
                    q = 0.0
        primary = tag.split("-")[0]
        if primary in LANGUAGES and q > 0:
            choices.append((-q, position, primary))
    return min(choices)[2] if choices else None


def language(request) -> str:
    cookie = request.cookies.get("lang")
    if cookie in LANGUAGES:
        return cookie
    return from_accept_language(request.headers.get("accept-language")) or DEFAULT


def translate(lang: str, key: str, **values) -> str:
    text = strings(lang).get(key)
    if text is None:
        text = strings(DEFAULT).get(key, key)
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text
