"""A member whose Discord client changed language: the first panel they ask for is in it."""

from __future__ import annotations

from simcord import Env

from tests.discord_helpers import Clock, flush, play, player, start_match, table_message
from tests.test_discord_languages import _world, english_in, russian_in, texts_of
from umtali.moves import Move
from umtali.players import GreedyPlayer


async def test_my_hand_after_a_switch_to_russian_is_in_russian(
        simcord_env: Env, clock: Clock, locales: dict[int, str]) -> None:
    world = _world(simcord_env, clock, None)
    live = await start_match(world)
    table = await table_message(world, live)
    before = await world.bob.click(table, custom_id=f"umtali:m:{live.id}:hand")
    assert before.ephemeral and not russian_in(texts_of(before.response))
    locales[world.bob.id] = "ru"  # the member switched their client to Russian
    after = await world.bob.click(table, custom_id=f"umtali:m:{live.id}:hand")
    shown = texts_of(after.response)
    assert after.ephemeral and not english_in(shown), english_in(shown)
    assert russian_in(shown)


async def test_a_draw_from_the_dm_panel_after_a_switch_answers_in_russian(
        simcord_env: Env, clock: Clock, locales: dict[int, str]) -> None:
    world = _world(simcord_env, clock, None)
    live = await start_match(world)
    while live.session.view(live.session.to_act).phase != "draw":
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
    await flush(world)
    seat = live.session.to_act
    locales[player(world, seat).id] = "ru"
    answer = await play(world, live, Move.draw())  # a click on the DM panel
    shown = texts_of(answer.response)
    assert not english_in(shown), english_in(shown)
    assert russian_in(shown)
