"""The replay's buttons under a thumb: stepping through a whole match from "Watch the replay",
▶ stays where it was tapped, whatever the felt shows at each step."""

from __future__ import annotations

import pytest

from .conftest import demo_match, shot
from .test_phone import TOUCH
from .test_table_life import SMALL_LANDSCAPE
from .test_tables import healthy

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 640}

#: Every step of the replay, ▶ clicked where it stands, taken in one go: the steps at which it
#: moved on the screen by more than a pixel (where it was, where it went), and the last step reached.
STEP_THROUGH = """() => {
  const next = document.getElementById('rp-next'), steps = Number(document.getElementById('rp-slider').max);
  const at = () => { const r = next.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top)]; };
  const moves = [];
  let was = at();
  for (let step = 1; step <= steps && moves.length < 5; step++) {
    next.click();
    const now = at();
    if (Math.abs(now[0] - was[0]) > 1 || Math.abs(now[1] - was[1]) > 1)
      moves.push(document.getElementById('rp-where').textContent + ': ' + was + ' -> ' + now);
    was = now;
  }
  return [moves, document.getElementById('rp-slider').value === String(steps)]; }"""


@pytest.mark.parametrize("game, size, touch", [
    ("marjolet", SMALL_PHONE, TOUCH), ("black_maria", SMALL_PHONE, TOUCH), ("big_mariage", SMALL_PHONE, TOUCH),
    ("big_mariage", {"width": 390, "height": 844}, TOUCH), ("black_maria", SMALL_LANDSCAPE, TOUCH),
    ("marjolet", {"width": 1280, "height": 860}, {})],
    ids=["marjolet-360", "black_maria-360", "big_mariage-360", "big_mariage-390", "black_maria-sideways", "marjolet-laptop"])
def test_the_replays_step_button_stays_under_the_thumb(live, new_page, game, size, touch):
    """Tapping "Watch the replay", then ▶ again and again at the same spot, steps through the
    whole match: ▶ never moves on the screen. The page had been at its foot, the replay's bar
    short of the screen's top, and whenever the felt grew (cards shown, the analysis's line) the
    page scrolled it back into sight, taking the buttons up: at 360×640 in Marjolet by 18 pixels,
    then by 42 as a player declared four kings, and the next taps landed on the line under ▶.
    Also on a taller phone, held sideways and on a laptop."""
    page = new_page(size, **touch)
    page.goto(f"{live.http}/matches/{demo_match(live, game)['id']}")
    page.wait_for_selector("#replay .seat")
    to_replay = page.get_by_test_id("to-replay")
    to_replay.tap() if touch else to_replay.click()
    page.wait_for_function("document.getElementById('rp-next').getBoundingClientRect().bottom < innerHeight")  # (gone to it)
    step = page.get_by_test_id("replay-next").bounding_box()
    moves, at_the_end = page.evaluate(STEP_THROUGH)
    assert moves == []
    assert at_the_end
    # (and a tap where ▶ first was still steps: back at the first step, then one on)
    page.locator("#rp-slider").evaluate("(s) => { s.value = '0'; s.dispatchEvent(new Event('input')); }")
    x, y = step["x"] + step["width"] / 2, step["y"] + step["height"] / 2
    page.touchscreen.tap(x, y) if touch else page.mouse.click(x, y)
    assert page.locator("#rp-slider").input_value() == "1"
    shot(page, f"replay-buttons-still-{game}-{size['width']}")
    healthy(page)
