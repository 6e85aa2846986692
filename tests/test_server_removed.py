"""The bot removed from a server (kicked by an admin) while matches, practice sessions and
challenges run there: each match ends with no result (never rated, its clock stopped, both
players freed), each human player is told by DM, the challenges are withdrawn, and nothing is
tried again in the server's channels. A server in an outage (the same GUILD_DELETE, marked
unavailable) changes nothing. The real discord.py code path: SimCord drops the server and sends
GUILD_DELETE, as Discord does."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import UmtaliBot
from cogs.umtali import channel_loss
from cogs.umtali.challenge_expiry import expire_challenges
from cogs.umtali.clock_state import LATE
from cogs.umtali.outbox import Batch
from cogs.umtali.removal import owns
from cogs.umtali.season_summaries import season_tick
from cogs.umtali.service import MatchService
from data.servers import ServerQueries
from tests.discord_helpers import World, accept, challenge, flush, start_match, start_practice
from tests.unheard import lose_answer


def _db(db_path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as c:
        return c.execute(sql, args).fetchall()


async def _removed(world: World) -> None:
    """An admin kicks the bot: the server is gone for it, and GUILD_DELETE says so."""
    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()
    await flush(world)


def _to_server(world: World, since: int, channel_ids: set[int]) -> list[Any]:
    return [r for r in world.env.http_requests[since:]
            if any(r.path.startswith(f"/channels/{c}/") for c in channel_ids)]


def _last_dm(member: Any) -> str:
    message = member.user.dm_channel.last_message
    return "" if message is None else str(message.content or "")


def _told_last(member: Any, since: int, match_id: int, notice: str) -> None:
    """The one new message in the player's DMs since message ``since`` is why the match
    ended (never a "channel lost, play on here" panel first); their panel, edited in place,
    shows it over."""
    dm = member.user.dm_channel
    new = [m for m in dm.history() if m.id > since]
    assert [str(m.content) for m in new] == [new[-1].content] and notice in new[-1].content, [
        (m.content, [e.description for e in m.embeds]) for m in new]
    panel = next(m for m in dm.history() if m.embeds and m.embeds[0].footer.text)
    assert panel.embeds[0].footer.text == f"Match {match_id}"


def _ended_unrated(db_path: Path, match_id: int) -> None:
    """As the database has it: ended with no result, its clock stopped, never rated, both
    players free on the server."""
    assert _db(db_path, "SELECT status, how, deadline, channel_lost FROM matches WHERE id = ?",
               match_id) == [("finished", "abandoned", None, 1)]
    assert _db(db_path, "SELECT * FROM session_results WHERE match_id = ?", match_id) == []
    assert _db(db_path, "SELECT * FROM active_players WHERE match_id = ?", match_id) == []
    assert _db(db_path, "SELECT COUNT(*) FROM ratings")[0][0] == 0


async def test_a_timed_match_ends_with_no_result_and_both_players_are_told(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=5)
    deadline = live.deadline
    assert deadline is not None
    channels = {world.channel.id, live.channel_id}
    before = len(world.env.http_requests)
    await _removed(world)
    assert live.over and live.abandoned and live.deadline is None
    _ended_unrated(db_path, live.id)
    for member in (world.alice, world.bob):
        said = _last_dm(member)
        assert "I was removed from the server Railway Club" in said, said
        assert f"match #{live.id}" in said and "no rating changed" in said
    # Its clock stopped: the deadline passing forfeits nobody, rates nothing.
    svc = world.bot.matches
    assert svc is not None
    await svc.check_timers(now=deadline + LATE + 60)
    await flush(world)
    _ended_unrated(db_path, live.id)
    # Nothing was tried in the server's channels, and nothing is kept for the match.
    assert _to_server(world, before, channels) == []
    assert not svc.tracked(live.id)


async def test_each_player_is_told_in_their_own_language(
        world: World, db_path: Path, locales: dict[int, str]) -> None:
    locales[world.alice.id] = "ru"
    live = await start_match(world)
    await _removed(world)
    assert _last_dm(world.alice).startswith("Меня удалили с сервера Railway Club, поэтому матч "
                                            f"#{live.id} (соперник — ben)")
    assert _last_dm(world.bob).startswith("I was removed from the server Railway Club")


async def test_a_match_with_no_clock_frees_both_players_and_the_bot_added_back_plays_anew(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=0)
    assert live.deadline is None
    await _removed(world)
    _ended_unrated(db_path, live.id)
    # Added back: the same server, a new channel, the same members, free to play again.
    guild, channel = _added_back(world)
    again = dataclasses.replace(world, guild=guild, channel=channel,
                                alice=guild.add_member(world.alice.user),
                                bob=guild.add_member(world.bob.user),
                                carol=guild.add_member(world.carol.user), tables={})
    await world.env.settle()
    svc = world.bot.matches
    assert svc is not None
    assert await svc.member_match(guild.id, world.alice.id) is None
    assert (await svc.removals.sweep()) == 0
    result = await challenge(again, again.alice, again.bob)
    assert (await accept(again.bob, result.response)).acknowledged
    await flush(again)
    new = [m for m in svc.matches.values() if not m.over]
    assert len(new) == 1 and new[0].id != live.id
    assert _db(db_path, "SELECT status FROM matches WHERE id = ?", live.id) == [("finished",)]


async def test_a_practice_session_ends_and_the_computer_moves_no_more(
        world: World, db_path: Path) -> None:
    live = await start_practice(world)
    moves = len(live.session.moves)
    channels = {world.channel.id, live.channel_id}
    before = len(world.env.http_requests)
    await _removed(world)
    _ended_unrated(db_path, live.id)
    assert "I was removed from the server Railway Club" in _last_dm(world.alice)
    svc = world.bot.matches
    assert svc is not None
    assert len(live.session.moves) == moves and not svc.tracked(live.id)
    assert _to_server(world, before, channels) == []


async def test_an_open_challenge_is_withdrawn_and_never_edited_at_its_expiry(
        world: World, db_path: Path) -> None:
    await challenge(world, world.alice, world.bob)
    before = len(world.env.http_requests)
    await _removed(world)
    assert _db(db_path, "SELECT status, seed FROM challenges") == [("cancelled", "")]
    world.clock.advance(10 * 24 * 3600)
    await expire_challenges(world.bot)
    await flush(world)
    assert _to_server(world, before, {world.channel.id}) == []


async def test_a_server_in_an_outage_changes_nothing(world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=5)
    deadline = live.deadline
    dms = [_last_dm(m) for m in (world.alice, world.bob)]
    world.env.backend.emit("GUILD_DELETE", {"id": str(world.guild.id), "unavailable": True})
    await world.env.settle()
    await flush(world)
    guild = world.bot.get_guild(world.guild.id)
    assert guild is not None and guild.unavailable
    # Not a removal, at the event nor at a READY's sweep (an outage's server arrives so).
    svc = world.bot.matches
    assert svc is not None
    assert (await svc.removals.sweep()) == 0
    assert not live.over and live.deadline == deadline
    assert _db(db_path, "SELECT status FROM matches") == [("active",)]
    assert [_last_dm(m) for m in (world.alice, world.bob)] == dms


async def test_a_removal_while_the_bot_was_down_is_found_at_its_start(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=5)
    # A second server, where the bot stays: its match goes on.
    kept_guild = world.env.create_guild("Chess Club")
    kept_channel = kept_guild.create_text_channel("games")
    kept = dataclasses.replace(world, guild=kept_guild, channel=kept_channel,
                               alice=kept_guild.add_member(world.alice.user),
                               bob=kept_guild.add_member(world.bob.user),
                               carol=kept_guild.add_member(world.carol.user), tables={})
    await world.env.settle()
    result = await challenge(kept, kept.carol, kept.alice)
    assert (await accept(kept.alice, result.response)).acknowledged
    await flush(world)
    svc = world.bot.matches
    assert svc is not None
    other = next(m for m in svc.matches.values() if m.id != live.id)
    # The removal happens while the bot is down: its GUILD_DELETE reaches nobody.
    emit = world.env.backend.emit
    monkeypatch.setattr(world.env.backend, "emit", lambda event, payload: None)
    world.env.backend.remove_guild(world.guild.id)
    monkeypatch.setattr(world.env.backend, "emit", emit)
    again = make_bot()
    since = max(m for messages in world.env.backend.messages.values() for m in messages)
    # Brought back, its table is edited before the bot hears which servers it is in: refused
    # there, it is the removal, not a lost channel.
    await world.env.restart_bot(again)
    await world.env.settle()
    await flush(world)
    _ended_unrated(db_path, live.id)
    assert _db(db_path, "SELECT status FROM matches WHERE id = ?", other.id) == [("active",)]
    # Told without the server's name: the bot never heard it again.
    for member in (world.alice, world.bob):
        _told_last(member, since, live.id, f"I was removed from the server of match #{live.id}")


async def test_a_finished_matchs_last_word_refused_by_a_server_that_removed_the_bot_is_let_go(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A match over whose last announcement was still to post (the bot stopped first) is
    ended by no removal: its channel's refusal drops what it had to post, as for any channel
    lost, rather than leave it to be tried at every start."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    assert await svc.resign(live, 0)
    await flush(world)
    with sqlite3.connect(db_path) as c:
        c.execute("UPDATE matches SET unsent = ? WHERE id = ?", ('["The last word."]', live.id))
    c.close()
    emit = world.env.backend.emit
    monkeypatch.setattr(world.env.backend, "emit", lambda event, payload: None)
    world.env.backend.remove_guild(world.guild.id)
    monkeypatch.setattr(world.env.backend, "emit", emit)
    again = make_bot()
    await world.env.restart_bot(again)
    await world.env.settle()
    await flush(world)
    assert _db(db_path, "SELECT unsent, status FROM matches WHERE id = ?", live.id) == [
        ("[]", "finished")]
    assert again.matches is not None and not again.matches.tracked(live.id)


@pytest.mark.parametrize("removed", [True, False])
async def test_a_refusal_in_a_server_on_another_processs_shard_asks_discord(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch, removed: bool) -> None:
    """The match held here, its server on a shard another process runs (a click in a DM
    reaches shard 0's process, which then holds it): that server is in no list of this
    process's, so a refusal there asks Discord whether the bot is still in it. Removed, it is
    the removal's to end (the other process hears it), no channel lost meanwhile; the bot
    still there (only the thread deleted), the channel is lost, as ever."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    monkeypatch.setattr(channel_loss, "owns", lambda client, guild_id: False)
    since = max(m for messages in world.env.backend.messages.values() for m in messages)
    if removed:
        # Heard by the process running its shard, not here.
        emit = world.env.backend.emit
        monkeypatch.setattr(world.env.backend, "emit", lambda event, payload: None)
        world.env.backend.remove_guild(world.guild.id)
        monkeypatch.setattr(world.env.backend, "emit", emit)
    else:
        world.env.inject_error("*", f"/channels/{live.channel_id}/*", status=404, code=10003,
                               message="Unknown Channel", times=None)
    svc.delivery.enqueue(live, Batch(table=True, hands={0, 1}))
    await flush(world)
    assert live.channel_lost is not removed
    assert _db(db_path, "SELECT channel_lost FROM matches WHERE id = ?", live.id) == [
        (int(not removed),)]
    told = [m.content for member in (world.alice, world.bob)
            for m in member.user.dm_channel.history() if m.id > since]
    if removed:
        assert told == [], told  # nobody told to play on in DMs
        assert await svc.removals.removed(world.guild.id, None)  # the other process's part
        await flush(world)
        for member in (world.alice, world.bob):
            _told_last(member, since, live.id, f"I was removed from the server of match #{live.id}")
    else:
        assert len(told) == 2  # each player's new panel, saying where the match went


async def test_another_process_sees_the_match_ended(world: World, db_path: Path,
                                                    other: MatchService) -> None:
    live = await start_match(world)
    await _removed(world)
    assert await other.member_match(world.guild.id, world.alice.id) is None
    seen = await other.lookup(live.id)
    assert seen is not None and seen.over and seen.abandoned


async def test_a_failed_save_is_tried_again_by_the_timer(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    store = svc.store
    real = store.active_matches_in

    async def broken(guild_id: int) -> list[int]:
        raise OSError("disk I/O error")

    monkeypatch.setattr(store, "active_matches_in", broken)
    await _removed(world)
    # Memory never runs ahead of the database: the match is in play as saved.
    assert not live.over
    assert _db(db_path, "SELECT status FROM matches") == [("active",)]
    # Meanwhile its table, redrawn (a move made on a DM panel), is refused there: that is the
    # removal, still to end the match, not a channel lost with the match to play on in DMs.
    since = max(m for messages in world.env.backend.messages.values() for m in messages)
    svc.delivery.enqueue(live, Batch(table=True, hands={0, 1}))
    await flush(world)
    assert not live.channel_lost and _db(db_path, "SELECT channel_lost FROM matches") == [(0,)]
    monkeypatch.setattr(store, "active_matches_in", real)
    await svc.removals.retry()
    await flush(world)
    _ended_unrated(db_path, live.id)
    assert live.over and svc.removals.pending == {}
    for member in (world.alice, world.bob):
        _told_last(member, since, live.id, "I was removed from the server Railway Club")


def test_only_the_shard_that_owns_a_server_judges_its_absence() -> None:
    intents = discord.Intents.none()
    sharded = discord.AutoShardedClient(intents=intents, shard_count=2, shard_ids=[1])
    on_zero, on_one = 0 << 22, 1 << 22
    assert not owns(sharded, on_zero) and owns(sharded, on_one)
    assert owns(discord.Client(intents=intents), on_zero)
    assert owns(discord.Client(intents=intents, shard_id=0, shard_count=2), on_zero)
    assert not owns(discord.Client(intents=intents, shard_id=0, shard_count=2), on_one)


async def test_a_servers_seasons_stand_still_while_it_removed_the_bot(world: World) -> None:
    """The season open when the bot was removed is not ended at its month's turn, nor any
    season opened after it (its ratings carried over each month for nobody), nor its summary
    looked for in a channel the bot cannot see: the tick asks Discord nothing. Added back, the
    next tick ends that season and opens the current one, once."""
    from tests.test_seasons_discord import NEW_YEAR, _ben_beats_ada_twice, _seasons_on

    await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    await _removed(world)
    svc = world.bot.matches
    assert svc is not None
    before = len(world.env.http_requests)
    for month in (0, 31, 59):
        world.clock.now = NEW_YEAR + month * 24 * 3600
        assert await season_tick(world.bot) == 0
    assert len(world.env.http_requests) == before
    assert await svc.store.seasons.running(world.guild.id) == "2026-12"
    assert await svc.store.seasons.unannounced() == []
    # Added back in March: December ends now, and March opens, carried over once.
    _added_back(world)
    await world.env.settle()
    await season_tick(world.bot)
    assert await svc.store.seasons.running(world.guild.id) == "2027-03"
    assert [s.season for s in await svc.store.seasons.of(world.guild.id)] == [
        "2027-03", "2026-12"]
    assert await svc.store.seasons.unannounced() == []


async def test_a_servers_seasons_stand_still_in_the_other_processes_too(world: World) -> None:
    """With several processes (one per group of shards), each runs the season tick for every
    server: one on another shard cannot tell that the bot was removed, and ended that server's
    season all the same (its ratings carried over each month, its summary looked for)."""
    from tests.test_seasons_discord import NEW_YEAR, _ben_beats_ada_twice, _seasons_on

    await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    await _removed(world)
    svc = world.bot.matches
    assert svc is not None
    # Another process, on the other shard, on the same database.
    shard = (world.guild.id >> 22) % 2
    elsewhere = discord.Client(intents=discord.Intents.none(), shard_id=1 - shard,
                               shard_count=2)
    setattr(elsewhere, "matches", svc)  # noqa: B010 (the bot's attribute, not the client's)
    before = len(world.env.http_requests)
    world.clock.now = NEW_YEAR
    assert await season_tick(elsewhere) == 0
    assert await svc.store.seasons.running(world.guild.id) == "2026-12"
    assert await svc.store.seasons.unannounced() == []
    assert len(world.env.http_requests) == before


def _added_back(world: World) -> tuple[Any, Any]:
    """The bot added back to the server: the same id, a new channel (SimCord keeps an id once
    used; Discord's server keeps its id when the bot comes back)."""
    world.env.backend._reserved_ids.discard(world.guild.id)
    guild = world.env.create_guild("Railway Club", id=world.guild.id)
    return guild, guild.create_text_channel("games")


async def test_an_ending_saved_unheard_and_unread_is_told_when_tried_again(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The match's ending is saved, its answer lost and the read-back failing too (the
    database dropping out just then): tried again by the timer, it is found ended, and both
    players are told, as for an ending heard at once (``cogs.umtali.unheard``)."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    lost = lose_answer(monkeypatch, svc.store.db, "how = ?", reads_fail=1)
    await _removed(world)
    assert lost.answers == 1
    assert not live.over and svc.removals.pending == {world.guild.id: "Railway Club"}
    _ended_unrated(db_path, live.id)
    await svc.removals.retry()
    await flush(world)
    assert svc.removals.pending == {}
    for member in (world.alice, world.bob):
        said = _last_dm(member)
        assert "I was removed from the server Railway Club" in said, said


async def test_an_ending_unheard_and_unread_is_told_though_the_bot_was_added_back(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The match's ending is saved unheard and unread, then the bot is added back before the
    removal is tried again: nothing more is ended, but the match was, and both players are
    told why (else they never learn what ended it)."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    lost = lose_answer(monkeypatch, svc.store.db, "how = ?", reads_fail=1)
    await _removed(world)
    assert lost.answers == 1 and svc.removals.pending == {world.guild.id: "Railway Club"}
    _ended_unrated(db_path, live.id)
    _added_back(world)
    await world.env.settle()
    await svc.removals.retry()
    await flush(world)
    assert svc.removals.pending == {} and world.guild.id not in svc.removals.leaving
    for member in (world.alice, world.bob):
        said = _last_dm(member)
        assert "I was removed from the server Railway Club" in said, said


async def test_an_ending_unheard_is_told_once_the_bot_added_back_can_read_it(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Added back, the read of the ending in doubt fails again: the server is no longer left
    (its other matches' clocks run), and the players are told at a later retry."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    lose_answer(monkeypatch, svc.store.db, "how = ?", reads_fail=1)
    await _removed(world)
    _added_back(world)
    await world.env.settle()
    real = svc.owners.leases.ended_as

    async def unread(match_id: int, how: str) -> list[str] | None:
        raise OSError("the database is out of reach")

    monkeypatch.setattr(svc.owners.leases, "ended_as", unread)
    await svc.removals.retry()
    assert world.guild.id not in svc.removals.leaving
    assert "I was removed" not in _last_dm(world.alice)
    monkeypatch.setattr(svc.owners.leases, "ended_as", real)
    await svc.removals.retry()
    await flush(world)
    assert svc.removals.pending == {}
    _ended_unrated(db_path, live.id)
    for member in (world.alice, world.bob):
        assert "I was removed from the server Railway Club" in _last_dm(member)


async def test_a_removal_found_at_a_start_whose_sweep_failed_is_found_by_the_timer(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As above, the database failing as READY's sweep reads the servers in play: the match
    brought back, whose channel refuses it, is not a lost channel (the removal), so nothing
    but the removal ends it. The timer looks again; else it played on, unrated by nobody's
    decision, its table refused at every delivery, until the next READY (days, maybe)."""
    live = await start_match(world, turn_timer=5)
    emit = world.env.backend.emit
    monkeypatch.setattr(world.env.backend, "emit", lambda event, payload: None)
    world.env.backend.remove_guild(world.guild.id)
    monkeypatch.setattr(world.env.backend, "emit", emit)
    real = ServerQueries.servers_in_play
    failed: list[int] = []

    async def failing_once(store: ServerQueries) -> set[int]:
        if not failed:
            failed.append(1)
            raise OSError("disk I/O error")
        return await real(store)

    monkeypatch.setattr(ServerQueries, "servers_in_play", failing_once)
    again = make_bot()
    since = max(m for messages in world.env.backend.messages.values() for m in messages)
    await world.env.restart_bot(again)
    await world.env.settle()
    await flush(world)
    assert failed and not live.channel_lost
    assert _db(db_path, "SELECT status, channel_lost FROM matches WHERE id = ?", live.id) == [
        ("active", 0)]
    svc = again.matches
    assert svc is not None
    await svc.removals.retry()  # the timer's
    await flush(world)
    _ended_unrated(db_path, live.id)
    for member in (world.alice, world.bob):
        _told_last(member, since, live.id, f"I was removed from the server of match #{live.id}")


async def test_a_refusal_before_the_removal_is_heard_loses_no_channel(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot removed while a post of the match was on its way: Discord refuses it before
    this process hears GUILD_DELETE (the server still in its list). That refusal was taken for
    a channel lost: both players told to play on in DMs, then told the match had ended.
    Discord is asked first: the removal ends the match once heard, the players told once."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    since = max(m for messages in world.env.backend.messages.values() for m in messages)
    # Removed; the GUILD_DELETE is on its way, not heard yet.
    held: list[tuple[Any, Any]] = []
    emit = world.env.backend.emit
    monkeypatch.setattr(world.env.backend, "emit",
                        lambda event, payload: held.append((event, payload)))
    world.env.backend.remove_guild(world.guild.id)
    monkeypatch.setattr(world.env.backend, "emit", emit)
    assert held and world.bot.get_guild(world.guild.id) is not None
    svc.delivery.enqueue(live, Batch(table=True, hands={0, 1}))
    await flush(world)
    assert not live.channel_lost
    assert _db(db_path, "SELECT channel_lost FROM matches WHERE id = ?", live.id) == [(0,)]
    told = [m.content for member in (world.alice, world.bob)
            for m in member.user.dm_channel.history() if m.id > since]
    assert told == [], told  # nobody told to play on in DMs
    for event, payload in held:
        emit(event, payload)
    await world.env.settle()
    await flush(world)
    _ended_unrated(db_path, live.id)
    for member in (world.alice, world.bob):
        _told_last(member, since, live.id, f"I was removed from the server {world.guild.name}")
