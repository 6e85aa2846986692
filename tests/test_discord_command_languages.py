"""Languages on Discord: a member's private answers follow their client; what the channel reads
(challenges, practice, tables, leaderboards) follows the server's language, a setting of
``/umtali-admin settings`` that defaults to the server's preferred locale."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord.interactions
from discord.ext import commands
from simcord import assert_error
from simcord.backend.errors import SetupError

from cogs.umtali.admin import UmtaliAdminCog
from cogs.umtali.commands import UmtaliCog
from cogs.umtali.rules_text import PAGES
from cogs.umtali.translator import UmtaliTranslator
from data.store import Limits
from tests.discord_helpers import (
    World,
    custom_ids,
    flush,
    manager,
    start_match,
    submit_cut,
    the_match,
    thread_of,
)
from tests.loopback.harness import bot_in_process, loopback_server

ClientLocales = dict[int, str]


@pytest.fixture
def clients(monkeypatch: pytest.MonkeyPatch) -> ClientLocales:
    """Members' Discord clients by language (SimCord's speak en-US): ``clients[id] = "ru"``."""
    locales: ClientLocales = {}
    real = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = real(backend, **kwargs)
        if kwargs["user_id"] in locales:
            payload["locale"] = locales[kwargs["user_id"]]
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return locales



def _russian_world(world: World) -> World:
    """A second server in the same SimCord, whose preferred locale is Russian."""
    guild = world.env.create_guild("Шахматный клуб", preferred_locale="ru")
    return World(world.env, guild, guild.create_text_channel("игры"),
                 guild.add_member(world.env.create_user("dasha")),
                 guild.add_member(world.env.create_user("egor")),
                 guild.add_member(world.env.create_user("fyodor")), world.clock)


async def _challenge_title(world: World) -> str:
    """The title of a new challenge from alice to bob, which bob then declines (the last
    "no" let stand its while first: a second within a day holds a day, ``Limits.repeat_hold``,
    fix162)."""
    world.clock.advance(Limits().repeat_hold)
    posted = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert posted.acknowledged and not posted.ephemeral and posted.response is not None
    decline = next(c for c in custom_ids(posted.response) if c.endswith(":decline"))
    assert (await world.bob.click(posted.response, custom_id=decline)).acknowledged
    return str(posted.response.embeds[0].title)


def _labels(message: Any) -> list[str]:
    """A message's button labels (raw dicts, as SimCord keeps an interaction's answer)."""
    return [c["label"] for row in message.components for c in row["components"]]


def _content(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


async def _stored_language(world: World) -> str:
    assert world.bot.matches is not None
    return (await world.bot.matches.store.guild_settings(world.guild.id)).language


# -- the server's language ------------------------------------------------------------------


async def test_a_server_set_to_russian_posts_its_challenges_and_tables_in_russian(
        world: World, make_bot: Callable[[], Any]) -> None:
    boss = manager(world)
    ok = await boss.slash(world.channel, "umtali-admin settings", language="ru")
    # The manager's own answer stays in their client's language.
    assert ok.ephemeral and "- Language: Russian" in _content(ok)
    assert await _stored_language(world) == "ru"
    world.clock.advance(60)
    posted = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert posted.response is not None
    assert posted.response.embeds[0].title == "Вызов в Умтали"
    assert "Правила: английские · контроль времени: 5 минут; не успеете — матч проигран." in \
        posted.response.embeds[0].description
    assert _labels(posted.response) == ["Принять", "Отклонить"]
    accept = next(c for c in custom_ids(posted.response) if c.endswith(":accept"))
    assert (await submit_cut(world.bob,
        await world.bob.click(posted.response, custom_id=accept))).acknowledged
    await flush(world)
    live = the_match(world)
    [answered] = [m for m in world.channel.history() if m.id == posted.response.id]
    assert "ben принимает вызов. Жребий, кто сдаёт первым" in answered.embeds[0].description
    thread = thread_of(world, live)
    assert thread.name == "Умтали: ada — ben"
    table = next(m for m in thread.history() if m.id == live.table_message_id)
    assert table.embeds[0].title == "Умтали · ada — ben"
    # Kept: a restarted bot still speaks Russian on this server.
    new = make_bot()
    await world.env.restart_bot(new)
    assert new.matches is not None and new.matches.prefs.guild_language(world.guild.id) == "ru"
    assert new.matches.prefs.guild_tr(world.guild.id).lang == "ru"


async def test_the_server_default_follows_its_preferred_locale(world: World) -> None:
    ru = _russian_world(world)
    boss = manager(ru)
    assert await _challenge_title(ru) == "Вызов в Умтали"
    ok = await boss.slash(ru.channel, "umtali-admin settings", language="en")
    assert ok.ephemeral and "- Language: English" in _content(ok)
    assert await _challenge_title(ru) == "Umtali challenge"
    ok = await boss.slash(ru.channel, "umtali-admin settings", language="default")
    assert "- Language: server default (Russian)\n" in _content(ok)
    assert await _stored_language(ru) == ""
    assert await _challenge_title(ru) == "Вызов в Умтали"
    # The English server's default is English; its other settings were left alone.
    assert await _challenge_title(world) == "Umtali challenge"
    assert world.bot.matches is not None
    settings = await world.bot.matches.store.guild_settings(ru.guild.id)
    assert (settings.variant, settings.threads, settings.turn_timer) == ("english", True, 300)


async def test_other_settings_keep_the_language(world: World) -> None:
    boss = manager(world)
    await boss.slash(world.channel, "umtali-admin settings", language="ru")
    ok = await boss.slash(world.channel, "umtali-admin settings", threads=False)
    assert "- Threads: off" in _content(ok) and "- Language: Russian" in _content(ok)
    assert await _stored_language(world) == "ru"
    assert await _challenge_title(world) == "Вызов в Умтали"


async def test_a_russian_manager_reads_the_settings_in_russian(world: World,
                                                               clients: ClientLocales) -> None:
    boss = manager(world)
    clients[boss.id] = "ru"
    ok = await boss.slash(world.channel, "umtali-admin settings", variant="russian",
                          turn_timer=0)
    assert _content(ok) == (
        "Для новых матчей по умолчанию:\n- Правила: русские\n- Выкладка по желанию: выключена\n"
        "- Контроль времени: выкл.\n- Ветки: включены\n"
        "Для всех матчей сервера, и уже идущих тоже:\n- Картинки: включены\n"
        "- Язык: как на сервере (английский)\nТаблица лидеров:\n- Сезоны: выключены")


async def test_only_a_manager_sets_the_language(world: World) -> None:
    with pytest.raises(SetupError, match="not visible"):
        await world.alice.slash(world.channel, "umtali-admin settings", language="ru")
    # Granted the group by the server, a member without Manage Server is still refused.
    [admin] = [c for c in await world.bot.tree.fetch_commands() if c.name == "umtali-admin"]
    world.guild.set_command_permissions(admin, {world.alice: True})
    refused = await world.alice.slash(world.channel, "umtali-admin settings", language="ru")
    assert refused.ephemeral and "Manage Server" in _content(refused)
    assert_error(world.env, contains="Manage")
    assert await _stored_language(world) == ""
    assert world.bot.matches is not None
    assert world.bot.matches.prefs.guild_language(world.guild.id) == ""
    assert await _challenge_title(world) == "Umtali challenge"


async def test_a_language_the_bot_does_not_offer_changes_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        # A client holding a stale (or forged) list of choices sends one the bot never had.
        admin = next(c for c in server.commands if c["name"] == "umtali-admin")
        settings = next(o for o in admin["options"] if o["name"] == "settings")
        language = next(o for o in settings["options"] if o["name"] == "language")
        language["choices"].append({"name": "Deutsch", "value": "de"})
        manager = server.add_member("boss")  # loopback members hold every permission
        answer = await server.slash(manager, server.channel_id, "umtali-admin settings",
                                    {"language": "de", "threads": False})
        assert answer.ephemeral and "I can't read “de” there." in answer.text()
        assert bot.matches is not None
        assert bot.matches.prefs.guild_language(server.guild_id) == ""
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT threads, language FROM guild_settings").fetchall()
    assert rows in ([], [(1, "")])  # nothing saved, not even the valid threads option


# -- a member's own language ----------------------------------------------------------------


async def test_private_answers_follow_the_members_client(world: World,
                                                         clients: ClientLocales) -> None:
    clients[world.alice.id] = "ru"
    alone = await world.alice.slash(world.channel, "umtali resign")
    assert alone.ephemeral and _content(alone) == "Вы не играете матч на этом сервере."
    me = await world.alice.slash(world.channel, "umtali challenge", opponent=world.alice)
    assert me.ephemeral and _content(me) == "Нельзя вызвать самого себя."
    # Her challenge is for the channel: the server's language, English.
    world.clock.advance(60)
    posted = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert posted.response is not None and not posted.ephemeral
    assert posted.response.embeds[0].title == "Umtali challenge"
    assert _labels(posted.response) == ["Accept", "Decline"]
    accept = next(c for c in custom_ids(posted.response) if c.endswith(":accept"))
    own = await submit_cut(world.alice, await world.alice.click(posted.response, custom_id=accept))
    assert own.ephemeral and _content(own) == "Нельзя ответить на собственный вызов."
    other = await submit_cut(world.carol,
        await world.carol.click(posted.response, custom_id=accept))
    assert other.ephemeral and _content(other) == "Only the challenged member can answer this " \
        "challenge."
    board = await world.alice.slash(world.channel, "umtali leaderboard")
    assert board.response is not None and not board.ephemeral
    assert board.response.embeds[0].title == "Umtali leaderboard · Railway Club"


async def test_the_rules_name_the_command_as_the_members_client_does(
        world: World, clients: ClientLocales) -> None:
    clients[world.carol.id] = "ru"
    page = await world.carol.slash(world.channel, "umtali rules", page=2)
    assert page.ephemeral and page.response is not None
    assert page.response.embeds[0].footer.text.startswith("Страница 2 из ")
    # An example a screen reader says well (not "<n>"): the page after this one.
    assert page.response.embeds[0].footer.text.endswith("· /umtali правила страница:3")
    english = await world.bob.slash(world.channel, "umtali rules", page=2)
    assert english.response is not None
    assert english.response.embeds[0].footer.text.endswith("· /umtali rules page:3")
    last = await world.bob.slash(world.channel, "umtali rules", page=len(PAGES))
    assert last.response is not None
    assert last.response.embeds[0].footer.text.endswith("· /umtali rules page:1")


async def test_play_autocomplete_explains_moves_in_the_members_language(
        world: World, clients: ClientLocales) -> None:
    live = await start_match(world)
    seat = live.session.to_act
    actor = (world.alice, world.bob)[seat]
    thread = thread_of(world, live)
    english = await actor.autocomplete(thread, "umtali play", "move", "")
    # English reads the notation itself (with suit symbols), as before.
    legal = {str(m): m.text(symbols=True) for m in live.session.legal_moves()}
    assert english and all(c["name"] == legal[c["value"]] for c in english)
    clients[actor.id] = "ru"
    russian = await actor.autocomplete(thread, "umtali play", "move", "")
    # The same moves: the value is the notation, whatever the language.
    assert [c["value"] for c in russian] == [c["value"] for c in english]
    words = {"meld": "выложить", "discard": "сбросить", "extend": "приложить"}
    for c in russian:
        # The member's words, the notation's word after: the cards said once (review155).
        meaning, keyword = c["name"].removesuffix(")").split(" (")
        assert keyword == c["value"].split()[0]
        assert meaning.startswith(words[keyword] + " ")
        assert all(card in meaning for card in legal[c["value"]].split()[1:]), c
    # Typed in the member's words, the moves are found too.
    word = russian[0]["name"].split()[0]
    found = await actor.autocomplete(thread, "umtali play", "move", word)
    assert found == [c for c in russian if word in c["name"]]


# -- the slash commands themselves ----------------------------------------------------------


async def test_russian_command_and_option_names_are_unique_where_discord_needs_it() -> None:
    """Discord refuses a sync where two siblings share a name, in any language."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    translator = UmtaliTranslator()
    for cog in (UmtaliCog(bot), UmtaliAdminCog(bot)):
        group = cog.app_command
        assert group is not None
        payload = await group.get_translated_payload(bot.tree, translator)
        _check_unique(payload)


def _check_unique(command: dict[str, Any]) -> None:
    options = command.get("options", [])
    names = [o.get("name_localizations", {}).get("ru", o["name"]) for o in options]
    assert len(names) == len(set(names)), names
    for option in options:
        if option.get("type") in (1, 2):  # a subcommand, or a group of them
            _check_unique(option)


async def test_languages_are_offered_by_their_own_names() -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    group = UmtaliAdminCog(bot).app_command
    assert group is not None
    payload = await group.get_translated_payload(bot.tree, UmtaliTranslator())
    settings = next(o for o in payload["options"] if o["name"] == "settings")
    language = next(o for o in settings["options"] if o["name"] == "language")
    assert language["name_localizations"]["ru"] == "язык"
    shown = {c["value"]: (c["name"], c.get("name_localizations", {}).get("ru"))
             for c in language["choices"]}
    assert shown == {"default": ("server default", "как на сервере"),
                     "en": ("English", None), "ru": ("Русский", None)}
