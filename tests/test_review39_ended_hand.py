"""review39: a match that ended with no result (cancelled, abandoned) no longer shows a seat
to act on a player's hand panel either. Its table says so since review34, but the panel under
it (the DM panel, which with the channel lost carries that very table) still opened with
"Your turn: draw from the stock or take the top discard." or "Waiting for ben.", above "This
match was abandoned": nobody plays on."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.showing import ENDED, Look, dm_panel_of
from tests.loopback.driver import until
from tests.test_fair_abandoned import a_match_mid_hand
from umtali.i18n import tr_for
from umtali.rules import RuleSet
from umtali.session import Session


def _ended(how: str, channel_lost: bool) -> LiveMatch:
    return LiveMatch(
        id=7, guild_id=1, channel_id=2, table_message_id=3, player_ids=(10, 11),
        names=("ada", "ben"), turn_timer=0, session=Session(RuleSet.russian(), 5),
        deadline=None, warned=False, dm_channel_ids=[None, None], dm_message_ids=[None, None],
        dm_refused=[False, True], pending=[], channel_lost=channel_lost, abandoned=True,
        ended=how)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("how", ["cancelled", "abandoned"])
@pytest.mark.parametrize("channel_lost", [False, True])
def test_an_ended_matchs_hand_panel_shows_nobody_to_play(
        lang: str, how: str, channel_lost: bool) -> None:
    tr = tr_for(lang)
    for seat in (0, 1):
        live = _ended(how, channel_lost)
        assert live.session.view(seat).winner < 0  # its session never finished
        shown = dm_panel_of(live, seat, look=Look(tr=tr), table_look=Look(tr=tr))
        hand = shown.embeds[-1]
        first = (hand.description or "").splitlines()[0]
        assert first == tr(ENDED[how]), (seat, hand.description)
        for playing in (tr("Your turn: draw from the stock or take the top discard."),
                        tr("Waiting for {name}.", name="ben"),
                        tr("Waiting for {name}.", name="ada")):
            assert playing not in (hand.description or ""), (seat, hand.description)


async def test_a_cancelled_matchs_dm_panels_show_nobody_to_play(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Over the loopback Discord: the panels in the players' DMs, redrawn at the end."""
    async with a_match_mid_hand(monkeypatch, tmp_path) as mid:
        server, svc, (alice, bob) = mid.server, mid.svc, mid.members
        assert await svc.abandon(mid.live, "cancelled")
        await svc.flush()
        for member in (alice, bob):
            def panel(user: int = member) -> str:
                descriptions = [e.get("description") or "" for m in server.dm_messages(user)
                                for e in m.get("embeds") or []
                                if "Your hand" in (e.get("title") or "")]
                return descriptions[-1] if descriptions else ""
            await until(lambda: "cancelled" in panel(), "the panel redrawn as cancelled")
            assert panel().splitlines()[0] == "Match cancelled: no result", panel()
