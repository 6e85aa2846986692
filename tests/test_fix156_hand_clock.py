"""A player's hand panel, the one they play from, says on their own turn when it ends, by the
deadline the table shows (Discord counts it down), and their reserve when the match has a time
control; on the opponent's turn only whose turn it is. Before, the panel never showed the
clock: a player with pictures off, or on a phone, had to go and find the table. SimCord, the
real discord.py path: the table's My hand button and the DM panel."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.umtali import hand_panels
from cogs.umtali.clock_state import LATE
from cogs.umtali.showing import Look, hand_of
from tests.discord_helpers import World, dm_panel, flush, player, start_match, table_message
from umtali.i18n import tr_for


def _text(message: Any) -> str:
    """A message's or an embed's description."""
    embeds = [message] if isinstance(message, discord.Embed) else message.embeds
    return "\n".join(e.description or "" for e in embeds)


@pytest.mark.parametrize(("lang", "ends", "reserve"), [
    ("en", "Your turn ends {when}.", "Your reserve: 2 minutes."),
    ("ru", "Ваш ход закончится {when}.", "Ваш запас: 2 минуты."),
])
async def test_the_hand_panel_tells_its_player_when_their_turn_ends(
        world: World, lang: str, ends: str, reserve: str) -> None:
    live = await start_match(world, time_control="blitz")
    assert live.deadline is not None
    seat = live.session.to_act
    stamp = f"<t:{int(live.deadline)}:R>"
    table = await table_message(world, live)
    assert stamp in _text(table)
    tr = tr_for(lang)
    # The seat's own panels, in the language it reads in.
    mine = _text(hand_of(live, seat, look=Look(tr, pictures=False)).embed)
    assert ends.format(when=stamp) in mine, mine
    assert reserve in mine, mine
    theirs = _text(hand_of(live, 1 - seat, look=Look(tr, pictures=False)).embed)
    assert stamp not in theirs and reserve not in theirs, theirs
    # Through Discord: the table's My hand button, and the DM panel.
    if lang == "en":
        panel = await player(world, seat).click(table, custom_id=f"umtali:m:{live.id}:hand")
        assert panel.ephemeral
        said = _text(panel.response)
        assert ends.format(when=stamp) in said and reserve in said, said
        dm = _text(dm_panel(player(world, seat), live, seat))
        assert ends.format(when=stamp) in dm, dm
        other = await player(world, 1 - seat).click(table,
                                                    custom_id=f"umtali:m:{live.id}:hand")
        assert stamp not in _text(other.response), _text(other.response)


async def test_a_running_reserve_is_said_without_a_stale_figure(world: World) -> None:
    live = await start_match(world, time_control="blitz")
    assert live.deadline is not None
    seat = live.session.to_act
    live.reserve_running = live.deadline
    mine = _text(hand_of(live, seat, look=Look(tr_for("en"), pictures=False)).embed)
    assert "your reserve is running until the turn ends" in mine, mine
    assert "Your reserve: " not in mine, mine


async def test_no_clock_no_line(world: World) -> None:
    live = await start_match(world)
    seat = live.session.to_act
    mine = _text(hand_of(live, seat, look=Look(tr_for("en"), pictures=False)).embed)
    assert ("Your turn ends" in mine) == (live.deadline is not None), mine
    assert "reserve" not in mine, mine


async def test_the_dm_panel_follows_the_clock_when_the_reserve_starts_to_run(
        world: World) -> None:
    """The turn's own time runs out: the table says the reserve runs, and so does the DM
    panel of the player to act (it said "Your reserve: 2 min.", a figure then going stale)."""
    live = await start_match(world, time_control="blitz")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    seat = live.session.to_act
    actor = player(world, seat)
    assert "Your reserve: 2 minutes." in _text(dm_panel(actor, live, seat))
    own_end = live.deadline - live.reserves[seat]
    world.clock.now = own_end + LATE + 1
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert live.reserve_running == live.deadline and not live.over
    assert "reserve is running" in _text(await table_message(world, live))
    said = _text(dm_panel(actor, live, seat))
    assert "your reserve is running until the turn ends" in said, said
    assert f"<t:{int(live.deadline)}:R>" in said, said


async def test_the_panel_and_the_table_say_the_deadline_the_clock_judges_by(
        world: World) -> None:
    """Time owed to the turn and not saved yet (a give-back whose save failed): the clock
    judges the turn by its deadline plus that time (``judged.judged_deadline``); the hand
    panel and the table say that one, not the deadline in memory, which would tell the player
    to hurry for nothing."""
    live = await start_match(world, time_control="blitz")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    seat = live.session.to_act
    svc.clock_state.owed[live.id] = (live.deadline, 40.0)
    judged = f"<t:{int(live.deadline + 40)}:R>"
    mine = _text(svc.hand_shown(live, seat).embed)
    assert f"Your turn ends {judged}." in mine, mine
    assert judged in _text(svc.table_message(live).embed)
    assert judged in _text(svc.dm_panel(live, seat).embed)


async def test_an_open_my_hand_panel_follows_the_clock_too(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """review156: the ephemeral panel of **My hand** kept "Your reserve: 2 min." and the turn's
    own end once the reserve ran: nothing moved, so nothing redrew it. Now a panel is kept
    with the clock it shows, and drawn again when the clock changes without a move."""
    # (SimCord's virtual loop clock runs on by hours as the timers settle: past the panel's
    # 15-minute token, which is not what this is about.)
    monkeypatch.setattr(hand_panels, "TOKEN_LIFE", 10.0**9)
    live = await start_match(world, time_control="blitz")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    seat = live.session.to_act
    actor = player(world, seat)
    table = await table_message(world, live)
    panel = await actor.click(table, custom_id=f"umtali:m:{live.id}:hand")
    assert panel.ephemeral and "Your reserve: 2 minutes." in _text(panel.response)
    world.clock.now = live.deadline - live.reserves[seat] + LATE + 1
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert live.reserve_running == live.deadline and not live.over
    said = _text(panel.response)
    assert "your reserve is running until the turn ends" in said, said
    assert f"<t:{int(live.deadline)}:R>" in said, said
