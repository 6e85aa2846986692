"""The store on both backends (a real SQLite file, a real PostgreSQL database): migrations, one
match per member, atomic moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from data.db import Database
from data.migrations import MIGRATIONS
from data.models import Finish, GuildSettings
from data.store import AlreadyPlaying, StaleState, Store


async def _match(store: Store, a: int = 1, b: int = 2, guild: int = 10) -> int:
    return await store.create_match(
        guild_id=guild, channel_id=5, players=((a, "Ada"), (b, "Ben")), variant="english",
        turn_timer=300, state="{}", deadline=123.0,
    )


async def test_a_new_file_is_migrated_to_the_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "umtali.sqlite3"
    store = await Store.open(path)
    assert await store.db.schema_version() == len(MIGRATIONS)
    row = await store.db.fetchone("PRAGMA journal_mode")
    assert row is not None and row[0] == "wal"
    await store.close()
    # Opening again applies nothing and keeps the rows.
    store = await Store.open(path)
    assert await store.db.schema_version() == len(MIGRATIONS)
    await store.close()


async def test_a_new_database_is_migrated_and_opens_again_unchanged(
        empty_target: str | Path) -> None:
    store = await Store.open(empty_target)
    assert await store.db.schema_version() == len(MIGRATIONS)
    await store.set_meta("kept", "yes")
    await store.close()
    store = await Store.open(empty_target)
    assert await store.db.schema_version() == len(MIGRATIONS)
    assert await store.get_meta("kept") == "yes"
    await store.close()


async def test_guild_settings_default_and_saved(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    assert await store.guild_settings(7) == GuildSettings(7)
    await store.save_guild_settings(GuildSettings(7, "russian", True, 0, False))
    assert await store.guild_settings(7) == GuildSettings(7, "russian", True, 0, False)
    await store.close()


async def test_one_active_match_per_member_and_server(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    match_id = await _match(store)
    assert await store.active_match_of(10, 1) == match_id
    with pytest.raises(AlreadyPlaying) as e:
        await _match(store, a=3, b=2)
    assert e.value.user_id == 2
    # Nothing of the refused match was kept.
    assert await store.active_match_of(10, 3) is None
    assert len(await store.active_matches()) == 1
    # Another server is another matter.
    await _match(store, guild=11)
    await store.close()


async def test_moves_are_saved_with_the_state_and_checked_by_version(
        store_target: str | Path) -> None:
    path = store_target
    store = await Store.open(path)
    match_id = await _match(store)
    await store.record_move(match_id=match_id, version=0, seat=0, move="draw",
                            state='{"v": 1}', deadline=500.0)
    with pytest.raises(StaleState):
        await store.record_move(match_id=match_id, version=0, seat=0, move="take",
                                state='{"v": "x"}', deadline=None)
    await store.close()
    store = await Store.open(path)
    row = await store.match(match_id)
    assert row is not None and row.version == 1 and row.state == '{"v": 1}'
    assert row.deadline == 500.0
    assert await store.moves(match_id) == ["draw"]
    await store.close()


async def test_finishing_records_the_result_once_and_frees_the_players(
        store_target: str | Path) -> None:
    store = await Store.open(store_target)
    match_id = await _match(store)
    finish = Finish(1, "played out", (1, 2), "[]")
    await store.record_move(match_id=match_id, version=0, seat=1, move="discard 2C",
                            state="{}", deadline=None, finish=finish)
    with pytest.raises(StaleState):
        await store.finish_match(match_id=match_id, version=1, state="{}", finish=finish)
    results = await store.session_results(10)
    assert len(results) == 1 and results[0]["winner_seat"] == 1
    assert await store.active_match_of(10, 1) is None
    row = await store.match(match_id)
    assert row is not None and row.status == "finished" and row.how == "played out"
    await _match(store)  # both may play again
    await store.close()


async def test_challenges_close_once(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    ch = await store.create_challenge(
        guild_id=1, channel_id=2, challenger=(3, "Ada"), opponent=(4, "Ben"),
        variant="english", optional_melding=False, turn_timer=300, ttl=600, now=1000.0,
    )
    assert ch.status == "open" and ch.expires_at == 1600.0
    assert await store.close_challenge(ch.id, "declined")
    assert not await store.close_challenge(ch.id, "expired")
    with pytest.raises(StaleState):
        await store.create_match(guild_id=1, channel_id=2, players=((3, "Ada"), (4, "Ben")),
                                 variant="english", turn_timer=0, state="{}", deadline=None,
                                 challenge_id=ch.id)
    await store.close()


async def test_a_failed_transaction_leaves_nothing(store_target: str | Path) -> None:
    db = await Database.open(store_target)
    with pytest.raises(RuntimeError):
        async with db.transaction() as c:
            await c.execute("INSERT INTO meta (key, value) VALUES ('a', 'b')")
            raise RuntimeError("boom")
    assert await db.fetchone("SELECT * FROM meta") is None
    await db.close()
