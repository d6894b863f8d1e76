"""The catalogues of strings (app/web/locales/{en,ru}.json) against what the pages ask of them:
every key a script or a template names is in both languages (a missing one shows as its raw key,
`mj.end_phase_more`), both say the same placeholders, and plural strings give every form their
language has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.web.i18n import LANGUAGES, PLURAL_FORMS, plural_category, plural_forms, strings, translate

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*ROOT.glob("static/js/**/*.js"), *ROOT.glob("templates/**/*.html")])
#: t("key"), t('key', ...), t(`key`) — a whole key written out (not t("game." + name))
LITERAL = re.compile(r"""(?<![\w.$])t\(\s*(["'`])([^"'`$\\]+)\1\s*[,)]""")
#: t("game." + name), t(`optval.${key}.${v}`): the keys' common beginning
PREFIX = re.compile(r"""(?<![\w.$])t\(\s*(?:(["'])([\w.]+\.\w*)\1\s*\+|`([\w.]+\.\w*)\$\{)""")
#: {name} and {name, plural, ...}, not the words of a plural's forms
PLACEHOLDER = re.compile(r"\{(\w+)(?=\}|, plural,)")


def named_keys() -> dict[str, set[str]]:
    keys: dict[str, set[str]] = {}
    for path in SOURCES:
        for m in LITERAL.finditer(path.read_text(encoding="utf-8")):
            keys.setdefault(m.group(2), set()).add(str(path.relative_to(ROOT)))
    return keys


def test_the_sources_are_read():
    keys = named_keys()
    assert len(keys) > 200
    assert {"mj.end_phase_more", "lobby.free_seats", "seat.empty", "lobby.create"} <= set(keys)


def test_both_languages_have_the_same_keys():
    en, ru = strings("en"), strings("ru")
    assert sorted(set(en) - set(ru)) == [] and sorted(set(ru) - set(en)) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_a_script_or_a_template_names_is_in_the_catalogue(lang):
    catalogue = strings(lang)
    missing = {key: sorted(where) for key, where in named_keys().items() if key not in catalogue}
    assert missing == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_a_script_builds_has_a_beginning_the_catalogue_knows(lang):
    catalogue = strings(lang)
    prefixes = {m.group(2) or m.group(3) for path in SOURCES
                for m in PREFIX.finditer(path.read_text(encoding="utf-8"))}
    assert {"game.", "rel.", "optval."} <= prefixes
    assert sorted(p for p in prefixes if not any(k.startswith(p) for k in catalogue)) == []


def test_both_languages_say_the_same_placeholders():
    en, ru = strings("en"), strings("ru")
    def said(text: str) -> list[str]:
        return sorted(set(PLACEHOLDER.findall(text)))

    assert {key: (said(en[key]), said(ru[key])) for key in en if said(en[key]) != said(ru[key])} == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_strings_give_every_form_of_their_language(lang):
    plurals = {key: text for key, text in strings(lang).items() if ", plural," in text}
    assert plurals, "the catalogue has plural strings"
    for key, text in plurals.items():
        blocks = plural_forms(text)
        assert blocks, f"{key}: a plural block that does not parse: {text}"
        for forms in blocks:
            assert set(PLURAL_FORMS[lang]) <= set(forms), (key, sorted(forms))
            assert all("#" in form for form in forms.values()), key


def test_no_hand_made_plurals():
    """"1 free seat(s)": a language's plural forms say it instead."""
    assert [k for k, v in strings("en").items() if "(s)" in v] == []


@pytest.mark.parametrize("n, category", [(0, "many"), (1, "one"), (2, "few"), (4, "few"), (5, "many"),
                                         (11, "many"), (12, "many"), (14, "many"), (21, "one"),
                                         (22, "few"), (111, "many"), (-21, "one"), (1.5, "other")])
def test_russian_plural_categories_are_cldr_s(n, category):
    assert plural_category("ru", n) == category


@pytest.mark.parametrize("lang, n, text", [
    ("en", 1, "1 free seat"), ("en", 2, "2 free seats"), ("en", 0, "0 free seats"),
    ("ru", 1, "1 свободное место"), ("ru", 3, "3 свободных места"), ("ru", 5, "5 свободных мест"),
    ("ru", 21, "21 свободное место"),
])
def test_a_plural_string_reads_in_its_language(lang, n, text):
    assert translate(lang, "lobby.free_seats", n=n) == text


def test_a_plural_form_keeps_the_other_placeholders():
    assert translate("en", "player.best", n=1) == "best match: 1 point"
    assert translate("ru", "player.best", n=2) == "лучшая партия: 2 очка"
    assert translate("ru", "info.waiting_open", n=2).startswith("Ждём игроков: свободно 2 места.")
    assert translate("ru", "analysis.running", done=3, total=21) == "Разбор: 3 из 21 хода"
    assert translate("ru", "analysis.running", done=3, total=25) == "Разбор: 3 из 25 ходов"
    assert translate("en", "analysis.running", done=0, total=1) == "Analysing: 0 of 1 move"


#: a verb in the past tense, whose ending is a gender in Russian (сказал, сказала, вернулся)
PAST = re.compile(r"(?<![а-яё])[а-яё]+[аяеиыуёо]л(?:а|ся|ась)?(?![а-яё])", re.IGNORECASE)
#: a past tense whose subject is «кто» or «никто», masculine by rule
WHO = re.compile(r"(?:ни)?кто(?:-то)?(?: не)? \w+", re.IGNORECASE)
#: what is said of a player: a sentence with their name, a note beside it on their seat
#: (render.js seatBadges, seatExtras)
ABOUT_A_PLAYER = re.compile(r"\{(?:name|names|who|to)\b")
SEAT_NOTES = {"bmaria.passed", "bmaria.choosing", "bm.said", "bm.pass_said", "bm.declarer"}


def test_russian_gives_the_players_no_gender():
    """A name says nothing of its owner's gender: what a person does is said in the present
    ("Взятку берёт {name}"), as a label ("заявка: 80") or of the cards ("карты отданы"), never
    in the past tense, whose ending is a gender ("Маша сказал", "отошёл" beside her name)."""
    about = {key: text for key, text in strings("ru").items()
             if ABOUT_A_PLAYER.search(text) or key.startswith("seat.") or key in SEAT_NOTES}
    assert len(about) > 60
    gendered = {key: PAST.findall(WHO.sub("", text)) for key, text in about.items()}
    assert {key: words for key, words in gendered.items() if words} == {}
