"""Members whose names show nothing (Discord's "invisible name", stored as ``FALLBACK``), read
after their match: on the boards, in the season's summary, in stats, head-to-head and history.
There no seat means anything, so each is "Player" in the reader's language with the last
digits of their Discord id ("Игрок …4821"): two such on one board, or in one head-to-head, are
told apart, and the same member reads the same wherever shown. Before, all read the stored
English "Player". In Russian no noun goes before such a name ("игрок Игрок 1"): not in the
match's texts either. SimCord, a real SQLite file."""

from __future__ import annotations

import re

from simcord import Env

from cogs.umtali.season_summaries import summary_embed
from data.models import BoardPage, BoardRow, GuildSettings
from tests.discord_helpers import Clock, World, flush, start_match, thread_of
from tests.test_records_discord import resign, text_of
from umtali.i18n import EN, tr_for

RU = tr_for("ru")
BLANK = "\u3164"


def blank_world(simcord_env: Env, clock: Clock) -> World:
    guild = simcord_env.create_guild("Railway Club")
    channel = guild.create_text_channel("games")
    ada = simcord_env.create_user("ada_l", global_name=BLANK)
    ben = simcord_env.create_user("ben_b", global_name=BLANK * 2)
    return World(simcord_env, guild, channel,
                 guild.add_member(ada, nick=BLANK), guild.add_member(ben, nick=BLANK * 3),
                 guild.add_member(simcord_env.create_user("cy")), clock)


def _word(user_id: int, lang: str = "ru") -> str:
    return f"{'Игрок' if lang == 'ru' else 'Player'} …{user_id % 10000:04d}"


async def test_the_records_tell_such_members_apart_in_the_readers_words(
        simcord_env: Env, clock: Clock) -> None:
    world = blank_world(simcord_env, clock)
    svc = world.bot.matches
    assert svc is not None
    await svc.store.save_guild_settings(GuildSettings(guild_id=world.guild.id, language="ru"))
    await svc.prefs.load()
    live = await start_match(world)
    await resign(world, world.alice, live)
    await flush(world)
    ada, ben = _word(world.alice.user.id), _word(world.bob.user.id)
    assert ada != ben
    said = []
    for scope in ("server", "global"):
        clock.advance(60)  # (a board posts publicly once a minute in a channel)
        board = text_of(await world.carol.slash(world.channel, "umtali leaderboard",
                                                scope=scope))
        assert f"**{ben}**" in board and f"**{ada}**" in board, board
        said.append(board)
    clock.advance(60)
    stats = text_of(await world.carol.slash(world.channel, "umtali stats",
                                            member=world.alice, versus=world.bob))
    assert f"Умтали · {ada}" in stats and f"Выиграно матчей: {ada} — 0, {ben} — 1" in stats, \
        stats
    assert f"соперник — {ben}" in stats, stats
    # History is the member's own, in their language (English here).
    history = text_of(await world.alice.slash(world.channel, "umtali history"))
    assert f"against {_word(world.bob.user.id, 'en')} 0–0" in history, history
    # The match's own texts, the resignation's announcement among them: by seat, as ever.
    announced = "\n".join(m.content or "" for m in thread_of(world, live).history())
    assert "Игрок 1" in announced or "Игрок 2" in announced, announced
    said += [stats, announced]
    for text in said:
        assert "Player" not in text, text


def test_the_season_summary_names_such_members_in_its_words() -> None:
    rows = (BoardRow(1, 10004821, BLANK, 30.0, 3, 3), BoardRow(2, 20000937, "Player", 25.0, 1, 2),
            BoardRow(3, 30000001, "Ada", 20.0, 0, 1))
    top = BoardPage(1, 1, 3, rows)
    ru = summary_embed("2026-12", top, RU).description or ""
    assert "**Игрок …4821**" in ru and "**Игрок …0937**" in ru and "**Ada**" in ru, ru
    en = summary_embed("2026-12", top, EN).description or ""
    assert "**Player …4821**" in en and "**Player …0937**" in en, en
    assert not re.search(r"\*\*Player\*\*", en)


async def test_a_challenges_refusal_names_such_a_member_by_id(
        simcord_env: Env, clock: Clock) -> None:
    """The refusals of /umtali challenge name the opponent as the records do: no seat yet."""
    world = blank_world(simcord_env, clock)
    first = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert first.acknowledged and not first.ephemeral
    clock.advance(60)
    again = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    said = str(again.response.content if again.response else "")
    assert again.ephemeral and \
        f"You have already challenged {_word(world.bob.user.id, 'en')}:" in said, said
    back = await world.bob.slash(world.channel, "umtali challenge", opponent=world.alice)
    said = str(back.response.content if back.response else "")
    assert back.ephemeral and "There is already an open challenge between you and " \
        f"{_word(world.alice.user.id, 'en')}:" in said, said
