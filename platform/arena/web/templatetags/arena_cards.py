"""`{% card "AS" %}`, `{{ "AS"|card }}`, `{% hand codes %}` and `{% suit "H" %}`:
cards drawn as cards, with suit symbols in red and black."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from arena.web.cards import UnknownCardError, card_face, suit_symbol

register = template.Library()

SIZES = frozenset({"", "small", "large"})


@register.simple_tag(name="card")
def card_tag(code: str, size: str = "") -> SafeString:
    try:
        face = card_face(str(code))
    except UnknownCardError:
        # Never let a bad code break a page; show it as text instead.
        return format_html('<span class="card-code">{}</span>', code)
    classes = ["card"]
    if face.red:
        classes.append("card--red")
    if face.is_joker:
        classes.append("card--joker")
    if size in SIZES and size:
        classes.append(f"card--{size}")
    corner = format_html("{}<span>{}</span>", face.label, face.symbol)
    pip = "JOKER" if face.is_joker else face.symbol
    return format_html(
        '<span class="{}" role="img" aria-label="{}" data-code="{}" title="{}">'
        '<span class="card__corner" aria-hidden="true">{}</span>'
        '<span class="card__pip" aria-hidden="true">{}</span>'
        '<span class="card__corner card__corner--bottom" aria-hidden="true">{}</span>'
        "</span>",
        " ".join(classes),
        face.name,
        face.code,
        face.name,
        corner,
        pip,
        corner,
    )


@register.filter(name="card")
def card_filter(code: str, size: str = "") -> SafeString:
    return card_tag(code, size)


@register.simple_tag(name="hand")
def hand_tag(codes: Iterable[str], size: str = "small") -> SafeString:
    cards = format_html_join("", "{}", ((card_tag(code, size),) for code in codes))
    return format_html('<span class="hand">{}</span>', cards)


@register.simple_tag(name="suit")
def suit_tag(suit: str) -> SafeString:
    try:
        symbol, red = suit_symbol(str(suit))
    except UnknownCardError:
        return format_html("{}", suit)
    return format_html(
        '<span class="suit-chip{}" aria-label="{}">{}</span>',
        " suit-chip--red" if red else "",
        {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[suit],
        symbol,
    )
