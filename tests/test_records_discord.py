"""Records on Discord: results show in stats, history and leaderboards, and count once."""

from __future__ import annotations

import io
import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import Settings, UmtaliBot
from cogs.umtali.board_posts import PUBLIC_EVERY
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from data import records
from data.models import PlayerStats
from data.records import GLOBAL
from tests.discord_helpers import World, custom_ids, cut, flush, play_out, start_match, thread_of
from tests.test_migrations import old_database
from tests.test_records import forfeited, record_moves
from umtali import cli
from umtali.codec import session_from_json, session_to_json
from umtali.moves import Move
from umtali.players import GreedyPlayer


def text_of(result: Any) -> str:
    """Everything an embed reply says, in one string."""
    assert result.acknowledged and result.response is not None
    parts = [str(result.response.content or "")]
    for e in result.response.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or ""]
        parts += [f"{f.name}\n{f.value}" for f in e.fields]
    return "\n".join(parts)


def board_lines(result: Any) -> list[str]:
    assert result.acknowledged and result.response is not None
    return str(result.response.embeds[0].description or "").split("\n")


async def resign(world: World, actor: Any, live: LiveMatch) -> None:
    ask = await actor.slash(world.channel, "umtali resign")
    done = await actor.click(ask.response,
                             custom_id=f"umtali:m:{live.id}:{live.version}:loss:resign")
    assert done.acknowledged
    await flush(world)
    assert live.over


async def resign_uncounted(world: World, actor: Any, live: LiveMatch,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``resign``, its count failing as it ends (left for the season tick's sweep)."""

    def broken(*args: object) -> PlayerStats:
        raise RuntimeError("stats on fire")

    with monkeypatch.context() as patched:
        patched.setattr(records, "seat_stats", broken)
        await resign(world, actor, live)


async def test_a_resignation_shows_in_stats_and_on_the_boards(world: World) -> None:
    live = await start_match(world)
    await resign(world, world.alice, live)
    ben = text_of(await world.bob.slash(world.channel, "umtali stats"))
    assert "Sessions: won 1, lost 0" in ben and "#1 of 2" in ben
    assert "won** against ada 0–0 · ada resigned" in ben
    ada = text_of(await world.carol.slash(world.channel, "umtali stats", member=world.alice,
                                          versus=world.bob))
    assert "Sessions: won 0, lost 1" in ada and "#2 of 2" in ada
    assert "sessions resigned or lost on time: 1" in ada
    assert "Head-to-head with ben" in ada and "Sessions won: ada 0, ben 1" in ada
    for scope in ("server", "global"):
        world.clock.advance(PUBLIC_EVERY)  # the channel's next public board (review116)
        board = await world.carol.slash(world.channel, "umtali leaderboard", scope=scope)
        assert not board.ephemeral
        first, second = board_lines(board)
        assert "**ben**" in first and "won 1 of 1" in first
        assert "**ada**" in second and "won 0 of 1" in second
        assert custom_ids(board.response) == []  # one page: no buttons
    nobody = text_of(await world.carol.slash(world.channel, "umtali stats"))
    assert "cy has not finished a session yet" in nobody


async def test_a_timeout_is_recorded_as_a_forfeit(world: World) -> None:
    live = await start_match(world, turn_timer=1)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    loser = (world.alice, world.bob)[live.session.to_act]
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    assert live.over
    stats = text_of(await loser.slash(world.channel, "umtali stats"))
    assert "sessions resigned or lost on time: 1" in stats and f"{loser.name} timed out" in stats
    history = await loser.slash(world.channel, "umtali history")
    assert history.ephemeral and f"{loser.name} timed out" in text_of(history)


async def test_practice_shows_in_stats_and_history_but_not_on_the_board(world: World) -> None:
    r = await world.alice.slash(world.channel, "umtali practice", level="easy")
    assert r.acknowledged
    await cut(world, r)
    assert world.bot.matches is not None
    [live] = world.bot.matches.matches.values()
    await resign(world, world.alice, live)
    stats = text_of(await world.alice.slash(world.channel, "umtali stats"))
    assert "Practice: 0 of 1 won against the computer" in stats and "Rating" not in stats
    assert "lost** against Computer (easy)" in stats
    board = text_of(await world.alice.slash(world.channel, "umtali leaderboard"))
    assert "No rated sessions yet" in board
    assert "Computer (easy)" in text_of(await world.alice.slash(world.channel, "umtali history"))


async def final_position(world: World, live: LiveMatch) -> Move:
    """Save all but the last move of a whole greedy session straight to the store, as the bot
    would have (a full session played through Discord takes too long), and return the last."""
    start = session_to_json(live.session)
    probe = session_from_json(start)
    while not probe.over:
        probe.apply(GreedyPlayer().choose(probe.view(probe.to_act)))
    assert world.bot.matches is not None
    await record_moves(world.bot.matches.store, live.id, session_from_json(start),
                       probe.moves[:-1])
    return probe.moves[-1]


async def restart(world: World, make_bot: Callable[[], UmtaliBot]) -> UmtaliBot:
    new = make_bot()
    await world.env.restart_bot(new)
    assert world.bot is new and new.matches is not None
    return new


async def test_a_played_out_session_counts_once_across_a_restart(
        world: World, make_bot: Callable[[], UmtaliBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    live = await start_match(world)
    last = await final_position(world, live)
    bot = await restart(world, make_bot)
    assert bot.matches is not None
    restored = bot.matches.matches[live.id]
    seat = restored.session.to_act
    # The bot stops between saving the last move and announcing it.
    monkeypatch.setattr(bot.matches.delivery, "enqueue", lambda live, batch: None)
    actor = (world.alice, world.bob)[seat]
    played = await actor.slash(thread_of(world, restored), "umtali play", move=str(last))
    assert played.acknowledged and restored.over
    assert "wins the session" not in thread_of(world, restored).history()[-1].content
    bot = await restart(world, make_bot)
    assert bot.matches is not None and live.id not in bot.matches.matches
    assert await bot.matches.store.count_backlog() == 0
    winner = restored.session.winner
    names = ("ada", "ben")
    for scope in ("server", "global"):
        board = await world.carol.slash(world.channel, "umtali leaderboard", scope=scope)
        first, second = board_lines(board)
        assert f"**{names[winner]}** · " in first and "won 1 of 1" in first
        assert f"**{names[1 - winner]}** · " in second and "won 0 of 1" in second
    stats = text_of(await world.alice.slash(world.channel, "umtali stats"))
    won = restored.session.games_won
    assert ("Sessions: won 1, lost 0" if winner == 0 else "Sessions: won 0, lost 1") in stats
    assert f"games: won {won[0]}, lost {won[1]}" in stats and "played out" in stats
    record = await bot.matches.store.records.record(GLOBAL, world.alice.id)
    assert record.rated.sessions == 1 and record.rated.points > 0


async def test_leaderboard_pages_survive_a_restart(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    assert world.bot.matches is not None
    store = world.bot.matches.store
    # Twelve sessions between people who have since left the server: 24 on the board.
    for i in range(12):
        await forfeited(store, (1000 + i, f"Gone {i}"), (2000 + i, f"Left {i}"),
                        guild=world.guild.id, now=1000.0 + i)
    first = await world.alice.slash(world.channel, "umtali leaderboard")
    message = first.response
    assert "Page 1 of 3" in text_of(first) and "**Gone 0** · " in text_of(first)
    prefix = f"umtali:lb:{world.guild.id}:server"
    mine = f":{world.alice.id}"  # a board posted in the channel turns for who asked alone
    assert custom_ids(message) == [f"{prefix}:0{mine}", f"{prefix}:2{mine}"]
    turned = await world.alice.click(message, custom_id=f"{prefix}:2{mine}")
    assert turned.acknowledged and "Page 2 of 3" in text_of(turned)
    # Eleventh, but tied with the ten on page 1: first (tests/test_ranks.py).
    assert "`  1.` **Gone 10**" in text_of(turned)
    await restart(world, make_bot)
    turned = await world.alice.click(message, custom_id=f"{prefix}:3{mine}")
    assert turned.acknowledged and "Page 3 of 3" in text_of(turned)
    assert custom_ids(message) == [f"{prefix}:2{mine}", f"{prefix}:4{mine}"]
    back = await world.alice.click(message, custom_id=f"{prefix}:2{mine}")
    assert "Page 2 of 3" in text_of(back)
    far = await world.alice.slash(world.channel, "umtali leaderboard", page=50)
    assert "Page 3 of 3" in text_of(far) and "` 13.` **Left 11**" in text_of(far)
    nobody = text_of(await world.alice.slash(world.channel, "umtali stats", member=world.carol,
                                             versus=world.alice))
    assert "cy has not finished a session yet" in nobody and "Sessions won: cy 0, ada 0" in nobody
    # Someone who left shows under the name they last played under.
    dora = world.env.create_user("dora")
    await forfeited(store, (dora.id, "Dora the Bold"), (world.alice.id, "ada"),
                    guild=world.guild.id, now=5000.0)
    gone = text_of(await world.alice.slash(world.channel, "umtali stats", member=dora,
                                           versus=world.alice))
    assert "Umtali · Dora the Bold" in gone and "Sessions won: Dora the Bold 1, ada 0" in gone


async def test_history_exports_a_replay_that_reproduces_the_session(world: World) -> None:
    live = await start_match(world, variant="russian", optional_melding=True)
    await play_out(world, live, moves=6)
    moves = [str(m) for m in live.session.moves]
    await resign(world, world.bob, live)
    history = await world.alice.slash(world.channel, "umtali history")
    assert history.ephemeral and f"`#{live.id}` **won** against ben" in text_of(history)
    chosen = await world.alice.select(history.response, [str(live.id)],
                                      custom_id=f"umtali:rp:{world.guild.id}")
    assert chosen.acknowledged and chosen.ephemeral
    # The replay in the notation, and the deals' check (tests/test_fair_deals_bot.py).
    [attachment, _] = chosen.response.attachments
    text = (await attachment.read()).decode()
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert "# Player 1 (seat 0): ada" in header and "# ben resigned here." in header
    command = next(h for h in header if h.startswith("# Replay: "))
    args = shlex.split(command.removeprefix("# Replay: python3 -m umtali ").split(" < ")[0])
    assert args[:2] == ["script", "--seed"] and "--optional-melding" in args
    assert args[args.index("--variant") + 1] == "russian"
    assert [line for line in text.splitlines() if not line.startswith("#")] == moves
    out = io.StringIO()
    assert cli.main([*args, "--json"], stdin=io.StringIO(text), stdout=out) == 0
    replayed = json.loads(out.getvalue())["state"]
    assert replayed["moves"] == moves and replayed["seed"] == live.session.seed
    assert replayed["rules"] == live.session.rules.to_json()


async def test_results_kept_before_records_count_when_the_bot_starts(
        world: World, made_bots: list[UmtaliBot], tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    await old_database(path, 1)
    bot = UmtaliBot(Settings(token="test", db_path=path), timers=False, computer_pause=0)
    made_bots.append(bot)
    await world.env.restart_bot(bot)
    assert bot.matches is not None
    assert await bot.matches.store.count_backlog() == 0
    board = (await bot.matches.store.records.leaderboard(GLOBAL, 1)).rows
    assert sorted(r.user_id for r in board) == [1, 2]
