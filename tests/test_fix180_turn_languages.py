"""fix180 (review166): a turn's announcement is said in one language, the reader's: on a DM
panel (the match's channel lost) the last turn in the player's own language, not the server's;
in the channel, a turn whose server changed its language mid-turn all in the new one (the moves
held since the turn began said again in it). SimCord, through the real discord.py path."""

from __future__ import annotations

from typing import Any

from simcord import Env

from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, manager, play, start_match, thread_of
from tests.test_discord_languages import _world, russian_in
from tests.test_faults_channel import _lose_thread
from umtali.players import GreedyPlayer


async def _turn(world: World, live: LiveMatch) -> None:
    seat = live.session.to_act
    while live.session.to_act == seat and not live.over:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)


def _table_of(world: World, live: LiveMatch, seat: int) -> str:
    user = (world.alice, world.bob)[seat].user
    [panel] = [m for m in user.dm_channel.history() if m.id == live.dm_message_ids[seat]]
    table = panel.embeds[0]
    return "\n".join([table.title or "", table.description or "",
                      *[f"{f.name}\n{f.value}" for f in table.fields]])


async def test_the_last_turn_on_a_dm_panel_is_in_its_readers_language(
        simcord_env: Env, clock: Any, locales: dict[int, str]) -> None:
    world = _world(simcord_env, clock, "ru")
    locales[world.bob.id] = "ru"
    live = await start_match(world, turn_timer=0)
    _lose_thread(world, live)
    for _ in range(3):
        await _turn(world, live)
    assert live.channel_lost and not live.over
    ada, ben = (_table_of(world, live, live.seat_of(m.id) or 0) for m in (world.alice,
                                                                            world.bob))
    # Ada reads English: her table, and the last turn on it, hold no Russian.
    assert "your turn" in ada and not russian_in([ada]), ada
    # Ben reads Russian: the same turn in his.
    assert "ваш ход" in ben and "your turn" not in ben, ben


async def test_a_turn_is_announced_in_the_language_the_server_changed_to(
        world: World) -> None:
    boss = manager(world)
    live = await start_match(world, turn_timer=0)
    await _turn(world, live)
    seat = live.session.to_act
    # The turn's draw, held back until the turn ends, then the server's language changed.
    await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    ok = await boss.slash(world.channel, "umtali-admin settings", language="ru")
    assert ok.ephemeral
    await flush(world)
    while live.session.to_act == seat and not live.over:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    thread = thread_of(world, live)
    [said] = [m.content for m in thread.history() if "ваш ход" in (m.content or "")]
    assert " draws " not in said and " takes " not in said and "your turn" not in said, said
    assert "берёт" in said, said
