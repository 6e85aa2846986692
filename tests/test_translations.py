"""Every message the code can show has its Russian, with the same placeholders; no stale ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from umtali.catalogue import LOCALES, Message, extract, placeholders, read, template, updated
from umtali.i18n import EN, Text, languages, tr_for

ROOT = Path(__file__).resolve().parent.parent
OTHER_LANGUAGES = [lang for lang in languages() if lang != "en"]


@pytest.fixture(scope="module")
def messages() -> list[Message]:
    return extract(ROOT)


def _key(m: Message) -> tuple[str, str | None]:
    return m.id, m.context


def test_russian_is_one_of_the_languages() -> None:
    assert "ru" in OTHER_LANGUAGES


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_message_is_translated_with_the_same_placeholders(
        language: str, messages: list[Message]) -> None:
    catalog: Catalog = read(language)
    problems = []
    for m in messages:
        entry = catalog.get(m.id, context=m.context)
        if entry is None or entry.fuzzy or not entry.string or (
                isinstance(entry.string, tuple) and not all(entry.string)):
            problems.append(f"{m.where}: no {language} for {m.id!r}")
            continue
        if m.plural is not None:
            forms = [entry.string] if isinstance(entry.string, str) else list(entry.string)
            want = placeholders(m.plural) | placeholders(m.id)
            if len(forms) != catalog.num_plurals:
                problems.append(f"{m.where}: {m.id!r} needs {catalog.num_plurals} forms")
            for form in forms:
                if placeholders(form) != want:
                    problems.append(f"{m.where}: {m.id!r} → {form!r}: placeholders differ")
        elif not isinstance(entry.string, str) or placeholders(entry.string) != placeholders(
                m.id):
            problems.append(f"{m.where}: {m.id!r} → {entry.string!r}: placeholders differ")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_no_stale_translations(language: str, messages: list[Message]) -> None:
    """A message the code no longer says is dropped from the catalogue (``make messages``)."""
    wanted = {_key(m) for m in messages} | _command_keys()
    stale = [(e.id, e.context) for e in read(language) if e.id and
             ((e.id[0] if isinstance(e.id, tuple) else e.id), e.context) not in wanted]
    assert not stale


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_the_catalogue_is_as_make_messages_writes_it(language: str) -> None:
    """Translations added by hand stay where ``make messages`` puts them, so that running it
    changes only the lines of messages that changed (it rewrote the whole file once)."""
    from cogs.umtali.translator import command_messages

    written = (LOCALES / f"{language}.po").read_bytes()
    assert updated(language, template(ROOT, command_messages())) == written, (
        "run `make messages`: it sorts the catalogue and keeps every translation")


def _command_keys() -> set[tuple[str, str | None]]:
    from cogs.umtali.translator import command_messages

    return {_key(m) for m in command_messages()}


def test_russian_plural_forms() -> None:
    ru = tr_for("ru")
    cards = [ru.plural("{count} card", "{count} cards", n) for n in (1, 2, 5, 11, 21, 22, 25)]
    assert cards == ["1 карта", "2 карты", "5 карт", "11 карт", "21 карта", "22 карты",
                     "25 карт"]
    assert EN.plural("{count} card", "{count} cards", 1) == "1 card"


def test_a_text_is_worded_late_in_the_readers_language() -> None:
    later = Text.plural("{count} card", "{count} cards", 3)
    assert str(later) == "3 cards"
    assert tr_for("ru")(later) == "3 карты"
    assert tr_for("ru-RU") is tr_for("ru") and tr_for("pt-BR") is EN and tr_for(None) is EN


def test_a_value_is_never_read_as_a_template() -> None:
    assert EN("{name} wins.", name="{0}{x}") == "{0}{x} wins."


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_slash_command_has_its_names_in_each_language(language: str) -> None:
    """Discord refuses a sync with a name it cannot take: one lower-case word of at most 32
    characters; descriptions of at most 100."""
    import re

    from cogs.umtali.translator import command_messages

    tr = tr_for(language)
    problems = []
    for m in command_messages():
        text = tr.ctx(m.context, m.id) if m.context else tr(m.id)
        if m.context and (not re.fullmatch(r"[-_\w]{1,32}", text) or text != text.lower()):
            problems.append(f"{m.where}: {text!r} is not a name Discord takes")
        if not m.context and not 1 <= len(text) <= 100:
            problems.append(f"{m.where}: {text!r} is too long for a description")
        if text == m.id and m.id not in _SAME_IN_EVERY_LANGUAGE:
            problems.append(f"{m.where}: no {language} for {m.id!r}")
    assert not problems, "\n".join(problems)


#: Names kept as they are: the game's own name.
_SAME_IN_EVERY_LANGUAGE = {"umtali", "umtali-admin"}


async def test_a_russian_client_gets_russian_commands_from_the_sync_payload() -> None:
    """The payload discord.py sends when it syncs (its real path, not our lookup)."""
    import discord
    from discord.ext import commands

    from cogs.umtali.commands import UmtaliCog
    from cogs.umtali.translator import UmtaliTranslator

    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    group = UmtaliCog(bot).app_command
    assert group is not None
    payload = await group.get_translated_payload(bot.tree, UmtaliTranslator())
    play = next(o for o in payload["options"] if o["name"] == "play")
    ru = tr_for("ru")
    assert play["name_localizations"]["ru"] == ru.ctx("command", "play") != "play"
    assert play["description_localizations"]["ru"] == ru(play["description"])
    assert "en-US" not in play["name_localizations"]


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_no_message_is_in_a_catalogue_twice(language: str) -> None:
    """Branches append to the catalogue; two entries for one message would leave one of the
    two translations silently unused."""
    seen: set[tuple[str | None, str]] = set()
    twice: list[str] = []
    context: str | None = None
    path = ROOT / "umtali" / "locales" / f"{language}.po"
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("msgctxt "):
            context = line[len("msgctxt "):]
        elif line.startswith("msgid ") and line != 'msgid ""':
            # A long id continues on the next lines, each a quoted piece.
            pieces = [line[len("msgid "):]]
            j = i + 1
            while j < len(lines) and lines[j].startswith('"'):
                pieces.append(lines[j])
                j += 1
            key = (context, "".join(pieces))
            if key in seen:
                twice.append(key[1])
            seen.add(key)
            context = None
    assert not twice, f"in {language}.po twice: {twice}"
