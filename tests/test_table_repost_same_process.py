"""A deleted table posted again while ``/umtali table``, through the same process, moves the
match's table (its post and its save landing while the repost is drawn): the repost replaces
only the table its edit found gone, so the table ``/umtali table`` posted stays the one live
table, and the repost is taken down."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali import retiring
from cogs.umtali.panels import table_panel
from cogs.umtali.showing import Shown
from tests.discord_helpers import World, custom_ids, start_match, thread_of
from umtali.moves import MoveKind


def _live_tables(match_id: int, channel: Any) -> list[Any]:
    button = f"umtali:m:{match_id}:hand"
    return [m for m in channel.history() if button in custom_ids(m)]


async def test_a_repost_racing_the_table_command_in_the_same_process_leaves_one_table(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    thread = thread_of(world, live)
    old = live.table_message_id
    assert old is not None
    await world.bot.get_partial_messageable(thread.id).get_partial_message(old).delete()
    real = svc.table_message
    drawings: list[int] = []
    moved: list[int] = []

    def table_message(match: Any, *args: Any, **kwargs: Any) -> Shown:
        shown = real(match, *args, **kwargs)
        drawings.append(1)
        if len(drawings) == 2 and not moved:
            # The repost is being drawn (the edit found the table gone): /umtali table posts
            # and saves its table now.
            draw = shown.drawn

            async def drawn() -> Shown:
                posted = await world.bot.get_partial_messageable(thread.id).send(
                    **real(match).send(), view=table_panel(live.id))
                moved.append(posted.id)
                replaced = await svc.move_to(match, thread.id, posted.id)
                if replaced is not None and replaced != posted.id:
                    await retiring.retire(world.bot, match, replaced)
                return await draw()
            shown.drawn = drawn  # type: ignore[method-assign]
        return shown

    monkeypatch.setattr(svc, "table_message", table_message)
    seat = live.session.to_act
    while live.session.to_act == seat:
        legal = live.session.legal_moves()
        move = next((m for m in legal if m.kind is MoveKind.DISCARD), legal[0])
        assert (await svc.act(live, live.player_ids[seat], move)).ok
    await svc.flush()
    assert moved, "the race was not set up"
    assert [t.id for t in _live_tables(live.id, thread)] == moved
    assert live.table_message_id == moved[0]
    saved = await svc.store.match(live.id)
    assert saved is not None and saved.table_message_id == moved[0]
