"""Interface languages (Russian and English): every string of the pages lives in
``app/web/locales/{lang}.json``; the language comes from the ``lang`` cookie, else the browser's
Accept-Language, else English."""

from __future__ import annotations

import json
import re
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


#: "{n, plural, one {# free seat} other {# free seats}}" (ICU's plural forms, as common.js reads
#: them): the form the language uses for n, # standing for n.
PLURAL = re.compile(r"\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*"
                    r"\{(?:[^{}]|\{\w+\})*\})+)\s*\}")
FORM = re.compile(r"(=\d+|zero|one|two|few|many|other)\s*\{((?:[^{}]|\{\w+\})*)\}")
#: The forms each language has (CLDR), which its plural strings must all give.
PLURAL_FORMS = {"en": ("one", "other"), "ru": ("one", "few", "many", "other")}


def plural_category(lang: str, n) -> str:
    """CLDR's plural category of the number n in lang (as Intl.PluralRules says it)."""
    n = abs(n)
    if n != int(n):
        return "other"
    n = int(n)
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def plural_forms(text: str) -> list[dict[str, str]]:
    """The plural blocks of a string, each as {category: form}."""
    return [dict(FORM.findall(m.group(2))) for m in PLURAL.finditer(text)]


def figure(value: int) -> str:
    """A figure as the score sheet writes it: "−75" with a minus sign, not a hyphen."""
    return f"\u2212{-value}" if value < 0 else str(value)


def _plurals(lang: str, text: str, values: dict) -> str:
    def choose(m: re.Match) -> str:
        value = values.get(m.group(1), 0)
        forms = dict(FORM.findall(m.group(2)))
        form = forms.get(f"={value}", forms.get(plural_category(lang, value), forms.get("other")))
        return m.group(0) if form is None else form.replace("#", figure(value) if isinstance(value, int) else str(value))
    return PLURAL.sub(choose, text)


def translate(lang: str, key: str, **values) -> str:
    text = strings(lang).get(key)
    if text is None:
        text, lang = strings(DEFAULT).get(key, key), DEFAULT
    if ", plural," in text:
        text = _plurals(lang, text, values)
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text
