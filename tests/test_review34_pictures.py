"""review34: the table of a match that ended with no result (cancelled part-way) shows nobody
to act, in its picture as in its text: before, its session never having finished, it kept
"ben to draw" with his band lit, and a footer asking to press a My hand button it no longer
had."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from cogs.umtali.live import LiveMatch
from cogs.umtali.pictures import TABLE_FILE, draw_table_png
from cogs.umtali.pictures.table import FELT_LIT, WIDTH
from cogs.umtali.showing import Look, table_of
from tests.loopback.driver import custom_ids, until
from tests.test_fair_abandoned import a_match_mid_hand
from umtali.i18n import tr_for
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import SPECTATOR


def _lit_rows(png: bytes) -> int:
    """Rows lit across the picture's right margin: the centre's two rules (2 pixels each),
    and the band of a seat to act (50) when there is one."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(img.getpixel((WIDTH - 3, y)) == FELT_LIT for y in range(img.height))


async def test_a_cancelled_matchs_table_shows_nobody_to_play(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with a_match_mid_hand(monkeypatch, tmp_path) as mid:
        server, svc, saved, live = mid.server, mid.svc, mid.saved, mid.live
        names = live.names
        playing = draw_table_png(live.session.view(SPECTATOR), names)
        assert _lit_rows(playing) > 40  # (the test can tell a seat to act)
        assert await svc.abandon(live, "cancelled")
        await svc.flush()
        table = server.messages[saved.table_message_id or 0]
        await until(lambda: not custom_ids(table), "the table's buttons gone")
        [embed] = table["embeds"]
        assert "to draw" not in embed["description"], embed["description"]
        assert "cancelled" in embed["description"], embed["description"]
        assert "My hand" not in embed["footer"]["text"]
        png = server.attachment(table, TABLE_FILE)
        assert png is not None and png != playing
        assert _lit_rows(png) == 4  # nobody's band lit


@pytest.mark.parametrize("lang, said", [("en", "Match abandoned: no result"),
                                        ("ru", "Матч прерван: без результата")])
def test_an_abandoned_matchs_table_in_a_dm_panel_shows_nobody_to_play(
        lang: str, said: str) -> None:
    """With its channel lost, a DM panel carries the table: abandoned, it too is over."""
    live = LiveMatch(
        id=7, guild_id=1, channel_id=2, table_message_id=3, player_ids=(10, 11),
        names=("ada", "ben"), turn_timer=0, session=Session(RuleSet.russian(), 5),
        deadline=None, warned=False, dm_channel_ids=[None, None], dm_message_ids=[None, None],
        dm_refused=[False, True], pending=[], channel_lost=True, abandoned=True,
        ended="abandoned")
    shown = table_of(live, look=Look(tr=tr_for(lang)))
    assert (shown.embed.description or "").splitlines()[1] == said
    [file] = shown.files
    png = file.fp.read()
    assert _lit_rows(png) == 4
    assert png == draw_table_png(live.session.view(SPECTATOR), live.names, tr=tr_for(lang),
                                 ended=said)
