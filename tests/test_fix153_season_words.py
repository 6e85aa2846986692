"""fix153: seasons named and dates written as a member reads them, through the bot: "the
December 2026 season", «сезон за декабрь 2026», not "Season 2026-12"; a finished session's
date in the history's list and its replay file as the reader's language writes one, not ISO.
A summary posted by the version before, under its old title (with the season's id), is still
found as posted; a season typed by its name, in either language, is found as by its id."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot import UmtaliBot
from cogs.umtali import season_summaries as season_cogs
from cogs.umtali.season_summaries import CLAIM, TICK_EVERY, season_tick
from data.models import BoardPage
from settings import Settings
from tests.discord_helpers import World, manager, start_match, thread_of
from tests.test_records_discord import resign
from tests.test_seasons_discord import (
    DECEMBER,
    NEW_YEAR,
    _ben_beats_ada_twice,
    _content,
    _seasons_on,
    _title,
)
from umtali.i18n import Tr


async def test_an_english_server_reads_its_season_by_its_name(world: World) -> None:
    summaries, _ = await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    board = await world.carol.slash(world.channel, "umtali leaderboard")
    assert _title(board) == "Umtali leaderboard · Railway Club · December 2026 season"
    offered = await world.carol.autocomplete(world.channel, "umtali leaderboard", "season", "")
    assert [(c["value"], c["name"]) for c in offered] == [
        ("all", "all time"), ("2026-12", "December 2026 season · 2 players")]
    stats = await world.bob.slash(world.channel, "umtali stats")
    assert "December 2026 season: rating **" in str(stats.response.embeds[0].fields[0].value)
    world.clock.now = NEW_YEAR
    assert await season_tick(world.bot) == 1
    await world.env.settle()
    [summary] = summaries.history()
    assert summary.embeds[0].title == "The December 2026 season is over"


async def test_a_russian_server_reads_its_season_by_its_name(
        world: World, locales: dict[int, str]) -> None:
    summaries, boss = await _seasons_on(world, language="ru")
    await _ben_beats_ada_twice(world)
    board = await world.carol.slash(world.channel, "umtali leaderboard")
    assert _title(board) == "Таблица лидеров Умтали · Railway Club · сезон за декабрь 2026"
    locales[boss.id] = "ru"  # (a manager's reply is in their own client's language)
    off = await boss.slash(world.channel, "umtali-admin settings", seasons="off")
    said = _content(off)
    assert "- Сезоны: выкл. после сезона за декабрь 2026\n" in said, said
    assert "Сезон за декабрь 2026 всё равно закончится в обычный срок" in said, said
    world.clock.now = NEW_YEAR
    assert await season_tick(world.bot) == 1
    await world.env.settle()
    [summary] = summaries.history()
    assert summary.embeds[0].title == "Сезон за декабрь 2026 окончен"


async def test_the_final_card_names_the_season(world: World) -> None:
    await _seasons_on(world)
    world.clock.now = DECEMBER
    live = await start_match(world)
    await resign(world, world.alice, live)
    table = next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)
    fields = {f["name"]: f["value"] for f in table.embeds[1].to_dict().get("fields", [])}
    assert fields["Ratings"].splitlines()[0] == "December 2026 season:"


@pytest.mark.parametrize("typed", ["December 2026", "december  2026", "декабрь 2026",
                                   "Декабрь 2026", "2026-12", "2026-12".upper()])
async def test_a_season_typed_by_its_name_is_found(world: World, typed: str) -> None:
    await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    board = await world.carol.slash(world.channel, "umtali leaderboard", season=typed)
    assert _title(board) == "Umtali leaderboard · Railway Club · December 2026 season", typed


async def test_a_season_never_had_is_refused_by_its_name_too(world: World) -> None:
    await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    never = await world.carol.slash(world.channel, "umtali leaderboard", season="November 2026")
    assert never.ephemeral and "no season “November 2026”" in _content(never)


async def test_the_suggestions_match_the_name_and_the_id(world: World) -> None:
    await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    for typed in ("dec", "December 2026", "2026-12", "season 2026", "december season"):
        offered = await world.carol.autocomplete(world.channel, "umtali leaderboard", "season",
                                                 typed)
        assert [c["value"] for c in offered] == ["2026-12"], typed
    assert await world.carol.autocomplete(world.channel, "umtali leaderboard", "season",
                                          "november") == []


async def test_a_quarter_is_found_by_its_name_in_either_language(world: World) -> None:
    boss = manager(world)
    summaries = world.guild.create_text_channel("seasons")
    await boss.slash(world.channel, "umtali-admin settings", seasons="quarterly",
                     season_channel=summaries)
    await _ben_beats_ada_twice(world)
    for typed in ("q4 2026", "Q4 2026", "4-й квартал 2026", "2026-q4"):
        board = await world.carol.slash(world.channel, "umtali leaderboard", season=typed)
        assert _title(board) == "Umtali leaderboard · Railway Club · Q4 2026 season", typed
        world.clock.advance(60)


def _old_titled(old: str) -> Any:
    """``summary_embed`` as the version before titled it: by the season's id."""
    made = season_cogs.summary_embed

    def embed(season: str, top: BoardPage, tr: Tr, followed: bool = True,
              more: int = 0) -> discord.Embed:
        shown = made(season, top, tr, followed, more)
        shown.title = old.format(season=season)
        return shown
    return embed


@pytest.mark.parametrize("language, old", [(None, "Season {season} is over"),
                                           ("ru", "Сезон {season} окончен")])
async def test_a_summary_posted_by_the_version_before_is_not_posted_again(
        world: World, db_path: Any, made_bots: list[UmtaliBot],
        monkeypatch: pytest.MonkeyPatch, language: str | None, old: str) -> None:
    """The version before posted December's summary, titled by its id, and was stopped before
    marking it posted; the new version takes it over past the claim's time (and the nonce's):
    it finds the old-worded summary in the channel and posts no second one."""
    summaries, _ = await _seasons_on(world, language)
    await _ben_beats_ada_twice(world)
    world.clock.now = NEW_YEAR
    assert world.bot.matches is not None
    store = world.bot.matches.store

    async def stopped(*args: object) -> bool:
        raise RuntimeError("stopped here")

    with monkeypatch.context() as patched:
        patched.setattr(type(store.seasons), "mark_announced", stopped)
        patched.setattr(season_cogs, "summary_embed", _old_titled(old))
        assert await season_tick(world.bot) == 1
    await world.env.settle()
    world.clock.now = NEW_YEAR + CLAIM + TICK_EVERY
    other = UmtaliBot(Settings(token="test", db_path=db_path, process="p2"), timers=False,
                      computer_pause=0, clock=world.clock)
    made_bots.append(other)
    await world.env.restart_bot(other)
    await world.env.settle()
    await season_tick(other)
    await world.env.settle()
    assert [m.embeds[0].title for m in summaries.history()] == [old.format(season="2026-12")]
    assert other.matches is not None
    assert await other.matches.store.seasons.unannounced() == []


def _options(message: Any) -> list[dict[str, Any]]:
    """The options of a message's select menu."""
    for row in message.components:
        for c in (row.get("components", []) if isinstance(row, dict) else row.children):
            options = c.get("options") if isinstance(c, dict) else getattr(c, "options", None)
            if options:
                return [o if isinstance(o, dict) else o.to_dict() for o in options]
    raise AssertionError("no select menu")


@pytest.mark.parametrize("language, when, file_line", [
    ("en", "Dec 15, 2026, 12:00 UTC", "# Umtali session #{match}, finished Dec 15, 2026, "
                                      "12:00 UTC"),
    ("ru", "15 дек. 2026 г., 12:00 UTC", "# Матч Умтали #{match}, завершён 15 дек. 2026 г., "
                                         "12:00 UTC"),
])
async def test_the_history_and_the_replay_file_give_the_date_in_words(
        world: World, locales: dict[int, str], language: str, when: str,
        file_line: str) -> None:
    world.clock.now = DECEMBER
    live = await start_match(world)
    await resign(world, world.alice, live)
    locales[world.alice.id] = language
    history = await world.alice.slash(world.channel, "umtali history")
    [option] = _options(history.response)
    assert option["description"].replace("\u202f", " ") == when
    chosen = await world.alice.select(history.response, [str(live.id)],
                                      custom_id=f"umtali:rp:{world.guild.id}")
    text = (await chosen.response.attachments[0].read()).decode()
    assert text.replace("\u202f", " ").splitlines()[0] == file_line.format(match=live.id)
