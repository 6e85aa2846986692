"""A turn's announcements in the match's channel: the "your turn" line that opens them and
pings the next player, and turns that piled up merged into one message (each message's nonce
names it by its first announcement: ``posting``)."""

from __future__ import annotations

import re
from collections.abc import Callable

import discord

from cogs.umtali.mentions import NO_MENTIONS, only
from umtali.i18n import Tr, languages, tr_for


def your_turn(tr: Tr, mention: str) -> str:
    """The line that opens a turn's announcement and pings the player to act next: ``mention``,
    their ping, or their name if they are known out of reach (``out_of_reach.addressed``).
    First, so that a phone's notification preview and a screen reader give it before the
    moves (``with_turn``)."""
    return tr("{mention}, your turn.", mention=mention)


def with_turn(turn: str, text: str) -> str:
    """``text`` (a turn's moves, a notice) announced with its "your turn" line ``turn`` (none
    when empty) on a line of its own before it."""
    return f"{turn}\n{text}" if turn and text else turn or text


def _your_turn_patterns() -> list[re.Pattern[str]]:
    # An announcement may be in any language (a server may change its own while a turn's
    # announcement waits to be posted): the "your turn" line of each, pinging or naming its
    # player (out of reach), first, or last as older versions wrote it (still to post when
    # this version took over).
    found = []
    for lang in languages():
        before, after = (re.escape(part) for part in your_turn(tr_for(lang), "\0").split("\0"))
        line = before + r"(?:<@([0-9]+)>|[^\n]+?)" + after
        # Last, only the pinging form: older versions' line; a name there could be a score
        # line's last words (a member named "Ben, your turn": review156).
        pinging = before + r"<@([0-9]+)>" + after
        found.append(re.compile(rf"^{line}(?:\n|$)|\n{pinging}$"))
    return found


_YOUR_TURN = _your_turn_patterns()


def _turn_found(text: str) -> re.Match[str] | None:
    """``text``'s "your turn" line as found, in whichever language it is."""
    for pattern in _YOUR_TURN:
        found = pattern.search(text)
        if found:
            return found
    return None


def _turn_line(text: str) -> tuple[str, str]:
    """``text``'s "your turn" line ("" if none) and the rest of it."""
    found = _turn_found(text)
    if found is None:
        return "", text
    return found[0].strip("\n"), text[:found.start()] + text[found.end():]


def turn_kept(text: str, limit: int, cut: Callable[[str, int], str]) -> str:
    """``text`` (a turn's announcement) in at most ``limit`` characters: its "your turn" line
    kept, once, first, and its moves ``cut`` to what is left (the table repeating a very long
    turn: trimmed from its top, the line saying whose turn it is would go first)."""
    turn, moves = _turn_line(text)
    if not turn or len(text) <= limit:
        return cut(text, limit)
    return with_turn(turn, cut(moves, max(0, limit - len(turn) - 1)))


def turn_mention(text: str) -> discord.AllowedMentions:
    """Only the player whose turn it is may be pinged, and nobody else, whatever the text."""
    who = turn_player(text)
    return NO_MENTIONS if who is None else only(who)


def turn_player(text: str) -> int | None:
    """The player ``text``'s "your turn" line mentions (None: no such line, or one that names
    its player, out of reach, not pinged)."""
    found = _turn_found(text)
    mention = None if found is None else found[1] or found[2]
    return None if mention is None else int(mention)


def merged(texts: list[str], limit: int = 2000) -> tuple[str, int]:
    """The first of ``texts`` joined into one message of at most ``limit`` characters, and how
    many it holds (at least one). Only the last one's "your turn" line is kept, first: the
    earlier ones are out of date, and a mention pings."""
    out, count = texts[0], 1
    bodies = [_turn_line(texts[0])[1]]
    for text in texts[1:]:
        turn, body = _turn_line(text)
        joined = with_turn(turn, "\n".join(b for b in [*bodies, body] if b))
        if len(joined) > limit:
            break
        bodies.append(body)
        out, count = joined, count + 1
    return out, count


def held(texts: list[str], content: str) -> int:
    """How many of ``texts`` a message holding their first ones says (0: not even the first),
    read from what they say rather than by laying them out again: given back by its nonce, it
    may have been merged by an older version (its "your turn" line last, an earlier one naming
    its player kept), whose layout this one's ``merged`` would not make again."""
    turn, said = _turn_line(content.strip())
    lines = _lines(said)
    split = [_turn_line(text) for text in texts]
    moves = [_lines(rest) for _, rest in split]
    best = _merged_count(split, moves, turn, lines)
    if turn and not best:
        # What reads as a turn line may be a move line: the last one merged had none, and the
        # first one's first move ends as one does (a member named "x, your turn" last in it).
        best = _merged_count(split, moves, "", _lines(content))
    if best:
        return best
    # Laid out otherwise still: the most whose moves it says, every line in their order.
    count, left = 0, iter(lines)
    while count < len(texts) and moves[count] and all(line in left for line in moves[count]):
        count += 1
    return count


def _merged_count(split: list[tuple[str, str]], moves: list[list[str]], turn: str,
                  lines: list[str]) -> int:
    """How many of the announcements (``split`` into turn line and rest, ``moves`` their lines)
    ``lines`` and ``turn`` say merged: each version keeps every one's moves, in order, and the
    last one's turn line (0: none)."""
    best = at = 0
    for count, ((its_turn, _), its_moves) in enumerate(zip(split, moves, strict=True), 1):
        if lines[at:at + len(its_moves)] != its_moves:
            break
        at += len(its_moves)
        if at == len(lines) and its_turn == turn:
            best = count
    return best


def _lines(text: str) -> list[str]:
    """The lines ``text`` says, in order (Discord trims a message's blank ends)."""
    return [line.strip() for line in text.split("\n") if line.strip()]
