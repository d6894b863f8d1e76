"""The inline SVG charts (app/web/charts.py): their lines' labels."""

from __future__ import annotations

import re

from app.web.charts import LABEL_GAP, ZERO_ROOM, chart_svg


def labels(svg: str) -> list[tuple[str, float]]:
    """The lines' labels (coloured texts) and their heights."""
    return [(text, float(y)) for y, text in re.findall(r'<text x="[\d.]+" y="([\d.]+)" fill="#\w+">([^<]*)</text>', svg)]


def test_labels_of_lines_that_end_level_at_the_bottom_stay_apart_and_inside_the_chart():
    svg = chart_svg([[0, 0, 0, 0], [-5, -5, -5, -5]], ["Anna", "Boris", "Clara", "Dima"], "totals")
    height = float(re.search(r'viewBox="0 0 [\d.]+ ([\d.]+)"', svg).group(1))
    ys = sorted(y for _, y in labels(svg))
    assert len(ys) == 4
    assert all(b - a >= LABEL_GAP for a, b in zip(ys, ys[1:])), ys
    assert ys[-1] <= height - 4, ys


def test_labels_of_lines_that_end_level_stand_above_the_numbers_along_the_bottom():
    """Three lines ending at 0 and under it: their labels stay above the row of deals' numbers
    (the lowest had stood beside the last one, "2 Anna", as if it named the deal)."""
    svg = chart_svg([[0, 0, 0], [0, 40, 2], [0, 83, 4]], ["Anna", "Boris", "Vera"], "totals")
    numbers = [float(y) for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)" text-anchor="middle">', svg)]
    lowest = max(y for _, y in labels(svg))
    assert lowest <= min(numbers) - ZERO_ROOM, (lowest, numbers)


def test_a_long_label_is_cut_short_and_named_whole_in_the_title():
    name = "Anastasia Aleksandrovna Vronskaya"
    svg = chart_svg([[0, 0], [10, 20]], [name, "Boris"], "totals")
    shown = [text for text, _ in labels(svg)]
    assert shown[0].endswith("…") and len(shown[0]) < len(name) and shown[1] == "Boris"
    assert f"{name} 10" in re.search(r"<title>(.*)</title>", svg).group(1)


def numbers_along(svg: str) -> list[int]:
    return [int(n) for n in re.findall(r'<text x="[\d.]+" y="[\d.]+" text-anchor="middle">(\d+)</text>', svg)]


def test_the_numbers_along_the_bottom_are_few_enough_to_read():
    """A match of 23 deals is numbered every 5th and at its end (the numbers had run together:
    "9101112131415..."); a short one at every point."""
    rows = [[i, -i] for i in range(24)]  # (the start and 23 deals)
    assert numbers_along(chart_svg(rows, ["A", "B"], "totals")) == [0, 5, 10, 15, 20, 23]
    assert numbers_along(chart_svg(rows[:7], ["A", "B"], "totals")) == list(range(7))
    assert numbers_along(chart_svg(rows[:22], ["A", "B"], "totals")) == [0, 5, 10, 15, 20]
    assert len(numbers_along(chart_svg([[i] for i in range(300)], ["A"], "totals"))) <= 10


def test_the_lowest_figure_and_the_first_number_along_do_not_meet():
    """At the bottom left, "−1" (the lowest figure) and "0" (the first point) had overlapped on
    a phone, where a label is 22 units high."""
    svg = chart_svg([[0], [-1], [1]], ["A"], "balance")
    low = float(re.search(r'<text x="[\d.]+" y="([\d.]+)" text-anchor="end">\u22121</text>', svg).group(1))
    first = float(re.search(r'<text x="[\d.]+" y="([\d.]+)" text-anchor="middle">0</text>', svg).group(1))
    assert first - low >= 22


def figures_up(svg: str) -> list[str]:
    return re.findall(r'<text x="[\d.]+" y="[\d.]+" text-anchor="end">([^<]*)</text>', svg)


def test_figures_up_the_side_are_written_with_a_minus_and_the_zero_line_is_numbered_when_apart():
    """Big Mariage's totals go far below zero: the line both teams start on is numbered 0
    (it had been a line with no figure); a negative figure has the sheet's minus sign."""
    assert figures_up(chart_svg([[0, 0], [105, -400], [560, -1940]], ["A", "B"], "totals")) == ["560", "\u22121940", "0"]
    # (no 0 where it would touch the highest or lowest figure, nor where none is below it)
    assert figures_up(chart_svg([[0, 0], [1940, -10]], ["A", "B"], "totals")) == ["1940", "\u221210"]
    assert figures_up(chart_svg([[0], [3]], ["A"], "balance")) == ["3", "0"]


def test_a_players_game_has_points_at_its_own_matches_only():
    """Marjolet won, then Black Maria won: Black Maria's line has no point over the Marjolet
    match (a dot at 0 there had read as a Black Maria match), Marjolet's none over the other."""
    svg = chart_svg([[0, 0], [1, 0], [1, 1]], ["Marjolet", "Black Maria"], "won less lost", movers=[0, 1])
    dots = re.findall(r'<circle cx="([\d.]+)" cy="[\d.]+" r="3.5" fill="(#\w+)"/>', svg)
    by_line = {}
    for x, colour in dots:
        by_line.setdefault(colour, []).append(float(x))
    (marjolet, start, first), (black_maria, _, second) = [(c, *xs) for c, xs in by_line.items()]
    assert [len(xs) for xs in by_line.values()] == [2, 2], by_line  # (the start, its own match)
    assert start < first < second, by_line


def test_a_matchs_target_is_a_dashed_line_where_the_totals_reach_it():
    """The running totals race to the target: it is drawn, and named, where the lines reach it;
    a match that stopped short of it draws none (the chart would only be squeezed for it)."""
    rows = [[0, 0], [120, 40], [210, 90]]
    svg = chart_svg(rows, ["Anna & Vera", "Boris & Gleb"], "totals", target=(200, "target 200"))
    line = re.search(r'<line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="([\d.]+)" class="target"/>', svg)
    zero = re.search(r'<line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="[\d.]+" class="axis"/>', svg)
    assert line and line.group(1) == line.group(2), svg
    assert float(line.group(1)) < float(zero.group(1))  # (above the zero line: 200 of 210)
    assert ">target 200</text>" in svg
    short = chart_svg([[0, 0], [120, 40]], ["A", "B"], "totals", target=(200, "target 200"))
    assert 'class="target"' not in short
