"""The slash commands in the member's language: discord.py asks this for each name and
description when the commands are synced, and Discord shows each client its own."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.ext import commands

from cogs.umtali.options import AS_IS, language_name
from umtali.catalogue import Message
from umtali.i18n import EN, Tr, languages, tr_for

#: Names are kept apart from other text by a context: "play" the command is not "Play" the
#: button, and a Russian name must be one lower-case word.
_CONTEXT = {
    Where.command_name: "command",
    Where.group_name: "command",
    Where.parameter_name: "option",
}


@cache
def _tr(locale: str) -> Tr:
    """``tr_for`` of a Discord locale, kept: a sync asks for every string in each of
    Discord's locales (thousands of calls at each start), and reading the locale's tag
    each time was most of a start's work in the tests."""
    return tr_for(locale)


class UmtaliTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        tr = _tr(locale.value)
        if tr is EN or string.extras.get(AS_IS):
            return None  # Discord shows the English (or a language's own name) itself
        where = _CONTEXT.get(context.location)
        text = tr.ctx(where, string.message) if where else tr(string.message)
        return None if text == string.message else text


def command_messages() -> list[Message]:
    """Every name and description of the slash commands, as catalogue messages."""
    from cogs.umtali.admin import UmtaliAdminCog
    from cogs.umtali.commands import UmtaliCog

    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    found: list[Message] = []
    for cog in (UmtaliCog(bot), UmtaliAdminCog(bot)):
        group = cog.app_command
        assert group is not None
        found += _messages(group)
    return found


def _messages(command: app_commands.Group | app_commands.Command[Any, ..., Any]) -> \
        Iterator[Message]:
    where = f"/{command.qualified_name}"
    yield Message(command.name, context="command", where=where)
    yield Message(str(command.description), where=where)
    if isinstance(command, app_commands.Group):
        for sub in command.commands:
            yield from _messages(sub)
        return
    for p in command.parameters:
        yield Message(p.display_name, context="option", where=f"{where} {p.name}")
        yield Message(str(p.description), where=f"{where} {p.name}")
        for choice in p.choices:
            if choice.name not in _OWN_NAMES:
                yield Message(choice.name, where=f"{where} {p.name}")


#: Choices shown as they are in every language (``AS_IS``): the languages by their own names.
_OWN_NAMES = frozenset(language_name(code) for code in languages())
