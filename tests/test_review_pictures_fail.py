"""A picture that cannot be drawn (Pillow failing, the font package broken): the match goes on
with its text alone, every message still brought up to date, and no ERROR logged."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from cogs.umtali import showing
from cogs.umtali.pictures import HAND_FILE, TABLE_FILE
from tests.discord_helpers import World, dm_panel, flush, play, start_match, thread_of
from umtali.players import GreedyPlayer


def _broken(*args: Any, **kwargs: Any) -> bytes:
    raise OSError("cannot open resource")


async def test_a_picture_that_fails_to_draw_leaves_the_text_and_loses_no_move(
        world: World, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world)
    await flush(world)
    monkeypatch.setattr(showing, "table_png", _broken)
    monkeypatch.setattr(showing, "hand_png", _broken)
    with caplog.at_level(logging.INFO):
        for _ in range(4):
            seat = live.session.to_act
            await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
            await flush(world)
    table = next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)
    stock = next(f for f in table.embeds[0].fields if f.name == "Stock")
    assert stock.value == f"{live.session.view(0).stock_size} cards", "the table's text is new"
    assert TABLE_FILE not in [a.filename for a in table.attachments]
    assert table.embeds[0].image.url is None, "no embed pointing at a picture not there"
    for seat, actor in enumerate((world.alice, world.bob)):
        panel = dm_panel(actor, live, seat)
        assert HAND_FILE not in [a.filename for a in panel.attachments]
        assert panel.embeds[0].image.url is None
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [
        r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r for r in caplog.records if r.levelno == logging.WARNING and
            "picture" in r.getMessage()], "said once, as a warning"
