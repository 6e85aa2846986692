"""Names made safe: what a hostile display name turns into, and who a message may ping."""

from __future__ import annotations

import re

import discord
import pytest

from bot import Settings, UmtaliBot
from cogs.umtali.mentions import NO_MENTIONS, only
from cogs.umtali.names import FALLBACK, MAX_NAME, clean_name, echo, safe_name

#: What Discord would read as a live mention (or markdown) in a message's text.
LIVE = re.compile(r"@(everyone|here)|<@[!&]?[0-9]+>|<#[0-9]+>")


@pytest.mark.parametrize("name", [
    "@everyone", "@here", "<@&123456789012345678>", "<@456>", "<@!456>", "<#789>",
    "hi @everyone and @here", "</umtali play:1>",
])
def test_mentions_are_defused(name: str) -> None:
    safe = safe_name(name)
    assert not LIVE.search(safe), safe
    # It still reads the same once the zero-width spaces it gained are left out.
    assert safe.replace("\u200b", "").replace("\\", "") == name


@pytest.mark.parametrize(("name", "shown"), [
    ("**bold**", r"\*\*bold\*\*"), ("`code`", r"\`code\`"), ("||spoiler||", r"\|\|spoiler\|\|"),
    ("__under__", r"\_\_under\_\_"), ("~~gone~~", r"\~\~gone\~\~"),
    ("back\\slash", "back\\\\slash"),
    ("> quote", r"\> quote"), ("# Heading", r"\# Heading"),
])
def test_markdown_is_escaped(name: str, shown: str) -> None:
    assert safe_name(name) == shown


@pytest.mark.parametrize("hidden", [
    "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d",
    "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\ufeff", "\x00", "\x1b", "\n", "\r",
    "\u2028", "\u2029",
])
def test_invisible_and_control_characters_are_removed(hidden: str) -> None:
    assert clean_name(f"a{hidden}da") in ("ada", "a da")
    assert hidden not in safe_name(f"{hidden}ada{hidden}")


def test_names_are_cut_to_32_characters_and_never_empty() -> None:
    long = "x" * 40
    assert clean_name(long) == "x" * MAX_NAME
    assert clean_name("y" * MAX_NAME) == "y" * MAX_NAME
    # Cut before escaping, so an escape is never cut in half.
    assert safe_name("*" * 40) == "\\*" * MAX_NAME
    for empty in ("", "   ", "\u200b\u202e", "\n\t"):
        assert clean_name(empty) == FALLBACK and safe_name(empty) == FALLBACK


def test_right_to_left_override_cannot_flip_what_follows() -> None:
    assert safe_name("\u202eevil\u202c name") == "evil name"


def test_plain_names_keep_their_letters() -> None:
    assert safe_name("Zoë Ångström") == "Zoë Ångström"
    assert safe_name("  ada   lovelace ") == "ada lovelace"


def test_echo_cuts_long_input_with_an_ellipsis() -> None:
    shown = echo("q" * 2100)
    assert len(shown) == 100 and shown.endswith("…")
    assert echo("meld 8D 9D 10D") == "meld 8D 9D 10D"
    assert not LIVE.search(echo("@everyone " * 30))


def test_only_allows_the_members_named_and_nothing_else() -> None:
    allowed = only(42, 43).to_dict()
    assert allowed["parse"] == [] and allowed["users"] == [42, 43]
    assert not allowed.get("replied_user")
    assert NO_MENTIONS.to_dict()["parse"] == [] and not NO_MENTIONS.to_dict().get("users")


def test_the_bot_pings_nobody_by_default() -> None:
    bot = UmtaliBot(Settings(token="x"))
    allowed = bot.allowed_mentions
    assert allowed is not None
    payload = allowed.to_dict()
    assert payload["parse"] == [] and not payload.get("users") and not payload.get("roles")
    # A send that names its member adds that member and nothing else.
    merged = allowed.merge(discord.AllowedMentions(users=[discord.Object(id=7)])).to_dict()
    assert merged["parse"] == [] and merged["users"] == [7]


def test_labels_defuse_mentions_and_keep_markdown_as_typed() -> None:
    from cogs.umtali.names import label_name

    assert label_name("@everyone **x**\u202e") == "@\u200beveryone **x**"
