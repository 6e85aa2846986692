"""review153: a match an admin ended by its id, its saved state unreadable, kept answering
every click with "Sorry, something went wrong" and an ERROR: the table's **My hand** (its
buttons were left on), and its line in ``/umtali history``, whose deals file read the state.
Now the table loses its buttons with the DM panels, a click on one left anywhere is told the
match is over, and the history says its deals could not be read. SimCord, a real SQLite
file."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from cogs.umtali.stray_panels import moves_of
from tests.discord_helpers import World, manager, start_match, table_message, thread_of
from tests.processes.helpers import kill, main_of, process, via
from tests.test_admin_end_match import _db, _end


async def test_an_unreadable_match_ended_answers_its_clicks_plainly(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    boss = manager(world)
    live = await start_match(world)
    table = await table_message(world, live)
    # A hand panel asked for before (ephemeral: nothing edits it at the end).
    panel = await world.alice.click(table, custom_id=f"umtali:m:{live.id}:hand")
    buttons = [c["custom_id"] for row in panel.response.components
               for c in row["components"] if c["type"] == 2 and c.get("custom_id")]
    assert buttons, panel.response.components
    main = main_of(world)
    await kill(main)
    _db(db_path, "UPDATE matches SET state = '{\"broken' WHERE id = ?", live.id)
    async with process(world, db_path, main.owners.name) as again:
        with via(world, again):
            assert "no result" in await _end(world, boss, world.alice)
            shown = next(m for m in thread_of(world, live).history() if m.id == table.id)
            assert not shown.components, "the table kept its buttons"
            # A click on a button left on a panel asked for before: told plainly.
            click = await world.alice.click(panel.response, custom_id=buttons[0])
            assert click.ephemeral and "over" in str(click.response.content), \
                click.response.content
            assert not moves_of(click.response, live.id)
            history = await world.alice.slash(world.channel, "umtali history")
            chosen = await world.alice.select(history.response, [str(live.id)],
                                              custom_id=f"umtali:rp:{world.guild.id}")
            said = str(chosen.response.content)
            assert "could not be read" in said and "Sorry" not in said, said
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], \
        [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
