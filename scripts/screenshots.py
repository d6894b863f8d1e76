"""Screenshots of the whole UI, on demand: every page, and each game played through its phases.

    .venv/bin/python scripts/screenshots.py [OUT_DIR] [PART...]

OUT_DIR: screenshots/ by default (gitignored); PART: pages, black_maria, marjolet, big_mariage
(all by default).

Starts `cardroom serve` on a temporary SQLite database holding the demo matches (bots without
delay, deal summaries that stay until the table asks for the next deal), plays Black Maria,
Marjolet and Big Mariage with one person against bots, and shoots every moment in four
browsers at once, seated as the same person: English and Russian, 1366×900 and 390×844 (a
phone: touch, mobile viewport). Files are named LANG-SIZE-PART-NN-MOMENT.png
(`en-phone-big_mariage-03-kitty.png`); OUT_DIR/index.html shows them all, a row per moment.
Table shots are the screen as a person sees it (no scrolling); other pages are whole.

Needs what ./test or ./run sets up: .venv (Playwright) and /usr/bin/chromium. Not a test.
"""

from __future__ import annotations

import html
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import httpx
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CARDROOM = Path(sys.executable).parent / "cardroom"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LANGS = {"en": "en-GB", "ru": "ru-RU"}
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
CAMERAS = [(lang, size) for lang in LANGS for size in SIZES]
PARTS = ["pages", "black_maria", "marjolet", "big_mariage"]
WAIT = 20_000  # ms: the longest any step may take before the script gives up on it


def log(*words) -> None:
    print(*words, file=sys.stderr, flush=True)


# -- the server ----------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`cardroom serve` on a fresh SQLite file with the demo matches, as a subprocess."""

    def __init__(self, workdir: Path):
        self.port = free_port()
        self.http = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{workdir}/cardroom.db",
               "BOT_DELAY": "0", "DEAL_PAUSE": "900", "LOG_LEVEL": "WARNING"}
        env.pop("PUBLIC_URL", None)
        env.pop("REDIS_URL", None)
        subprocess.run([str(CARDROOM), "load-demo"], env=env, cwd=workdir, check=True,
                       stdout=subprocess.DEVNULL)
        self.log = open(workdir / "server.log", "w")
        self.proc = subprocess.Popen([str(CARDROOM), "serve", "--port", str(self.port)],
                                     env=env, cwd=workdir, stdout=self.log,
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(self.http + "/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start; see {workdir / 'server.log'}")
            time.sleep(0.2)

    def room(self, game: str, seats: list[str], options: dict | None = None) -> str:
        r = httpx.post(self.http + "/api/rooms",
                       json={"game": game, "seats": seats, "options": options or {}})
        r.raise_for_status()
        return r.json()["code"]

    def join(self, code: str, name: str, seat: int) -> dict:
        r = httpx.post(f"{self.http}/api/rooms/{code}/join", json={"name": name, "seat": seat})
        r.raise_for_status()
        body = r.json()
        return {"token": body["token"], "seat": body["seat"], "name": name}

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


# -- the cameras ---------------------------------------------------------------------------------

class Shots:
    """Writes the screenshots and index.html."""

    def __init__(self, out: Path):
        self.out = out
        self.count = 0

    def take(self, page, lang: str, size: str, part: str, moment: str, whole: bool) -> None:
        name = f"{lang}-{size}-{part}-{moment}.png"
        try:
            page.screenshot(path=str(self.out / name), full_page=whole, animations="disabled")
        except PlaywrightError as error:
            log(f"  could not shoot {name}: {str(error).splitlines()[0]}")
            return
        self.count += 1

    def index(self) -> None:
        """index.html: every screenshot in the folder (earlier runs of other parts too), a row
        per moment, a column per language and size."""
        rows: dict[tuple[str, str], dict] = {}
        for path in self.out.glob("*.png"):
            lang, size, rest = path.stem.split("-", 2)
            part, _, moment = rest.partition("-")
            rows.setdefault((part, moment), {})[(lang, size)] = path.name
        order = {name: i for i, name in enumerate(PARTS)}
        lines = []
        for (part, moment), files in sorted(rows.items(),
                                            key=lambda kv: (order.get(kv[0][0], 9), kv[0][1])):
            cells = []
            for lang, size in CAMERAS:
                name = html.escape(files.get((lang, size), ""))
                img = f'<a href="{name}"><img src="{name}" loading="lazy" alt="{name}"></a>'
                cells.append(f'<td class="{size}">{img if name else "—"}</td>')
            lines.append(f"<tr><th>{html.escape(part)}<br>{html.escape(moment)}</th>"
                         + "".join(cells) + "</tr>")
        heads = "".join(f"<th>{lang} · {size}</th>" for lang, size in CAMERAS)
        (self.out / "index.html").write_text(f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cardroom screenshots</title>
<style>
body {{ font: 14px system-ui, sans-serif; margin: 12px; background: #eee; }}
table {{ border-collapse: collapse; }} th, td {{ border: 1px solid #bbb; padding: 4px; vertical-align: top; }}
thead th {{ position: sticky; top: 0; background: #ddd; }}
tbody th {{ text-align: left; white-space: nowrap; }}
td.desktop img {{ width: 420px; }} td.phone img {{ width: 160px; }}
</style></head><body>
<h1>cardroom screenshots</h1>
<p>{len(rows)} moments × {len(CAMERAS)} views; click a picture for its full size. Tables:
the screen as seen (no scrolling); other pages: the whole page (rules: the first screen).</p>
<table><thead><tr><th>moment</th>{heads}</tr></thead><tbody>
{chr(10).join(lines)}
</tbody></table></body></html>
""")


class Rig:
    """Four pages (each language at each size) showing the same thing: a table seen by the same
    seated person, or the same page."""

    def __init__(self, browser, server: Server, shots: Shots, seat_for: dict | None = None):
        self.server, self.shots = server, shots
        self.pages = {}
        for lang, size in CAMERAS:
            phone = size == "phone"
            ctx = browser.new_context(viewport=SIZES[size], locale=LANGS[lang],
                                      is_mobile=phone, has_touch=phone,
                                      reduced_motion="reduce")
            ctx.set_default_timeout(WAIT)
            ctx.add_init_script("window.CARDROOM_ANIM_MS = 0;")
            if seat_for:
                for code, seat in seat_for.items():
                    ctx.add_init_script(f"localStorage.setItem({json.dumps('cardroom.seat.' + code)}, "
                                        f"{json.dumps(json.dumps(seat))});")
            page = ctx.new_page()
            page.on("pageerror", lambda e, k=(lang, size): log(f"  script error on {k}: {e}"))
            self.pages[(lang, size)] = page

    @property
    def driver(self):
        return self.pages[CAMERAS[0]]

    def goto(self, path: str, ready: str | None = None) -> None:
        for page in self.pages.values():
            page.goto(self.server.http + path)
            if ready:
                page.wait_for_selector(ready, state="attached")

    def each(self, fn) -> None:
        for page in self.pages.values():
            fn(page)

    def shoot(self, part: str, moment: str, whole: bool = True) -> None:
        log(f"  {part} {moment}")
        for (lang, size), page in self.pages.items():
            page.mouse.move(0, 0)  # no card left raised under the pointer of an earlier click
            self.shots.take(page, lang, size, part, moment, whole)

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


class Table(Rig):
    """A rig at one table: the English desktop page acts for the person (its actions go over
    its own WebSocket); every page is brought to the same event before a shot."""

    def __init__(self, browser, server, shots, game: str, seats: list[str], options=None,
                 person: str = "Anna"):
        self.game = game
        self.code = server.room(game, seats, options)
        self.seat = server.join(self.code, person, 0)
        super().__init__(browser, server, shots, {self.code: self.seat})
        self.goto(f"/r/{self.code}", ".seat.me")
        self.sent = 0

    def state(self) -> dict:
        return self.driver.evaluate("window.cardroomTable.state")

    def moves(self) -> dict:
        m = self.state().get("match") or {}
        return m.get("moves") or {}

    def deal(self) -> dict:
        m = self.state().get("match") or {}
        return m.get("deal") or {}

    def send(self, message: dict) -> None:
        seq = self.driver.evaluate("window.cardroomTable.state.seq")
        self.driver.evaluate("(m) => window.cardroomTable.send(m)", message)
        self.driver.wait_for_function("(seq) => window.cardroomTable.state.seq !== seq", arg=seq)

    def act(self, action: dict) -> None:
        self.sent += 1
        self.send({"type": "action", "id": f"shot-{self.sent}", "action": action})

    def settle(self) -> str:
        """Wait until the person is to act, a deal's summary is on the table, or the match is
        over (bots play without delay); say which."""
        self.driver.wait_for_function("""() => { const s = window.cardroomTable.state;
            const m = s && s.match; if (!m) return false;
            return m.finished || (m.deal && m.deal.phase === 'over')
                   || Object.keys(m.moves || {}).length > 0; }""", timeout=60_000)
        m = self.state()["match"]
        if m["finished"]:
            return "finished"
        return "between" if m["deal"]["phase"] == "over" else "turn"

    def synced(self) -> None:
        seq = self.driver.evaluate("window.cardroomTable.state.seq")
        for page in self.pages.values():
            page.wait_for_function("(seq) => { const t = window.cardroomTable;"
                                   " return t && t.state && t.state.seq >= seq; }", arg=seq)
        self.each(lambda p: p.wait_for_timeout(50))  # one frame to draw

    def shoot(self, moment: str, whole: bool = False) -> None:
        self.synced()
        super().shoot(self.game, moment, whole)

    def click_all(self, selector: str) -> None:
        """The same click on every page (a choice that stays in the page, not sent)."""
        for page in self.pages.values():
            page.locator(selector).first.click()

    def next_deal(self) -> None:
        button = self.driver.locator("[data-testid=next-deal]")
        if button.count():
            seq = self.driver.evaluate("window.cardroomTable.state.seq")
            button.first.click()
            self.driver.wait_for_function("(seq) => window.cardroomTable.state.seq !== seq", arg=seq)
        else:
            self.send({"type": "next"})

    def play_first(self) -> None:
        self.act({"type": "play", "card": self.moves()["play"][0]})

    def last_trick(self, moment: str) -> None:
        """The trick just won, as the table shows it: the Last trick button, pressed and let go."""
        self.synced()
        if not self.deal().get("last_trick"):
            return
        press = "document.getElementById('toggle-last').click()"  # wherever the layout put it
        self.each(lambda p: p.evaluate(press))
        self.shoot(moment)
        self.each(lambda p: p.evaluate(press))

    def sheet(self, moment: str) -> None:
        """The score sheet opened (behind a button on a phone)."""
        self.synced()
        press = "document.getElementById('toggle-sheet').click()"
        phones = [page for (_, size), page in self.pages.items() if size == "phone"]
        for page in phones:
            page.evaluate(press)
        self.shoot(moment)
        for page in phones:
            page.evaluate(press)


def visitors(browser, server, shots, code: str, part: str, moment: str, ready: str) -> None:
    """Someone without a seat at the table: the join panel, or a spectator's view."""
    rig = Rig(browser, server, shots)
    rig.goto(f"/r/{code}", ready)
    rig.each(lambda p: p.wait_for_timeout(100))
    rig.shoot(part, moment, whole=False)
    rig.close()


# -- what is shot --------------------------------------------------------------------------------

def pages(browser, server, shots) -> None:
    log("pages")
    rig = Rig(browser, server, shots)
    rig.goto("/", "#seat-fields select")
    rig.shoot("pages", "01-lobby")

    def create(page):
        page.check("input[value=black_maria]")
        page.fill("#create-name", "Anna")
        page.check("#create-guest")  # a guest: four browsers, one name that nobody claims
        page.select_option("select[data-seat='1']", "bot:rules")
        page.click("#create-button")
        page.wait_for_selector("#created:not([hidden])")
    rig.each(create)
    rig.shoot("pages", "02-lobby-created")
    rig.goto("/history", "[data-testid=history-table]")
    rig.shoot("pages", "03-history")
    rig.goto("/matches/1", "#replay .seat")
    rig.shoot("pages", "04-match")

    def replay(page):
        for _ in range(80):
            if page.locator("#replay .trick .card").count() >= 2:
                break
            page.click("[data-testid=replay-next]")
        page.locator("#replay-section").scroll_into_view_if_needed()
    rig.each(replay)
    rig.shoot("pages", "05-replay", whole=False)
    rig.goto("/rules", ".rules")
    rig.shoot("pages", "06-rules", whole=False)
    rig.goto("/r/NOSUCH")
    rig.shoot("pages", "07-missing-table")
    rig.goto("/matches/999999")
    rig.shoot("pages", "08-missing-match")
    rig.close()


def black_maria(browser, server, shots) -> None:
    log("black_maria")
    t = Table(browser, server, shots, "black_maria", ["open", "open", "bot:rules"], {"target": 40})
    t.shoot("01-waiting")
    visitors(browser, server, shots, t.code, "black_maria", "01-waiting-visitor",
             "[data-testid=take-seat-1]")
    t.send({"type": "standin", "seat": 1, "bot": "rules"})  # the free seat to a bot: dealt
    assert t.settle() == "turn" and "pass" in t.moves()
    t.synced()
    chosen = t.moves()["pass"]["from"][:3]
    for card in chosen[:2]:
        t.click_all(f".hand-row .card[data-card='{card}']")
    t.shoot("02-pass")
    t.act({"type": "pass", "cards": chosen})
    t.settle()
    t.shoot("03-received")
    played = shot_play = shot_won = spectated = False
    while (state := t.settle()) != "finished":
        if state == "between":
            if not played:
                t.shoot("06-deal-end")
                t.sheet("06-deal-end-sheet")
                played = True
            t.next_deal()
            continue
        moves = t.moves()
        if "pass" in moves:
            t.act({"type": "pass", "cards": moves["pass"]["from"][:3]})
            continue
        deal = t.deal()
        if any(deal.get("tricks_won") or []) and deal.get("trick"):
            if not shot_play:
                t.shoot("04-play")
                shot_play = True
            elif not shot_won:
                t.last_trick("05-trick-won")
                shot_won = True
            if not spectated:
                visitors(browser, server, shots, t.code, "black_maria", "04-play-spectator",
                         ".seat[data-seat='0']")
                spectated = True
        t.play_first()
    t.shoot("07-match-end")
    t.sheet("07-match-end-sheet")
    t.close()


def marjolet(browser, server, shots) -> None:
    log("marjolet")
    t = Table(browser, server, shots, "marjolet", ["open", "bot:rules"])
    t.settle()
    t.shoot("01-start")
    seen: set[str] = set()
    while t.settle() != "between":
        moves, deal = t.moves(), t.deal()
        if "draw" in moves:
            if "window" not in seen:
                t.shoot("02-window")
                seen.add("window")
            if moves.get("declare") and "declare" not in seen:
                t.shoot("03-window-declare")
                seen.add("declare")
                t.act({"type": "declare", "cards": moves["declare"][0]})
                t.shoot("04-declared")
                continue
            if moves.get("exchange") and "exchange" not in seen:
                t.shoot("03-window-exchange")
                seen.add("exchange")
                t.act({"type": "exchange"})
                continue
            t.act({"type": "draw"})
            continue
        if deal.get("end_phase") and deal.get("trick") and "end" not in seen:
            t.shoot("05-end-phase")
            seen.add("end")
        if deal.get("trick") and not deal.get("end_phase") and "trick" not in seen:
            t.shoot("02-play")
            seen.add("trick")
        t.play_first()
    t.shoot("06-deal-end")
    t.sheet("06-deal-end-sheet")
    t.close()


def big_mariage(browser, server, shots) -> None:
    log("big_mariage")
    t = Table(browser, server, shots, "big_mariage",
              ["open", "bot:rules", "bot:rules", "bot:rules"])
    seen: set[str] = set()
    deals = 0
    while deals < 8:  # a trump call comes the person's way in some deals only
        state = t.settle()
        if state == "finished":
            break
        if state == "between":
            deals += 1
            if "declarer" in seen and "deal-end" not in seen:
                t.shoot("08-deal-end")
                t.sheet("08-deal-end-sheet")
                seen.add("deal-end")
            if "deal-end" in seen and "called" in seen:
                break
            t.next_deal()
            continue
        moves, deal = t.moves(), t.deal()
        if "bid" in moves or ("pass" in moves and deal.get("phase") == "bidding"):
            if "bid" not in seen:
                t.shoot("01-bidding")
                seen.add("bid")
            # a high bid, so that the bots let the person declare
            bids = [b for b in moves.get("bid") or [] if b >= 150]
            t.act({"type": "bid", "value": bids[0]} if bids else {"type": "pass"})
            continue
        if "give" in moves:
            seen.add("declarer")
            if "kitty" not in seen:
                t.shoot("02-kitty")
                seen.add("kitty")
            card = moves["give"]["cards"][0]
            if "give" not in seen:
                t.click_all(f".hand-row .card[data-card='{card}']")
                t.shoot("03-give")
                seen.add("give")
            t.act({"type": "give", "card": card, "to": moves["give"]["to"][0]})
            continue
        if "contract" in moves:
            if "contract" not in seen:
                t.shoot("04-contract")
                seen.add("contract")
            t.act({"type": "contract", "value": moves["contract"][0]})
            continue
        if moves.get("trump") and "called" not in seen:
            card = moves["trump"][0]
            t.click_all(f".hand-row .card[data-card='{card}']")
            t.shoot("05-trump-call")
            t.act({"type": "play", "card": card, "trump": True})
            t.settle()
            t.shoot("06-trumps-called")
            seen.add("called")
            continue
        if deal.get("trick") and "play" not in seen and "declarer" in seen:
            t.shoot("07-play")
            seen.add("play")
        t.play_first()
    if "called" not in seen:
        log("  no trump call came the person's way in these deals")
    t.close()


def main(argv: list[str]) -> int:
    out = Path(argv[1] if len(argv) > 1 else ROOT / "screenshots").resolve()
    parts = {f.__name__: f for f in (pages, black_maria, marjolet, big_mariage)}
    assert list(parts) == PARTS
    unknown = [name for name in argv[2:] if name not in parts]
    if unknown:
        log(f"no part {', '.join(unknown)}; the parts: {', '.join(parts)}")
        return 2
    chosen = [parts[name] for name in argv[2:]] or list(parts.values())
    if not Path(CHROMIUM).exists():
        log(f"{CHROMIUM} is missing (scripts/ensure-chromium.sh installs it)")
        return 1
    out.mkdir(parents=True, exist_ok=True)
    for part in chosen:  # this run's parts are shot afresh; others stay
        for old in out.glob(f"*-*-{part.__name__}-*.png"):
            old.unlink()
    workdir = Path(tempfile.mkdtemp(prefix="cardroom-shots-"))
    server = Server(workdir)
    shots = Shots(out)
    started = time.monotonic()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for part in chosen:
                try:
                    part(browser, server, shots)
                except (PlaywrightError, AssertionError, KeyError) as error:
                    here = [f for f in traceback.extract_tb(error.__traceback__)
                            if f.filename == __file__][-1]
                    log(f"  {part.__name__} stopped at line {here.lineno} ({here.line}): "
                        f"{type(error).__name__} {str(error).splitlines()[0] if str(error) else ''}")
                shots.index()
            browser.close()
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    log(f"{shots.count} screenshots in {time.monotonic() - started:.0f} s: {out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
