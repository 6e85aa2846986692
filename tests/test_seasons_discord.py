"""Seasons on Discord: a server turns them on, the leaderboard shows the current season, and a
season's end (by the injected clock, never waited for) posts its summary once, restart or not."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from simcord import assert_error

from bot import UmtaliBot
from cogs.umtali.season_summaries import season_tick
from data.ratings import MODEL
from tests.discord_helpers import (
    World,
    challenge,
    custom_ids,
    flush,
    manager,
    start_match,
    submit_cut,
    the_match,
    thread_of,
)
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_lang_announce_once import enforced_nonces  # noqa: F401 (a fixture)
from tests.test_records import forfeited
from tests.test_records_discord import board_lines, resign, text_of

DECEMBER = dt.datetime(2026, 12, 15, 12, tzinfo=dt.UTC).timestamp()
NEW_YEAR = dt.datetime(2027, 1, 1, 0, 0, 30, tzinfo=dt.UTC).timestamp()



def _content(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


def _title(result: Any) -> str:
    assert result.acknowledged and result.response is not None
    return str(result.response.embeds[0].title)


def _shown(text: str) -> str:
    """Numbers as the bot shows them: a negative one with a true minus sign."""
    return text.replace("-", "\u2212")


def _rating(line: str) -> float:
    """The rating on a board line: "`  1.` **ben** · 3.1 · won 2 of 2"."""
    return float(line.split(" · ")[1].replace("\u2212", "-"))  # (a true minus sign shown)


async def _seasons_on(world: World, language: str | None = None) -> tuple[Any, Any]:
    """A manager turns monthly seasons on, with summaries in a channel of their own."""
    summaries = world.guild.create_text_channel("seasons")
    options: dict[str, Any] = {"seasons": "monthly", "season_channel": summaries}
    if language:
        options["language"] = language
    boss = manager(world)
    ok = await boss.slash(world.channel, "umtali-admin settings", **options)
    assert ok.ephemeral and f"- Seasons: monthly\n- Season summaries: <#{summaries.id}>" in \
        _content(ok)
    return summaries, boss


async def _session(world: World, loser: Any, winner: Any) -> None:
    """``loser`` challenges ``winner``, then resigns."""
    posted = await challenge(world, loser, winner)
    accept = next(c for c in custom_ids(posted.response) if c.endswith(":accept"))
    assert (await submit_cut(winner,
        await winner.click(posted.response, custom_id=accept))).acknowledged
    await flush(world)
    await resign(world, loser, the_match(world))


async def _ben_beats_ada_twice(world: World) -> None:
    world.clock.now = DECEMBER
    for _ in range(2):
        await resign(world, world.alice, await start_match(world))


async def test_an_ended_season_nobody_played_in_does_not_invite_play(world: World) -> None:
    """Its board cannot be joined any more: it says nobody played, not "finish a session to
    appear here" (which the running season's empty board says)."""
    await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    world.clock.now = NEW_YEAR
    january = await world.carol.slash(world.channel, "umtali leaderboard")
    assert "No rated sessions in this season yet" in text_of(january)
    world.clock.now = dt.datetime(2027, 2, 2, tzinfo=dt.UTC).timestamp()
    await season_tick(world.bot)
    await world.env.settle()
    past = await world.carol.slash(world.channel, "umtali leaderboard", season="2027-01")
    assert _title(past) == "Umtali leaderboard · Railway Club · January 2027 season"
    said = text_of(past)
    assert "No rated session was played in this season." in said and "finish" not in said, said
    now = await world.carol.slash(world.channel, "umtali leaderboard")
    assert _title(now) == "Umtali leaderboard · Railway Club · February 2027 season"
    assert "No rated sessions in this season yet" in text_of(now)


async def test_a_month_ends_once_with_its_summary_and_stays_readable(world: World) -> None:
    summaries, _ = await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    december = await world.carol.slash(world.channel, "umtali leaderboard")
    assert _title(december) == "Umtali leaderboard · Railway Club · December 2026 season"
    ben, ada = board_lines(december)
    assert "**ben**" in ben and "won 2 of 2" in ben and "**ada**" in ada and "won 0 of 2" in ada
    december_rating = _rating(ben)

    # The year turns: the tick ends December and posts its summary, once.
    world.clock.now = NEW_YEAR
    assert await season_tick(world.bot) == 1
    await world.env.settle()
    [summary] = summaries.history()
    embed = summary.embeds[0]
    assert embed.title == "The December 2026 season is over"
    assert "🥇 `1.` **ben**" in str(embed.description) and "won 2 of 2" in str(embed.description)
    assert "2 players took part." in str(embed.description)
    assert "halfway back toward the starting rating" in str(embed.description)
    assert await season_tick(world.bot) == 0
    await world.env.settle()
    assert len(summaries.history()) == 1

    # January starts empty; ben's first session in it starts from his carried rating.
    january = await world.carol.slash(world.channel, "umtali leaderboard")
    assert _title(january) == "Umtali leaderboard · Railway Club · January 2027 season"
    assert "No rated sessions in this season yet" in text_of(january)
    await _session(world, world.carol, world.bob)
    ben_january, cy_january = board_lines(
        await world.carol.slash(world.channel, "umtali leaderboard"))
    assert "**ben**" in ben_january and "won 1 of 1" in ben_january and "**cy**" in cy_january
    fresh_winner = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[0, 1])[0][0]
    assert _rating(ben_january) > fresh_winner.ordinal() + 0.5
    assert _rating(ben_january) != pytest.approx(december_rating)

    # December is still there to read, and all time holds everything.
    past = await world.carol.slash(world.channel, "umtali leaderboard", season="2026-12")
    assert _title(past) == "Umtali leaderboard · Railway Club · December 2026 season"
    ben_december, ada_december = board_lines(past)
    assert "**ben**" in ben_december and "won 2 of 2" in ben_december
    assert "**ada**" in ada_december and "won 0 of 2" in ada_december
    always = await world.carol.slash(world.channel, "umtali leaderboard", season="all")
    assert _title(always) == "Umtali leaderboard · Railway Club · all time"
    lines = board_lines(always)
    assert len(lines) == 3 and "**ben**" in lines[0] and "won 3 of 3" in lines[0]

    # The season option offers the server's seasons, newest first, after all time.
    offered = await world.carol.autocomplete(world.channel, "umtali leaderboard", "season", "")
    assert [c["value"] for c in offered] == ["all", "2027-01", "2026-12"]
    assert offered[2]["name"] == "December 2026 season · 2 players"
    assert [c["value"] for c in await world.carol.autocomplete(
        world.channel, "umtali leaderboard", "season", "2026")] == ["2026-12"]
    # A season the server never had, and seasons on the all-servers board: short answers.
    never = await world.carol.slash(world.channel, "umtali leaderboard", season="2025-06")
    assert never.ephemeral and "no season “2025-06”" in _content(never)
    everywhere = await world.carol.slash(world.channel, "umtali leaderboard", scope="global",
                                         season="2026-12")
    assert everywhere.ephemeral and "all servers is all time" in _content(everywhere)
    assert "all servers" in _title(await world.carol.slash(world.channel, "umtali leaderboard",
                                                           scope="global"))


async def test_a_restart_across_the_turn_posts_the_summary_once(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    summaries, _ = await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    # The bot is down at midnight; it starts again in January on the same database.
    world.clock.now = NEW_YEAR + 3600
    for _ in range(2):
        await world.env.restart_bot(make_bot())
        await world.env.settle()
    [summary] = summaries.history()
    assert summary.embeds[0].title == "The December 2026 season is over"
    assert "**ben**" in str(summary.embeds[0].description)
    assert await season_tick(world.bot) == 0
    board = await world.carol.slash(world.channel, "umtali leaderboard")
    assert _title(board).endswith("January 2027 season")


@pytest.mark.usefixtures("enforced_nonces")
async def test_a_summary_posted_but_not_marked_is_not_posted_twice_by_the_restart(
        world: World, make_bot: Callable[[], UmtaliBot], monkeypatch: pytest.MonkeyPatch) -> None:
    summaries, _ = await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    world.clock.now = NEW_YEAR
    # The summary is posted, and the bot stops before marking it so (here: the mark fails).
    assert world.bot.matches is not None
    store = world.bot.matches.store

    async def stopped(*args: object) -> bool:
        raise RuntimeError("the bot stopped here")

    with monkeypatch.context() as patched:
        patched.setattr(type(store.seasons), "mark_announced", stopped)
        assert await season_tick(world.bot) == 1
    await world.env.settle()
    # The restart posts it again at once, with the same nonce: Discord gives the first back.
    await world.env.restart_bot(make_bot())
    await world.env.settle()
    assert [m.embeds[0].title for m in summaries.history()] == ["The December 2026 season is over"]
    assert world.bot.matches is not None
    assert await world.bot.matches.store.seasons.unannounced() == []


async def test_a_russian_server_reads_its_seasons_in_russian(world: World) -> None:
    summaries, _ = await _seasons_on(world, language="ru")
    await _ben_beats_ada_twice(world)
    december = await world.carol.slash(world.channel, "umtali leaderboard")
    assert _title(december) == "Таблица лидеров Умтали · Railway Club · сезон за декабрь 2026"
    world.clock.now = NEW_YEAR
    assert await season_tick(world.bot) == 1
    await world.env.settle()
    [summary] = summaries.history()
    assert summary.embeds[0].title == "Сезон за декабрь 2026 окончен"
    text = str(summary.embeds[0].description)
    assert "**ben**" in text and "побед: 2 из 2" in text and "В сезоне сыграли 2 игрока." in text
    always = await world.carol.slash(world.channel, "umtali leaderboard", season="all")
    assert _title(always) == "Таблица лидеров Умтали · Railway Club · за всё время"


async def test_a_failed_post_is_tried_again_and_a_closed_channel_is_not(world: World) -> None:
    summaries, _ = await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    world.clock.now = NEW_YEAR
    world.env.inject_error("POST", f"/channels/{summaries.id}/messages", status=500, times=None)
    assert await season_tick(world.bot) == 0
    world.env.backend.faults.clear()
    assert await season_tick(world.bot) == 1
    await world.env.settle()
    assert len(summaries.history()) == 1
    # A month later the channel is closed to the bot: no summary, and no retry for ever.
    world.clock.now = dt.datetime(2027, 1, 20, tzinfo=dt.UTC).timestamp()
    await resign(world, world.alice, await start_match(world))
    world.clock.now = dt.datetime(2027, 2, 1, 0, 1, tzinfo=dt.UTC).timestamp()
    world.env.inject_error("POST", f"/channels/{summaries.id}/messages", status=403,
                           code=50013, message="Missing Permissions", times=None)
    assert await season_tick(world.bot) == 0
    assert world.bot.matches is not None
    assert await world.bot.matches.store.seasons.unannounced() == []


async def test_seasons_off_keeps_the_all_time_board_and_settings_keep_seasons(
        world: World) -> None:
    await resign(world, world.alice, await start_match(world))
    plain = await world.carol.slash(world.channel, "umtali leaderboard")
    assert _title(plain) == "Umtali leaderboard · Railway Club"
    summaries, boss = await _seasons_on(world)
    ok = await boss.slash(world.channel, "umtali-admin settings", threads=False)
    assert "- Threads: off" in _content(ok) and f"summaries: <#{summaries.id}>" in _content(ok)
    assert world.bot.matches is not None
    kept = await world.bot.matches.store.guild_settings(world.guild.id)
    assert (kept.seasons, kept.season_channel_id, kept.threads) == (
        "monthly", summaries.id, False)
    off = await boss.slash(world.channel, "umtali-admin settings", seasons="off")
    # (the channel kept for when they are turned on again, shown: review110)
    assert (f"- Seasons: off\n- Summaries' channel, should seasons be turned on: "
            f"<#{summaries.id}>" in _content(off))
    assert _title(await world.carol.slash(world.channel, "umtali leaderboard")) == \
        "Umtali leaderboard · Railway Club"


async def test_only_a_manager_sets_seasons(world: World) -> None:
    [admin] = [c for c in await world.bot.tree.fetch_commands() if c.name == "umtali-admin"]
    world.guild.set_command_permissions(admin, {world.alice: True})
    refused = await world.alice.slash(world.channel, "umtali-admin settings", seasons="monthly",
                                      season_channel=world.channel)
    assert refused.ephemeral and "Manage Server" in _content(refused)
    assert_error(world.env, contains="Manage")
    assert world.bot.matches is not None
    kept = await world.bot.matches.store.guild_settings(world.guild.id)
    assert (kept.seasons, kept.season_channel_id) == ("off", None)


async def test_a_cadence_the_bot_does_not_offer_changes_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        admin = next(c for c in server.commands if c["name"] == "umtali-admin")
        settings = next(o for o in admin["options"] if o["name"] == "settings")
        assert {"seasons", "season_channel"} <= {o["name"] for o in settings["options"]}
        seasons = next(o for o in settings["options"] if o["name"] == "seasons")
        seasons["choices"].append({"name": "weekly", "value": "weekly"})
        manager = server.add_member("boss")
        answer = await server.slash(manager, server.channel_id, "umtali-admin settings",
                                    {"seasons": "weekly", "threads": False})
        assert answer.ephemeral and "weekly" in answer.text()
        assert bot.matches is not None
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT threads, seasons FROM guild_settings").fetchall()
    assert rows in ([], [(1, "off")])


async def test_a_season_board_turns_its_pages(world: World) -> None:
    await _seasons_on(world)
    assert world.bot.matches is not None
    store = world.bot.matches.store
    world.clock.now = DECEMBER
    for n in range(6):  # twelve players, one session each
        await forfeited(store, (100 + 2 * n, f"p{2 * n}"), (101 + 2 * n, f"p{2 * n + 1}"),
                        guild=world.guild.id, now=DECEMBER + n)
    first = await world.carol.slash(world.channel, "umtali leaderboard")
    assert _title(first).endswith("December 2026 season") and len(board_lines(first)) == 10
    assert first.response is not None
    following = f"umtali:lb:{world.guild.id}:2026-12:2:{world.carol.id}"
    assert following in custom_ids(first.response)
    second = await world.carol.click(first.response, custom_id=following)
    assert second.acknowledged
    [shown] = [m for m in world.channel.history() if m.id == first.response.id]
    assert str(shown.embeds[0].title).endswith("December 2026 season")
    assert len(str(shown.embeds[0].description).split("\n")) == 2


async def test_a_manager_clears_the_season_channel(world: World) -> None:
    summaries, boss = await _seasons_on(world)
    both = await boss.slash(world.channel, "umtali-admin settings", clear_season_channel=True,
                            season_channel=world.channel, threads=False)
    assert both.ephemeral and "not both: nothing was changed" in _content(both)
    assert world.bot.matches is not None
    store = world.bot.matches.store
    kept = await store.guild_settings(world.guild.id)
    assert (kept.seasons, kept.season_channel_id, kept.threads) == ("monthly", summaries.id, True)
    cleared = await boss.slash(world.channel, "umtali-admin settings", clear_season_channel=True)
    assert cleared.ephemeral and "- Season summaries: not posted (no channel set)" in \
        _content(cleared)
    kept = await store.guild_settings(world.guild.id)
    assert (kept.seasons, kept.season_channel_id) == ("monthly", None)
    again = await boss.slash(world.channel, "umtali-admin settings", season_channel=summaries)
    assert f"summaries: <#{summaries.id}>" in _content(again)
    assert (await store.guild_settings(world.guild.id)).season_channel_id == summaries.id


async def test_the_final_card_shows_the_season_and_the_all_time_ratings(world: World) -> None:
    """On a server with seasons, whose board shows the season, the final card gives the
    season's ratings before and after, then the all-time ones, each set named (it gave the
    all-time ones alone, unnamed, which the season's board did not show)."""
    await _seasons_on(world)
    world.clock.now = DECEMBER
    await resign(world, world.alice, first := await start_match(world))
    live = await start_match(world)
    await resign(world, world.alice, live)
    table = next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)
    fields = {f["name"]: f["value"] for f in table.embeds[1].to_dict().get("fields", [])}
    lines = fields["Ratings"].splitlines()
    assert lines[0] == "December 2026 season:" and lines[3] == "All time:", lines
    assert world.bot.matches is not None
    store = world.bot.matches.store
    season = await store.records.season_changes(live.id)
    assert season is not None and season[0] == "2026-12"
    for seat, (before, after) in season[1].items():
        assert _shown(f"{live.names[seat]}: {before:.1f} → {after:.1f}") in lines[1:3]
    for seat, (before, after) in (await store.records.rating_changes(live.id)).items():
        assert _shown(f"{live.names[seat]}: {before:.1f} → {after:.1f}") in lines[4:6]
    # The season's board says the same as its card.
    board = await world.carol.slash(world.channel, "umtali leaderboard")
    winner = live.session.winner
    assert winner is not None
    assert f"{season[1][winner][1]:.1f}" in text_of(board)
    assert first != live


async def test_stats_give_the_seasons_place_before_all_time(world: World) -> None:
    """A member's stats on a server with seasons give their place on the season's board (the
    board the server shows by default) above the all-time rating; none until they play in
    the season."""
    await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    assert world.bot.matches is not None
    store = world.bot.matches.store
    standing = await store.seasons.standing(world.guild.id, "2026-12", world.bob.id)
    assert standing is not None and (standing.rank, standing.players) == (1, 2)
    stats = await world.bob.slash(world.channel, "umtali stats")
    here = text_of(stats).split("On this server", 1)[1]
    first, second = here.strip().splitlines()[:2]
    assert first == f"December 2026 season: rating **{standing.value:.1f}**, #1 of 2", first
    assert second.startswith("All time: rating **"), second  # named (review142)
    # A new season, not played yet: no place on its board.
    world.clock.now = NEW_YEAR + 60
    await season_tick(world.bot)
    await world.env.settle()
    assert await store.seasons.running(world.guild.id) == "2027-01"
    stats = await world.bob.slash(world.channel, "umtali stats")
    assert "January 2027" not in text_of(stats) and "Rating **" in text_of(stats)
