"""Every call of the store, on both backends: what the bot's cogs ask of it (settings, members'
choices, a match's messages, timers and announcements, limits on challenges and practice,
abandoning) reads back the same from SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.challenges import Limits
from data.models import GuildSettings, MemberPrefs
from data.store import Refused, StaleState, Store


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = Store(
        (await Store.open(store_target)).db,
        Limits(open_challenges=2, challenge_cooldown=20.0, practice_cooldown=30.0))
    yield opened
    await opened.close()


async def _match(store: Store, guild: int = 10, now: float = 100.0,
                 computer: tuple[int, str] | None = None) -> int:
    return await store.create_match(
        guild_id=guild, channel_id=5, players=((1, "Ada"), (2, "Ben")), variant="english",
        turn_timer=300, state="{}", deadline=400.0, computer=computer, now=now,
        salt="s", commitment="c", time_control="blitz", reserve=60.0)


async def test_settings_and_members_choices(store: Store) -> None:
    assert await store.get_meta("absent") is None
    await store.set_meta("k", "one")
    await store.set_meta("k", "two")
    assert await store.get_meta("k") == "two"
    await store.set_metas({"k": "three", "j": "four"})
    assert (await store.get_meta("k"), await store.get_meta("j")) == ("three", "four")
    assert await store.get_metas(["k", "absent", "j"]) == {"k": "three", "j": "four"}
    chosen = GuildSettings(7, "russian", True, 120, False, False, "ru", "blitz", "monthly", 99)
    await store.save_guild_settings(chosen)
    await store.save_guild_settings(GuildSettings(8, pictures=False))
    assert await store.guild_settings(7) == chosen
    assert await store.guild_languages() == {7: "ru"}
    assert await store.guilds_without_pictures() == {7, 8}

    await store.set_look(1, pictures=False, four_colour=True)
    await store.set_hand_order(1, "rank")
    await store.set_language(2, "ru")
    await store.set_hand_order(3, "suit")  # a choice that is the default
    prefs = await store.member_prefs([3, 2, 1, 2, 4])
    assert prefs[1] == MemberPrefs(1, "rank", False, True, "")
    assert prefs[2] == MemberPrefs(2, language="ru")
    assert prefs[3].is_default and prefs[4].is_default
    assert await store.member_prefs([]) == {}
    assert set(await store.chosen_prefs()) == {1, 2}


async def test_a_matchs_messages_timers_and_announcements(store: Store) -> None:
    match_id = await _match(store)
    await store.set_table_message(match_id, 11)
    await store.set_dm_message(match_id, 0, 21, 22)
    await store.set_dm_refused(match_id, 1)
    await store.set_match_channel(match_id, 6)
    await store.set_unsent(match_id, '["hello"]')
    assert await store.unsent_of(match_id) == '["hello"]'
    assert await store.unsent_of(999) == "[]"
    await store.set_warned(match_id)
    row = await store.match(match_id)
    assert row is not None
    assert (row.channel_id, row.table_message_id, row.dm_channel_ids, row.dm_message_ids,
            row.dm_refused, row.warned) == (6, 11, (21, None), (22, None), (False, True), True)
    assert (row.salt, row.commitment, row.time_control, row.reserves) == (
        "s", "c", "blitz", (60.0, 60.0))

    # A move at the same deadline keeps the warning; a new deadline clears it.
    await store.record_move(match_id=match_id, version=0, seat=0, move="draw", state="{}",
                            deadline=400.0, reserve=42.5)
    row = await store.match(match_id)
    assert row is not None and row.warned and row.reserves == (42.5, 60.0)
    await store.record_move(match_id=match_id, version=1, seat=0, move="discard 2C",
                            state="{}", deadline=700.0, pending="line")
    row = await store.match(match_id)
    assert row is not None and not row.warned and row.pending == "line"
    assert row.reserves == (42.5, 60.0), "no reserve spent: kept"
    await store.record_move(match_id=match_id, version=2, seat=1, move="draw", state="{}",
                            deadline=None)
    row = await store.match(match_id)
    assert row is not None and row.deadline is None

    assert not await store.set_deadline(match_id, 2, 900.0), "the match moved on"
    assert await store.set_deadline(match_id, 3, 900.0)
    # What is said is added to what was still to say (never written over it).
    assert await store.resume_turn(match_id, 950.0, ["again"]) == ["hello", "again"]
    row = await store.match(match_id)
    assert row is not None and (row.deadline, row.unsent) == (950.0, '["hello","again"]')

    # Moved only from where it was read: another process may have moved it since.
    assert not await store.move_match(match_id, 8, 12, (6, 10, False), 3)
    assert not await store.move_match(match_id, 8, 12, (6, 11, False), 2), "moved on since"
    assert await store.move_match(match_id, 8, 12, (6, 11, False), 3)
    # A copy read before the move finding the channel it left refused loses nothing.
    assert await store.set_channel_lost(match_id, 6) is None
    row = await store.match(match_id)
    assert row is not None and not row.channel_lost and row.unsent != "[]"
    assert await store.set_channel_lost(match_id, 8) == (True, True)
    row = await store.match(match_id)
    assert row is not None and row.channel_lost and row.unsent == "[]"
    assert not await store.move_match(match_id, 9, 13, (8, 12, False), 3)
    # The process that moves the table holds the match from then on.
    assert await store.move_match(match_id, 9, 13, (8, 12, True), 3, "p2", 1234.0)
    held = await store.db.fetchone("SELECT owner, lease_until FROM matches WHERE id = ?",
                                   (match_id,))
    assert held is not None and (held["owner"], held["lease_until"]) == ("p2", 1234.0)
    row = await store.match(match_id)
    assert row is not None and (row.channel_id, row.channel_lost) == (9, False)
    assert [m.id for m in await store.active_matches()] == [match_id]
    assert await store.moves(match_id) == ["draw", "discard 2C", "draw"]


async def test_abandoned_matches_free_their_players_once(store: Store) -> None:
    challenge = await store.create_challenge(
        guild_id=10, channel_id=5, challenger=(1, "Ada"), opponent=(2, "Ben"),
        variant="english", optional_melding=False, turn_timer=300, ttl=600, now=50.0)
    match_id = await store.create_match(
        guild_id=10, channel_id=5, players=challenge.seated, variant="english", turn_timer=300,
        state="{}", deadline=None, challenge_id=challenge.id)
    accepted = await store.challenge(challenge.id)
    assert accepted is not None and (accepted.status, accepted.match_id) == ("accepted",
                                                                             match_id)
    await store.set_unsent(match_id, '["bye"]')
    assert await store.abandon_match(match_id, "abandoned", now=60.0) is not None
    assert await store.abandon_match(match_id, "cancelled") is None
    row = await store.match(match_id)
    assert row is not None and (row.status, row.how, row.unsent) == ("finished", "abandoned",
                                                                      "[]")
    assert await store.active_match_of(10, 1) is None
    cancelled = await store.challenge(challenge.id)
    assert cancelled is not None and cancelled.status == "cancelled"
    assert await store.session_results() == []
    assert await store.matches_to_resume() == []


async def test_finished_matches_with_unsent_announcements_are_resumed(store: Store) -> None:
    match_id = await _match(store)
    other = await _match(store, guild=11)
    await store.record_move(match_id=match_id, version=0, seat=0, move="draw", state="{}",
                            deadline=None, announce=["last words"])
    from data.models import Finish
    await store.finish_match(match_id=match_id, version=1, state="{}", announce=["the end"],
                             finish=Finish(0, "resigned", (0, 0), "[]"))
    resumed = {m.id: m.status for m in await store.matches_to_resume()}
    assert resumed == {match_id: "finished", other: "active"}
    [result] = await store.session_results(10)
    assert result["how"] == "resigned" and (await store.session_results(11)) == []


async def test_limits_on_challenges_and_practice(store: Store) -> None:
    async def challenge(challenger: int, opponent: int, now: float, *,
                        rematch_of: int | None = None) -> int:
        made = await store.create_challenge(
            guild_id=10, channel_id=5, challenger=(challenger, "A"),
            opponent=(opponent, "B"), variant="english", optional_melding=True,
            turn_timer=300, ttl=600, now=now, time_control="normal", rematch_of=rematch_of)
        return made.id

    first = await challenge(1, 2, 1000.0)
    with pytest.raises(Refused) as pair:
        await challenge(2, 1, 1100.0)  # these two have one open already
    assert pair.value.reason == "pair"
    with pytest.raises(Refused) as soon:
        await challenge(1, 3, 1010.0)
    assert soon.value.reason == "cooldown" and soon.value.retry_after == pytest.approx(10.0)
    second = await challenge(1, 3, 1030.0, rematch_of=first)
    with pytest.raises(Refused) as many:
        await challenge(1, 4, 1060.0)
    assert many.value.reason == "open"

    await store.set_challenge_message(second, 77)
    made = await store.challenge(second)
    assert made is not None
    assert (made.message_id, made.rematch_of, made.time_control, made.optional_melding) == (
        77, first, "normal", True)
    assert made.seated == ((3, "B"), (1, "A")), "a rematch seats the other player first"
    assert [c.id for c in await store.open_challenges()] in ([first, second], [second, first])
    assert [c.id for c in await store.due_challenges(1601.0)] == [first]
    assert [c.id for c in await store.due_challenges(2000.0)] == [first, second]
    assert await store.close_challenge(first, "expired")
    assert [c.id for c in await store.due_challenges(2000.0)] == [second]

    # Practice: one session per member every 30 s, whatever became of the last one.
    practice = await _match(store, now=5000.0, computer=(1, "easy"))
    assert await store.abandon_match(practice, "cancelled") is not None
    with pytest.raises(Refused) as cooldown:
        await _match(store, now=5010.0, computer=(1, "easy"))
    assert cooldown.value.reason == "cooldown"
    assert cooldown.value.retry_after == pytest.approx(20.0)
    await _match(store, now=5031.0, computer=(1, "easy"))
    with pytest.raises(StaleState):
        await store.create_match(guild_id=10, channel_id=5, players=((1, "A"), (2, "B")),
                                 variant="english", turn_timer=0, state="{}", deadline=None,
                                 challenge_id=first)
