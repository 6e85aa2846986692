"""A panel telling its player the match's channel was lost is known as such in any language
the bot speaks (a notice taken by another process as the seat's panel: ``actions._on_its_way``;
the player's language may have changed since it was sent)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from cogs.umtali.in_dms import BEFORE, CHANNEL_LOST, channel_lost, tells_lost
from cogs.umtali.mentions import command
from umtali.i18n import tr_for


def _panel(description: str, content: str = "") -> Any:
    return SimpleNamespace(content=content, embeds=[SimpleNamespace(description=description)])


def test_a_notice_is_known_in_every_language() -> None:
    ru = channel_lost(tr_for("ru"))
    assert ru != CHANNEL_LOST
    assert tells_lost(_panel(f"{ru}\n\nYour hand"))
    assert tells_lost(_panel(f"{CHANNEL_LOST}\n\nYour hand"))
    assert tells_lost(_panel("", content=CHANNEL_LOST))


def test_a_panel_saying_anything_else_is_no_notice() -> None:
    assert not tells_lost(_panel("Your turn: draw from the stock or take the top discard."))
    assert not tells_lost(_panel(channel_lost(tr_for("ru"))[:40]))


def test_the_notice_as_sent_before_fix180_is_still_recognised() -> None:
    """fix180 added that the match goes back by itself: panels sent before say it otherwise."""
    for lang in ("en", "ru"):
        tr = tr_for(lang)
        old = tr(BEFORE, command=command(tr, "umtali", "table"))
        assert old != channel_lost(tr) and tells_lost(_panel(f"{old}\n\nYour hand")), lang
    assert "by itself" in CHANNEL_LOST
