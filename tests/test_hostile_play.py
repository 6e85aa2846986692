"""Hostile text typed into ``/umtali play`` and its autocomplete, through discord.py in SimCord.

Whatever a player or a stranger types (any Unicode, control and zero-width characters, up to
the option's limit, mentions, markdown, card-like words in both languages): a short answer
only they see, the match in memory and as saved unchanged, no error logged (the conftest fails
a test that logs one), no live mention, and what is quoted back shows as typed: a backslash or
a quote in a move is shown once, not as Python writes it in a string literal. Past the limit,
Discord's client refuses the text.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simcord import OptionError

from cogs.umtali.commands import MAX_MOVE
from cogs.umtali.errors import APOLOGY
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import visible
from tests.discord_helpers import World, start_match, thread_of
from umtali.errors import UmtaliError
from umtali.moves import typed

#: A mention Discord would make live (a ping), left in a reply.
LIVE_MENTION = re.compile(r"@(everyone|here)|<@[!&]?[0-9]+>|<#[0-9]+>")
TOKENS = ["draw", "take", "take 2", "meld", "extend", "discard", "up", "down", "on", "8D", "9D",
          "10D", "Q♥", "10♦", "KS", "1D", "ZZ", "взять", "сброс", "выложить", "Д♠", "Т♥",
          "@everyone", "@here", "<@1>", "<@&1>", "<#1>", "**", "__", "||", "`", "```", "\\",
          "'", '"', "# ", "> ", "-# ", "https://x.example/a", "\u200b", "\u202e", "\u2066",
          "\ufeff", "\x00", "\n", "\t", "9" * 40, "-1", ","]
TEXT = st.one_of(
    st.lists(st.sampled_from(TOKENS), max_size=8).map(" ".join),
    st.text(max_size=120),
    st.text(alphabet=st.sampled_from(["\u200b", "\u2066", "a", "@", "\\", "*", " "]),
            min_size=5500, max_size=6000),
)
WHO = st.sampled_from(["alice", "bob", "carol"])


def _state(live: LiveMatch) -> tuple[Any, ...]:
    return (live.version, live.over, json.dumps(live.session.view(0).legal_moves, default=str))


async def _saved(world: World, live: LiveMatch) -> tuple[Any, ...]:
    store = world.bot.matches.store if world.bot.matches else None
    assert store is not None
    row = await store.match(live.id)
    assert row is not None
    return row.version, row.status, row.state


def _legal(live: LiveMatch, user_id: int, text: str) -> bool:
    seat = live.seat_of(user_id)
    if seat is None or live.session.to_act != seat:
        return False
    try:
        move, _ = typed(visible(text), "en")  # SimCord members read English
    except UmtaliError:
        return False
    legal = live.session.view(seat).legal_moves
    return move in legal or move._replace(face_down=True) in legal


@pytest.fixture
async def playing(world: World) -> LiveMatch:
    return await start_match(world)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(who=WHO, text=TEXT)
async def test_any_text_played_is_answered_privately_and_changes_nothing(
        world: World, playing: LiveMatch, caplog: pytest.LogCaptureFixture, who: str,
        text: str) -> None:
    caplog.set_level(logging.WARNING)
    live = playing
    actor = getattr(world, who)
    if _legal(live, actor.id, text):
        return  # a legal move by the player to act is a move, not a refusal
    where = thread_of(world, live)
    before, saved = _state(live), await _saved(world, live)
    if len(text) > MAX_MOVE:
        # Discord refuses it before the bot hears of it (sent all the same, as a command
        # synced without the limit lets it be: tests/test_long_input.py).
        with pytest.raises(OptionError):
            await actor.slash(where, "umtali play", move=text)
        assert _state(live) == before and await _saved(world, live) == saved
        return
    result = await actor.slash(where, "umtali play", move=text)
    assert result.acknowledged and result.ephemeral, (who, text[:80], result)
    assert result.response is not None
    content = result.response.content or ""
    assert 0 < len(content) <= 2000, (text[:80], len(content))
    assert not LIVE_MENTION.search(content), content
    assert APOLOGY not in content, content
    assert _state(live) == before and await _saved(world, live) == saved
    choices = await actor.autocomplete(where, "umtali play", "move", text)
    assert len(choices) <= 25
    assert all(1 <= len(c["name"]) <= 100 and 1 <= len(str(c["value"])) <= 100
               for c in choices), choices
    assert _state(live) == before and await _saved(world, live) == saved
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records


@pytest.mark.parametrize("move, said", [
    # In the reply's markdown "\\" shows one backslash: as typed.
    ("a\\b", "“a\\\\b” is not a move"),
    ("meld 8D \\Q", "“\\\\Q” is not a card"),
    # A quote inside the move shows as typed, with no backslash before it.
    ("say \"hi\" it's", "“say \"hi\" it's” is not a move"),
])
async def test_what_is_quoted_back_shows_as_typed(world: World, playing: LiveMatch,
                                                  move: str, said: str) -> None:
    live = playing
    actor = (world.alice, world.bob)[live.session.to_act]
    result = await actor.slash(thread_of(world, live), "umtali play", move=move)
    assert result.ephemeral and result.response is not None
    assert said in result.response.content, result.response.content


async def test_what_is_quoted_back_takes_the_readers_quotes(
        world: World, playing: LiveMatch, locales: dict[int, str]) -> None:
    """review147: Russian read «'5Z' — не карта», the terminal's quotes; it takes «…»."""
    live = playing
    actor = (world.alice, world.bob)[live.session.to_act]
    locales[actor.user.id] = "ru"
    result = await actor.slash(thread_of(world, live), "umtali play", move="meld 8D 5Z")
    assert result.ephemeral and result.response is not None
    assert result.response.content.startswith("«5Z» — не карта"), result.response.content


@pytest.mark.parametrize("move, said", [
    ("meld", "Name the cards to meld, like: meld 8D 9D 10D."),
    ("discard 8D 9D", "Name one card to discard, like: discard KS."),
    ("extend 8D", "Name your card and a card of the meld it extends, like: extend 7D 8D."),
    ("\u200b", "No move given. Moves: "),
])
async def test_a_move_that_cannot_be_read_is_answered_in_a_sentence(
        world: World, playing: LiveMatch, move: str, said: str) -> None:
    # As every other refusal is: a capital first (the engine's reasons start small).
    live = playing
    actor = (world.alice, world.bob)[live.session.to_act]
    result = await actor.slash(thread_of(world, live), "umtali play", move=move)
    assert result.ephemeral and result.response is not None
    assert result.response.content.startswith(said), result.response.content
