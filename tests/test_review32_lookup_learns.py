"""An action looks up a match another process holds, on a server this process knows no language
for: it reads the server's language as another process saw it first (``Owners.lookup``,
``Preferences.learn_language``), a wait of its own.
The tick may bring the match in meanwhile (its holder stopped): the action must act on the copy
the tick adopted, not on a second one loaded before, whose save would then replace the tick's
(its queued deliveries dropped with it), as ``lookup``'s other waits already see to
(test_faults_owners)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, start_match
from tests.test_faults_channel import _db


async def test_a_match_brought_in_while_the_choices_are_read_again_is_the_copy_held(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    svc.forget(live)
    _db(db_path, "UPDATE matches SET owner = 'stopped' WHERE id = ?", live.id)
    # A server whose locale this process never saw: the lookup reads it.
    monkeypatch.setattr(svc.prefs, "language_known", lambda guild_id: False)
    read = svc.prefs.learn_language

    async def claimed_meanwhile(guild_id: int) -> None:
        await read(guild_id)
        # The tick's claim and bring-in, done while the choices were read.
        _db(db_path, "UPDATE matches SET owner = ? WHERE id = ?", svc.owners.name, live.id)
        row = await svc.store.match(live.id)
        assert row is not None
        svc.owners.adopt(LiveMatch.from_row(row))
    monkeypatch.setattr(svc.prefs, "learn_language", claimed_meanwhile)
    found = await svc.lookup(live.id)
    held = svc.matches.get(live.id)
    assert held is not None
    assert found is held, "a second copy of the match held here"
