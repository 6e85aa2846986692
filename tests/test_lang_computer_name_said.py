"""The practice computer's name in every sentence a Russian member reads, not only on panels
and in stats (``test_lang_computer_name.py``): the resignation's answer, the refusal of a move
made in the computer's turn, the DM telling of the bot's removal from the server. Each used
the name stored in the server's language: "Вы сдались: Computer (easy) побеждает"."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.time_control import HOUR
from tests.discord_helpers import World, flush, start_practice
from tests.test_practice_correspondence import _humans_turn
from umtali.i18n import tr_for
from umtali.players import GreedyPlayer

# The computer thinks in real worker processes on a loaded machine.
pytestmark = pytest.mark.simcord(settle_timeout=30)

RUSSIAN = "Компьютер (средний)"


def _said(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


async def _russian_practice(world: World, locales: dict[int, str]) -> tuple[LiveMatch, int]:
    locales[world.alice.id] = "ru"
    live = await start_practice(world)
    assert live.names[live.computer_seat or 0] == "Computer (normal)"  # the server's language
    return live, live.player_ids.index(world.alice.id)


async def test_a_russian_members_resignation_names_the_computer_in_russian(
        world: World, locales: dict[int, str]) -> None:
    live, _ = await _russian_practice(world, locales)
    ask = await world.alice.slash(world.channel, "umtali resign")
    done = await world.alice.click(ask.response,
                                   custom_id=f"umtali:m:{live.id}:{live.version}:resign")
    await flush(world)
    assert live.over
    said = _said(done) + "".join(str(m.content) for m in done.followups)
    assert RUSSIAN in said and "Computer" not in said, said


async def test_a_move_in_the_computers_turn_is_refused_with_its_name_in_russian(
        world: World, locales: dict[int, str]) -> None:
    live, seat = await _russian_practice(world, locales)
    svc = world.bot.matches
    assert svc is not None and live.session.to_act == seat
    # The player's turn ends; before the computer moves, the player tries again.
    while live.session.to_act == seat:
        move = GreedyPlayer().choose(live.session.view(seat))
        assert (await svc.act(live, world.alice.id, move, None)).ok
    refused = await svc.act(live, world.alice.id, move, None)
    assert refused.error is not None
    said = tr_for("ru")(refused.error)
    assert RUSSIAN in said and "Computer" not in said, said
    assert "Computer (normal)" in tr_for("en")(refused.error)
    await flush(world)


async def test_the_removals_dm_names_the_computer_in_russian(
        world: World, locales: dict[int, str]) -> None:
    live, _ = await _russian_practice(world, locales)
    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()
    await flush(world)
    assert live.over
    told = str(world.alice.user.dm_channel.last_message.content)
    assert RUSSIAN in told and "Computer" not in told, told


async def test_a_russian_members_reminder_names_the_computer_in_russian(
        world: World, locales: dict[int, str]) -> None:
    """A practice by correspondence: the reminder before the turn's day runs out."""
    locales[world.alice.id] = "ru"
    live = await _humans_turn(world)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    await svc.check_timers(now=live.deadline - 2 * HOUR + 1)
    await flush(world)
    told = str(world.alice.user.dm_channel.last_message.content)
    assert "Компьютер" in told and "Computer" not in told, told
