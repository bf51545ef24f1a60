"""`{{ moment|ago }}`: "just now" for the last minute, else "3 minutes ago"."""

from __future__ import annotations

import datetime as dt

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

register = template.Library()

JUST_NOW = dt.timedelta(minutes=1)


@register.filter
def ago(moment: dt.datetime | None) -> str:
    # Django's timesince counts in whole minutes: under one it says "0 minutes".
    # A moment slightly ahead of this clock (another server's) is "just now" too.
    if moment is None:
        return ""
    if timezone.now() - moment < JUST_NOW:
        return "just now"
    return f"{timesince(moment)} ago"
