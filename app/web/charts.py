"""Charts drawn on the server as inline SVG: a match's scores deal by deal, a player's results
match by match."""

from __future__ import annotations

from markupsafe import Markup

from engine import GAMES

from .i18n import figure


def cumulative(detail: dict) -> list[list[int]]:
    width = GAMES[detail["game"]].score_width
    totals, rows = [0] * width, [[0] * width]
    for deal in detail["deal_list"]:
        if not deal["over"]:
            continue
        totals = [a + b for a, b in zip(totals, deal["scores"] or [0] * width)]
        rows.append(list(totals))
    return rows


def balance(timeline: list[dict], games: list[str]) -> list[list[int]]:
    """A player's matches won less matches lost so far, per game, after each of their
    finished matches in order (``timeline`` of the player page)."""
    totals, rows = [0] * len(games), [[0] * len(games)]
    for entry in timeline:
        totals[games.index(entry["game"])] += 1 if entry["won"] else -1
        rows.append(list(totals))
    return rows


#: Least height between two lines' labels at the chart's right edge (their text is 22 units
#: high on a phone: cardroom.css).
LABEL_GAP = 28


def _apart(ys: list[float], gap: float, lowest: float) -> list[float]:
    """The labels' heights, moved down where they would overlap (lines that end level), and all
    moved up as much as the last went below ``lowest``."""
    placed = list(ys)
    last = None
    for i in sorted(range(len(ys)), key=lambda i: ys[i]):
        if last is not None and placed[i] < last + gap:
            placed[i] = last + gap
        last = placed[i]
    below = max(0.0, max(placed, default=0.0) - lowest)
    return [y - below for y in placed]


#: The lines' labels at the right edge take about this much of the chart's width a letter at a
#: phone's size (cardroom.css: 22 units high there), and a label of more letters than
#: LABEL_LETTERS is cut short (the chart's title names it whole).
LETTER_WIDTH, LABEL_LETTERS = 15.5, 20


#: The room the figure 0 needs from the highest and the lowest beside it: a label's height at a
#: phone's size (cardroom.css).
ZERO_ROOM = 22

#: The most numbers along the bottom: each takes about 40 units at a phone's size, and 23
#: deals' had run together ("9101112131415...").
TICKS = 10


def _ticks(count: int) -> list[int]:
    """The points numbered along the bottom: every 1st, 2nd, 5th, 10th... whichever keeps them
    to :data:`TICKS`, and the last one unless it would touch the one before."""
    step = next(s for m in (1, 10, 100, 1000, 10**9) for s in (m, 2 * m, 5 * m)
                if (count - 1) // s + 1 <= TICKS)
    ticks = list(range(0, count, step))
    if ticks[-1] != count - 1 and (count - 1 - ticks[-1]) * 2 >= step:
        ticks.append(count - 1)
    return ticks


def _short(label: str) -> str:
    return label if len(label) <= LABEL_LETTERS else label[:LABEL_LETTERS - 1] + "…"


#: The lines' colours, by their place: a seat's or a team's (static/js/analysis.js has them too).
COLOURS = ["#f2c14e", "#5ab1ef", "#f78154", "#9bd26a"]
#: A game's colour wherever it is drawn, by its place among all the games (taken from its place
#: on a player's page, Black Maria's had been blue on one player's page and gold on another's).
GAME_COLOURS = {game: COLOURS[i % len(COLOURS)] for i, game in enumerate(GAMES)}


def chart_svg(rows: list[list[int]], labels: list[str], title: str,
              movers: list[int] | None = None, target: tuple[int, str] | None = None,
              colours: list[str] | None = None) -> Markup:
    """Cumulative figures as an inline SVG line chart (one line per seat, team or game), named
    for screen readers by ``title`` and each line's final figure. ``movers``: for each row after
    the first, the one line it is a point of (a player's match, of one game), where the others
    only go on; by default every line has a point at every row. ``target``: a match's target
    and its label, drawn as a dashed line where the lines reach it. ``colours``: each line's,
    by default :data:`COLOURS` in turn."""
    lines = len(rows[0]) if rows else 0
    names = [labels[s] if s < len(labels) else str(s) for s in range(lines)]
    shown = [_short(name) for name in names]
    width, height, pad = 760, 260, 40
    right = max(160, round(12 + LETTER_WIDTH * max(map(len, shown), default=0)))
    left = 70  # room for "−1940" at the larger size of a phone (cardroom.css)
    values = [v for r in rows for v in r] or [0]
    low, high = min(0, min(values)), max(1, max(values))
    n = max(1, len(rows) - 1)

    def x(i):
        return left + (width - left - right) * i / n

    def y(v):
        return height - pad - (height - 2 * pad) * (v - low) / (high - low)

    colours = colours or [COLOURS[s % len(COLOURS)] for s in range(lines)]
    finals = ", ".join(f"{name} {figure(v)}" for name, v in zip(names, rows[-1] if rows else []))
    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
             f'xmlns="http://www.w3.org/2000/svg">',
             f'<title>{Markup.escape(title)}: {Markup.escape(finals)}</title>',
             f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" '
             f'class="axis"/>',
             f'<line x1="{left}" y1="{pad}" x2="{left}" y2="{height - pad}" class="axis"/>',
             f'<text x="{left - 6}" y="{y(high) + 4:.1f}" text-anchor="end">{figure(high)}</text>',
             f'<text x="{left - 6}" y="{y(low) + 4:.1f}" text-anchor="end">{figure(low)}</text>']
    if target is not None and low <= target[0] <= high:  # (what the lines race to, or away from)
        at = y(target[0])
        parts.append(f'<line x1="{left}" y1="{at:.1f}" x2="{width - right}" y2="{at:.1f}" '
                     f'class="target"/>')
        parts.append(f'<text x="{left + 6}" y="{at - 6:.1f}" class="target">'
                     f'{Markup.escape(target[1])}</text>')
    if low < 0 and min(y(low) - y(0), y(0) - y(high)) >= ZERO_ROOM:  # (the line the lines start on)
        parts.append(f'<text x="{left - 6}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>')
    for i in _ticks(len(rows)) if rows else []:  # (under the lowest figure's label on a phone)
        parts.append(f'<text x="{x(i):.1f}" y="{height - pad + 26}" '
                     f'text-anchor="middle">{i}</text>')
    # (no lower than the lowest line: under it a label had stood beside the last deal's number,
    # "2 Anna", as if it named the deal)
    label_ys = _apart([y(v) for v in rows[-1]] if rows else [], LABEL_GAP, height - pad)
    for s in range(lines):
        points = " ".join(f"{x(i):.1f},{y(r[s]):.1f}" for i, r in enumerate(rows))
        colour = colours[s]
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="3" '
                     f'points="{points}"/>')
        for i, r in enumerate(rows):
            # (a game's point only at its own matches: Black Maria's had stood on a Marjolet match)
            if i and movers is not None and movers[i - 1] != s:
                continue
            parts.append(f'<circle cx="{x(i):.1f}" cy="{y(r[s]):.1f}" r="3.5" '
                         f'fill="{colour}"/>')
        parts.append(f'<text x="{width - right + 6}" y="{label_ys[s] + 4:.1f}" '
                     f'fill="{colour}">{Markup.escape(shown[s])}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
