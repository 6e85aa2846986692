"""review63: the saves of DMs tried again (migration 23), on both backends: the hand of a
refusal kept the greater (PostgreSQL's CASE), a try claimed once a hand by the match's holder,
the refusal cleared only with the id of the panel that reached the DMs, by its holder."""

from __future__ import annotations

from pathlib import Path

from data.store import Store

SNOWFLAKE = 1_300_000_000_000_000_000


async def test_dms_tried_again_are_saved_alike_on_both_backends(
        store_target: str | Path) -> None:
    store = await Store.open(store_target)
    try:
        match_id = await store.create_match(
            guild_id=SNOWFLAKE, channel_id=SNOWFLAKE + 1,
            players=((SNOWFLAKE + 2, "Ada"), (SNOWFLAKE + 3, "Ben")), variant="english",
            turn_timer=300, state="{}", deadline=None, owner="here")
        await store.set_dm_refused(match_id, 1, 102)
        await store.set_dm_refused(match_id, 1, 101)  # an older copy's: the later hand kept
        assert not await store.claim_dm_try(match_id, 1, 102, "here")
        assert not await store.claim_dm_try(match_id, 1, 103, "elsewhere")
        assert await store.claim_dm_try(match_id, 1, 103, "here")
        assert not await store.claim_dm_try(match_id, 1, 103, "here")  # once a hand
        # Not the holder: neither the panel nor the clear saved.
        assert not await store.set_dm_message(match_id, 1, SNOWFLAKE + 4, SNOWFLAKE + 5,
                                              at_version=0, owner="elsewhere", reopened=True)
        row = await store.match(match_id)
        assert row is not None and row.dm_refused[1] and row.dm_message_ids[1] is None
        assert await store.set_dm_message(match_id, 1, SNOWFLAKE + 4, SNOWFLAKE + 5,
                                          at_version=0, owner="here", reopened=True)
        row = await store.match(match_id)
        assert row is not None and not row.dm_refused[1]
        assert row.dm_message_ids[1] == SNOWFLAKE + 5 and not row.dm_refused[0]
        assert not await store.claim_dm_try(match_id, 1, 104, "here")  # open: nothing to try
    finally:
        await store.close()


async def test_a_refusal_is_saved_untold_and_its_notice_claimed_once_on_both_backends(
        store_target: str | Path) -> None:
    """review66: the refusal's notice is owed as saved, not only in the memory of the copy
    that found it: claimed once, put back when its post failed for now."""
    store = await Store.open(store_target)
    try:
        match_id = await store.create_match(
            guild_id=SNOWFLAKE, channel_id=SNOWFLAKE + 1,
            players=((SNOWFLAKE + 2, "Ada"), (SNOWFLAKE + 3, "Ben")), variant="english",
            turn_timer=300, state="{}", deadline=None, owner="here")
        assert await store.set_dm_refused(match_id, 1, 101)
        assert not await store.set_dm_refused(match_id, 1, 101)
        row = await store.match(match_id)
        assert row is not None and row.dm_refused == (False, True)
        assert row.dm_untold == (False, True)
        assert not await store.claim_dm_notice(match_id, 0)  # DMs open: nothing to tell
        assert await store.claim_dm_notice(match_id, 1)
        assert not await store.claim_dm_notice(match_id, 1)  # once
        row = await store.match(match_id)
        assert row is not None and row.dm_refused == (False, True) and not any(row.dm_untold)
        await store.owe_dm_notice(match_id, 1)  # its post failed for now
        assert await store.claim_dm_notice(match_id, 1)
        # Untold or told, the DMs are tried again once a hand, and the refusal is what
        # abandons a match whose channel is lost.
        await store.owe_dm_notice(match_id, 1)
        assert await store.claim_dm_try(match_id, 1, 102, "here")
        assert await store.set_channel_lost(match_id, SNOWFLAKE + 1) is not None
        assert await store.abandon_match(match_id, "abandoned", unreachable=True) == []
    finally:
        await store.close()
