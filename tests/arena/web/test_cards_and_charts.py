"""Cards drawn as cards, and the inline SVG charts."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template import Context, Template

from arena.web.cards import UnknownCardError, card_face
from arena.web.charts import history_chart, sparkline_points


def render(source: str, **context) -> str:
    return Template("{% load arena_cards arena_charts %}" + source).render(Context(context))


def test_card_faces():
    assert card_face("TH").label == "10"
    assert card_face("TH").symbol == "♥"
    assert card_face("TH").red
    assert not card_face("AS").red
    assert card_face("AS").name == "Ace of spades"
    assert card_face("CJ").red
    assert not card_face("BJ").red
    assert card_face("BJ").is_joker
    with pytest.raises(UnknownCardError):
        card_face("1X")


def test_card_tag_draws_a_red_card_with_its_name():
    html = render('{% card "QD" %}')
    assert 'class="card card--red"' in html
    assert 'aria-label="Queen of diamonds"' in html
    assert 'data-code="QD"' in html
    assert "♦" in html


def test_card_tag_escapes_what_is_not_a_card():
    html = render("{% card code %}", code="<script>")
    assert "<script>" not in html
    assert "&lt;script&gt;" in html


def test_hand_and_suit_tags():
    html = render("{% hand codes %}{% suit 'S' %}", codes=["7C", "BJ"])
    assert html.count("data-code=") == 2
    assert "card--joker" in html
    assert 'aria-label="spades"' in html


def point(before, after, number, changed):
    return SimpleNamespace(
        before=before, after=after, version_number=number, version_changed=changed
    )


def test_history_chart_marks_version_changes():
    points = [
        point(1500, 1516, 1, True),
        point(1516, 1530, 1, False),
        point(1530, 1490, 2, True),
        point(1490, 1510, 2, False),
    ]
    chart = history_chart(points)
    assert chart is not None
    assert [mark.label for mark in chart.marks] == ["v1", "v2"]
    xs = [float(pair.split(",")[0]) for pair in chart.points.split()]
    assert len(xs) == 5  # the starting rating and one point per game
    assert xs == sorted(xs)
    assert chart.marks[0].x == pytest.approx(xs[0], abs=0.1)
    assert chart.marks[1].x == pytest.approx(xs[2], abs=0.1)
    ys = [float(pair.split(",")[1]) for pair in chart.points.split()]
    # Higher Elo is drawn higher (smaller y).
    assert ys[2] < ys[3]
    assert "1490" in chart.description
    assert "1530" in chart.description
    assert history_chart([]) is None


def test_sparkline():
    assert sparkline_points([1500]) == ""
    points = sparkline_points([1500, 1520, 1510], width=96, height=24)
    assert points.split()[0] == "0.0,23.0"
    assert points.split()[1] == "48.0,1.0"
    html = render("{% sparkline values %}", values=[1500.0, 1480.0])
    assert "sparkline--down" in html
    assert "<polyline" in html
