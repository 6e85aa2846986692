"""fix160: ``/umtali-admin matches`` shows a server's admin the matches in play on their server
(never another server's), read from the database (every process's matches), one line each:
the players, practice or rated, the rules, the score, whose turn and since when, the clock,
where it is played and its number; oldest move first. SimCord, a real SQLite file."""

from __future__ import annotations

import logging
import re
import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord import assert_error
from simcord.backend.errors import SetupError

from tests.discord_helpers import (
    World,
    accept,
    challenge,
    flush,
    manager,
    play,
    start_match,
    start_practice,
)
from tests.test_records_discord import resign

#: Discord's limit on an embed's description.
DESCRIPTION = 4096
#: A card as any text shows one: a rank and a suit's sign.
CARD = re.compile(r"[♠♥♦♣]")


def _db(db_path: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as c:
        return c.execute(sql, params).fetchall()


def _copies(db_path: Path, match_id: int, count: int, guild_id: int,
            **columns: object) -> list[int]:
    """``count`` copies of the match's row, in play on ``guild_id`` (``columns`` changed):
    their ids. Players of copies on the same server are not in ``active_players``: only the
    listing reads them."""
    with sqlite3.connect(db_path) as c:
        cols = [r[1] for r in c.execute("PRAGMA table_info(matches)") if r[1] != "id"]
        listed = ", ".join(cols)
        changed = {"guild_id": guild_id, **columns}
        picked = ", ".join("?" if col in changed else col for col in cols)
        values = [changed[col] for col in cols if col in changed]
        return [int(c.execute(f"INSERT INTO matches ({listed}) SELECT {picked} FROM matches "
                              "WHERE id = ?", (*values, match_id)).lastrowid or 0)
                for _ in range(count)]


async def _listing(world: World, admin: Any) -> discord.Message:
    answer = await admin.slash(world.channel, "umtali-admin matches")
    assert answer.acknowledged and answer.ephemeral, answer
    await flush(world)
    return answer.response  # type: ignore[no-any-return]


def _text(message: discord.Message) -> str:
    return "\n".join([message.content or ""] + [
        f"{e.title}\n{e.description}\n{e.footer.text}" for e in message.embeds])


def _lines(message: discord.Message) -> list[str]:
    [embed] = message.embeds
    return (embed.description or "").split("\n")


def _line_of(message: discord.Message, match_id: int) -> str:
    [line] = [line for line in _lines(message) if f"#{match_id}`" in line]
    return line


def _errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_this_servers_matches_oldest_move_first_never_another_servers(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    boss = manager(world)
    first = await start_match(world, turn_timer=0)
    elsewhere = _copies(db_path, first.id, 1, world.guild.id + 1)[0]
    world.clock.advance(3600)
    dee = world.guild.add_member(world.env.create_user("dee"))
    offered = await challenge(world, world.carol, dee, time_control="blitz")
    assert (await accept(dee, offered.response)).acknowledged
    await flush(world)
    [second] = [m for m in world.bot.matches.matches.values()  # type: ignore[union-attr]
                if m.id != first.id]
    world.clock.advance(600)
    # A move in the first match: now the second has waited longest.
    await play(world, first, first.session.legal_moves()[0])
    await flush(world)
    message = await _listing(world, boss)
    text = _text(message)
    assert f"#{elsewhere}`" not in text, text
    [one, two] = [line for line in _lines(message) if line.startswith("`#")]
    assert f"#{second.id}`" in one and f"#{first.id}`" in two, text
    assert "cy vs dee" in one and "ada vs ben" in two, text
    assert "rated" in one and "blitz" in one and "English" in one, one
    last = _db(db_path, "SELECT MAX(at) FROM moves WHERE match_id = ?", first.id)[0][0]
    to_act = ("ada", "ben")[first.session.to_act]
    assert f"{to_act} to play" in two and f"<t:{int(last)}:R>" in two, two
    assert f"<#{first.channel_id}>" in two and f"<#{second.channel_id}>" in one, text
    won, game, hand = first.session.games_won, first.session.game, first.session.hand_no
    assert f"games {won[0]}–{won[1]}" in two and f"game {game}, hand {hand}" in two, two
    # Nothing hidden: no card, no count of cards.
    assert not CARD.search(text) and "card" not in text, text
    assert "2 matches" in text, text
    assert not _errors(caplog)


async def test_a_practice_match_and_a_lost_channel(world: World, db_path: Path) -> None:
    boss = manager(world)
    live = await start_practice(world)
    [lost] = _copies(db_path, live.id, 1, world.guild.id, channel_lost=1)
    message = await _listing(world, boss)
    line = _line_of(message, live.id)
    assert "practice" in line and "Computer" in line and "ada" in line, line
    assert f"<#{live.channel_id}>" in line, line
    gone = _line_of(message, lost)
    assert "in direct messages" in gone, gone


async def test_none_in_play_is_said(world: World, db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world)
    _copies(db_path, live.id, 1, world.guild.id + 1)
    await resign(world, world.alice, live)
    message = await _listing(world, boss)
    assert not message.embeds and "No match is in play on this server" in message.content, \
        _text(message)


async def test_many_matches_fit_and_say_how_many_more(world: World, db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world)
    ids = _copies(db_path, live.id, 120, world.guild.id,
                  player0_name="W" * 32, player1_name="M" * 32)
    message = await _listing(world, boss)
    [embed] = message.embeds
    assert len(embed) <= 6000 and len(embed.description or "") <= DESCRIPTION
    lines = _lines(message)
    listed = [line for line in lines if line.startswith("`#")]
    assert lines[-1] == f"…and {121 - len(listed)} more matches", lines[-1]
    assert 10 <= len(listed) < 121
    # Every line whole: each ends with where it is played.
    assert all(line.endswith(f"<#{live.channel_id}>") for line in listed), listed
    assert "121 matches" in (embed.title or ""), embed.title
    # The oldest first: the copies, made after the match's last move, come after it.
    assert f"#{live.id}`" in listed[0] and f"#{ids[0]}`" in listed[1], listed[:2]


async def test_hostile_names_stay_names(world: World, db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world)
    [copy] = _copies(db_path, live.id, 1, world.guild.id,
                     player0_name="@everyone **big** <@123>",
                     player1_name="שרה https://evil.example/x")
    since = len(world.env.http_requests)
    message = await _listing(world, boss)
    line = _line_of(message, copy)
    [sent] = [r.json for r in world.env.http_requests[since:] if r.method == "POST"
              and r.path.endswith("/callback")]
    # Nothing in the answer may ping anyone, whatever a name holds.
    assert sent is not None and sent["data"]["allowed_mentions"] == {"parse": []}, sent
    assert "@everyone" not in line and "<@123>" not in line, line
    assert "\\*\\*big\\*\\*" in line and "https://" not in line, line
    assert "\u2068שרה" in line and "\u2069" in line, line


async def test_a_member_without_manage_server_is_refused(world: World, db_path: Path) -> None:
    await start_match(world)
    with pytest.raises(SetupError, match="not visible"):
        await world.alice.slash(world.channel, "umtali-admin matches")
    [admin] = [c for c in await world.bot.tree.fetch_commands() if c.name == "umtali-admin"]
    world.guild.set_command_permissions(admin, {world.alice: True})
    refused = await world.alice.slash(world.channel, "umtali-admin matches")
    assert refused.ephemeral and "Manage Server" in str(refused.response.content)
    assert not refused.response.embeds
    assert_error(world.env, contains="Manage")


async def test_in_russian(world: World, db_path: Path, locales: dict[int, str]) -> None:
    boss = manager(world)
    locales[boss.user.id] = "ru"
    said = await _listing(world, boss)
    assert "Ни одного матча" in said.content, said.content
    live = await start_match(world)
    [lost] = _copies(db_path, live.id, 1, world.guild.id, channel_lost=1)
    message = await _listing(world, boss)
    line = _line_of(message, live.id)
    won = live.session.games_won
    assert "ada — ben" in line and "рейтинговый" in line, line
    assert f"партии {won[0]}:{won[1]}" in line and "ходит" in line, line
    assert "в личных сообщениях" in _line_of(message, lost)
    assert "2 матча" in (message.embeds[0].title or ""), message.embeds[0].title


async def test_an_unreadable_match_is_listed_as_such(world: World, db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world)
    [broken] = _copies(db_path, live.id, 1, world.guild.id, state='{"broken')
    message = await _listing(world, boss)
    line = _line_of(message, broken)
    [(started,)] = _db(db_path, "SELECT created_at FROM matches WHERE id = ?", live.id)
    assert "could not be read" in line and f"started <t:{int(started)}:R>" in line, line
    assert "could not be read" not in _line_of(message, live.id)


async def test_the_database_down_is_said_plainly(world: World, db_path: Path,
                                                 caplog: pytest.LogCaptureFixture,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    boss = manager(world)
    await start_match(world)
    db = world.bot.matches.store.db  # type: ignore[union-attr]

    async def locked(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(db, "fetchall", locked)
    message = await _listing(world, boss)
    assert "try again in a moment" in message.content and not message.embeds, message.content
    assert not _errors(caplog)
    monkeypatch.undo()
    assert "ada vs ben" in _text(await _listing(world, boss))
