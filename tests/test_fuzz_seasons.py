"""The leaderboard's ``season`` option and the autocompletes, typed as members type: padded
with hidden characters (pasted along), cased and spaced at will, or far too long."""

from __future__ import annotations

from typing import Any

import discord

from cogs.umtali.board_posts import PUBLIC_EVERY
from tests.discord_helpers import World, manager, player, start_match, thread_of
from tests.test_seasons_discord import (
    _ben_beats_ada_twice,
    _content,
    _seasons_on,
    _title,
)

HIDDEN = "\u200b\u2066\ufeff"


async def test_a_season_is_found_however_it_is_typed(world: World) -> None:
    await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    for typed in (HIDDEN + "2026-12", "2026-12" + HIDDEN, "\u200b2026\u200b-12"):
        board = await world.carol.slash(world.channel, "umtali leaderboard", season=typed)
        assert _title(board) == "Umtali leaderboard · Railway Club · December 2026 season", typed
    offered = await world.carol.autocomplete(world.channel, "umtali leaderboard", "season",
                                             HIDDEN + "2026")
    assert [c["value"] for c in offered] == ["2026-12"]
    # All time, on this server's board and on all servers' (which has no other board).
    for typed in ("ALL", " All  Time ", HIDDEN + "all"):
        here = await world.carol.slash(world.channel, "umtali leaderboard", season=typed)
        assert _title(here) == "Umtali leaderboard · Railway Club · all time", typed
        world.clock.advance(PUBLIC_EVERY)  # the channel's next public board (review116)
        everywhere = await world.carol.slash(world.channel, "umtali leaderboard",
                                             scope="global", season=typed)
        assert not everywhere.ephemeral, (typed, _content(everywhere))
        assert _title(everywhere) == "Umtali leaderboard · all servers", typed


async def test_a_season_never_had_is_quoted_whole_or_cut_visibly(world: World) -> None:
    stars = await world.carol.slash(world.channel, "umtali leaderboard", season="*" * 40)
    # All forty, escaped: the quote was cut through its escapes (twenty stars shown).
    escaped = "\\*" * 40
    assert stars.ephemeral and f"no season “{escaped}”" in _content(stars), _content(stars)
    mentions = await world.carol.slash(world.channel, "umtali leaderboard",
                                       season="@everyone " * 4)
    assert "@\u200beveryone" in _content(mentions) and "@everyone" not in _content(mentions)


async def test_hidden_characters_do_not_hide_the_moves_offered(world: World) -> None:
    live = await start_match(world)
    actor: Any = player(world, live.session.to_act)
    thread = thread_of(world, live)
    word = str(live.session.legal_moves()[0]).split()[0]
    plain = await actor.autocomplete(thread, "umtali play", "move", word)
    assert plain
    padded = await actor.autocomplete(thread, "umtali play", "move", HIDDEN + word + "\u200b")
    assert padded == plain


async def test_a_season_channel_closed_to_the_bot_is_refused(
        world: World, locales: dict[int, str]) -> None:
    # Accepted before, the first summary was dropped a month later (a log line at INFO).
    bot_user = world.bot.user
    assert bot_user is not None
    closed = world.guild.create_text_channel("closed", overwrites={
        bot_user: discord.PermissionOverwrite(send_messages=False, embed_links=False)})
    boss = manager(world)
    no = await boss.slash(world.channel, "umtali-admin settings", seasons="monthly",
                          season_channel=closed)
    assert no.ephemeral and _content(no) == (
        f"I can't post season summaries in <#{closed.id}>: I need the **Send Messages** and "
        "**Embed Links** permissions there. Nothing was changed."), _content(no)
    locales[boss.id] = "ru"
    no = await boss.slash(world.channel, "umtali-admin settings", season_channel=closed)
    assert _content(no).startswith(f"Я не могу публиковать итоги сезонов в <#{closed.id}>: мне "
                                   "нужны права **Отправлять сообщения** и **Встраивать ссылки**")
    assert world.bot.matches is not None
    settings = await world.bot.matches.store.guild_settings(world.guild.id)
    assert settings.seasons == "off" and settings.season_channel_id is None
    # Hidden: View Channel alone is denied, and named alone (the rest comes with it; review166).
    hidden = world.guild.create_text_channel("hidden", overwrites={
        bot_user: discord.PermissionOverwrite(view_channel=False)})
    locales[boss.id] = "en-US"
    no = await boss.slash(world.channel, "umtali-admin settings", season_channel=hidden)
    assert "I need the **View Channel** permission there." in _content(no), _content(no)
    # What a summary does not need is not asked for.
    open_ = world.guild.create_text_channel("no-files", overwrites={
        bot_user: discord.PermissionOverwrite(attach_files=False)})
    locales[boss.id] = "en-US"
    ok = await boss.slash(world.channel, "umtali-admin settings", seasons="monthly",
                          season_channel=open_)
    assert f"- Season summaries: <#{open_.id}>" in _content(ok), _content(ok)
