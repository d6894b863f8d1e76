"""The inline SVG charts (app/web/charts.py): their lines' labels."""

from __future__ import annotations

import re

from app.web.charts import LABEL_GAP, chart_svg


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


def test_a_long_label_is_cut_short_and_named_whole_in_the_title():
    name = "Anastasia Aleksandrovna Vronskaya"
    svg = chart_svg([[0, 0], [10, 20]], [name, "Boris"], "totals")
    shown = [text for text, _ in labels(svg)]
    assert shown[0].endswith("…") and len(shown[0]) < len(name) and shown[1] == "Boris"
    assert f"{name} 10" in re.search(r"<title>(.*)</title>", svg).group(1)
