"""A turn's announcements in the match's channel: the "your turn" line that pings the next
player, and turns that piled up merged into one message (each message's nonce names it by its
first announcement: ``posting``)."""

from __future__ import annotations

import re

import discord

from cogs.umtali.mentions import NO_MENTIONS, only, ping
from umtali.i18n import Tr, languages, tr_for


def your_turn(tr: Tr, mention: str) -> str:
    """The line that ends a turn's announcement and pings the player to act next: ``mention``,
    their ping, or their name if they are known out of reach (``out_of_reach.addressed``)."""
    return tr("{mention}, your turn.", mention=mention)


def _your_turn_patterns() -> list[re.Pattern[str]]:
    # An announcement may be in any language (a server may change its own while a turn's
    # announcement waits to be posted): the "your turn" line of each.
    found = []
    for lang in languages():
        before, after = your_turn(tr_for(lang), ping(0)).split("<@0>")
        found.append(re.compile(r"\n?" + re.escape(before) + r"<@([0-9]+)>" + re.escape(after)
                                + "$"))
    return found


_YOUR_TURN = _your_turn_patterns()


def turn_mention(text: str) -> discord.AllowedMentions:
    """Only the player whose turn it is may be pinged, and nobody else, whatever the text."""
    for pattern in _YOUR_TURN:
        found = pattern.search(text)
        if found:
            return only(int(found[1]))
    return NO_MENTIONS


def turn_player(text: str) -> int | None:
    """The player ``text``'s "your turn" line mentions (None: no such line)."""
    for pattern in _YOUR_TURN:
        found = pattern.search(text)
        if found:
            return int(found[1])
    return None


def merged(texts: list[str], limit: int = 2000) -> tuple[str, int]:
    """The first of ``texts`` joined into one message of at most ``limit`` characters, and how
    many it holds (at least one). Only the last keeps its "your turn" mention: the earlier ones
    are out of date, and a mention pings."""
    out = texts[0]
    count = 1
    for text in texts[1:]:
        earlier = out
        for pattern in _YOUR_TURN:
            earlier = pattern.sub("", earlier)
        joined = earlier + "\n" + text
        if len(joined) > limit:
            break
        out, count = joined, count + 1
    return out, count


def held(texts: list[str], content: str) -> int:
    """How many of ``texts`` a message ``merged`` made of their first ones holds (0: none)."""
    for count in range(len(texts), 0, -1):
        if merged(texts[:count]) == (content, count):
            return count
    return 0


