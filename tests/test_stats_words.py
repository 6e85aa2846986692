"""review142's findings in the words of a member's stats, English and Russian, through the bot
(SimCord, a real SQLite file): head-to-head with the computer (practice, counted apart), the
all-time rating named when the season's comes first, and a finished session's end told in the
past in Russian."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.builders import UserHandle

from cogs.umtali.board_posts import PUBLIC_EVERY
from cogs.umtali.records import session_text
from data.models import GuildSettings, SessionLine
from tests.discord_helpers import World, start_match, start_practice
from tests.test_records_discord import resign, text_of
from tests.test_seasons_discord import _ben_beats_ada_twice, _seasons_on
from tests.test_words_gender import GENDERED
from umtali.i18n import EN, tr_for

RU = tr_for("ru")


def _the_bot(world: World) -> Any:
    assert world.bot.user is not None
    return UserHandle(world.env, world.env.backend.get_user(world.bot.user.id))


async def _say_in_russian(world: World) -> None:
    assert world.bot.matches is not None
    await world.bot.matches.store.save_guild_settings(
        GuildSettings(guild_id=world.guild.id, language="ru"))
    await world.bot.matches.prefs.load()


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_head_to_head_with_the_computer_points_to_practice(
        world: World, language: str) -> None:
    if language == "ru":
        await _say_in_russian(world)
    await resign(world, world.alice, await start_practice(world))
    bot = _the_bot(world)
    asked = (dict(versus=bot), dict(member=bot, versus=world.alice))
    for n, options in enumerate(asked):
        world.clock.advance(PUBLIC_EVERY)  # each in the channel
        stats = text_of(await world.alice.slash(world.channel, "umtali stats", **options))
        if language == "en":
            assert "Sessions against the computer are practice, not head-to-head" in stats, \
                stats
            assert "Sessions won:" not in stats, stats
            if n == 0:  # ada's practice is where the note says
                assert "Practice: 0 of 1 won against the computer" in stats, stats
        else:
            assert "Матчи против компьютера — тренировка, а не личные встречи" in stats, stats
            counted = stats.split("Последние")[0]  # no score: history has the session's
            assert "0:1" not in counted and "0:0" not in counted, stats


async def test_a_head_to_head_between_members_is_still_counted(world: World) -> None:
    """Only the computer's gets the note: members' sessions score as before (with ada's
    practice beside them)."""
    await resign(world, world.alice, await start_practice(world))
    await resign(world, world.alice, await start_match(world))
    stats = text_of(await world.carol.slash(world.channel, "umtali stats", member=world.alice,
                                            versus=world.bob))
    assert "Sessions won: ada 0, ben 1" in stats, stats
    assert "practice, not head-to-head" not in stats, stats


@pytest.mark.parametrize("language, season, all_time", [
    ("en", "December 2026 season: rating **", "All time: rating **"),
    ("ru", "Сезон за декабрь 2026: рейтинг **", "За всё время: рейтинг **"),
])
async def test_the_all_time_rating_is_named_after_the_seasons(
        world: World, language: str, season: str, all_time: str) -> None:
    await _seasons_on(world, language=None if language == "en" else language)
    await _ben_beats_ada_twice(world)
    stats = await world.bob.slash(world.channel, "umtali stats")
    assert stats.response is not None
    here, everywhere = [str(f.value).splitlines() for f in stats.response.embeds[0].fields[:2]]
    assert here[0].startswith(season) and here[1].startswith(all_time), here
    # On all servers there is no season: the rating stands alone, unnamed as before.
    assert not everywhere[0].startswith(all_time) and "**" in everywhere[0], everywhere


def _line(how: str) -> SessionLine:
    return SessionLine(match_id=7, guild_id=1, player_ids=(1, 2), names=("Маша", "egor"),
                       winner_seat=1, how=how, games_won=(0, 1), variant="english",
                       computer_level=None, finished_at=1.0e9)


@pytest.mark.parametrize("how, russian, english", [
    ("resigned", "игрок сдался: Маша", "Маша resigned"),
    ("timed out", "время хода вышло: Маша", "Маша timed out"),
    ("forfeited", "засчитано поражение: Маша", "Маша forfeited"),
])
def test_a_finished_session_ends_in_the_past_in_russian(how: str, russian: str,
                                                         english: str) -> None:
    said = session_text(_line(how), 2, RU)
    assert f" · {russian} · " in said, said
    # Its verb agrees with the noun, not the name: nothing said of Маша has a gender.
    assert not GENDERED.search(said.replace("игрок сдался", "")), said
    assert f" · {english} · " in session_text(_line(how), 2, EN)
    assert " · доигран до конца · " in session_text(_line("played out"), 2, RU)
