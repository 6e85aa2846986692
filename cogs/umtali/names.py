"""Names and other user text made safe to show: members choose their own display names, and
a nickname such as ``@everyone``, ``<@&role>`` or ``**big**`` must stay a name.

``clean_name`` is for plain text (stored names, files): invisible and control characters out,
whitespace collapsed, stacks of marks cut to 4 (``flattened``), at most 32 characters, never
empty; ``label_name`` adds defused mentions for the places Discord shows without markdown
(menu labels, thread names).
``safe_name`` is for Discord text (messages and embeds): the clean name with its markdown
escaped and its mentions and links defused. Stored names are clean, not escaped, so escaping happens
once, where the text is made.

Both put a right-to-left name (Hebrew, Arabic) between the bidi isolates FSI and PDI
(``isolate``): the bidi controls a member typed are stripped, the bot's own added. Stored
names have none (a replay file's header isolates them as a message does; the pictures, drawn
left to right, need none: ``pictures.fonts.DIRECTION``).
"""

from __future__ import annotations

import ast
import re
import unicodedata
from collections.abc import Sequence

import discord

from data.models import Challenge
from umtali.i18n import Text, Tr
from umtali.plain_names import FALLBACK as FALLBACK
from umtali.plain_names import MAX_MARKS as MAX_MARKS
from umtali.plain_names import MAX_NAME as MAX_NAME
from umtali.plain_names import clean_name as clean_name
from umtali.plain_names import flattened as flattened
from umtali.plain_names import visible as visible

#: User input quoted back in a reply (an unknown move...) is cut to this many characters.
MAX_ECHO = 100

# A zero-width space after "@" or "<" keeps @everyone, @here, <@user>, <@&role>, <#channel>
# and </command:id> from being read as mentions, and shows the same text; so too Discord's
# other markup, drawn as something else than a name: <t:0:R> (a date), <:x:id> and <a:x:id>
# (any server's emoji), <id:customize> (a link into the server), <sound:...>.
_MENTION_START = re.compile(r"@|<(?=[@#/]|a?:|t:|id:|sound:)")
# Discord makes "scheme://..." (and "<scheme:/...>") a link, clickable and, in a message,
# previewed: a nickname such as https://evil.example/x would be one on every turn. A zero-width
# space between ":" and "/" breaks every such pattern and shows the same text.
_LINK_START = re.compile(r":(?=/)")


#: FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: what lies between them is laid out in its
#: own direction, as one neutral unit of the sentence around it (Unicode's bidi algorithm, UAX
#: #9; Discord's clients are browsers, which honour them).
FSI, PDI = "\u2068", "\u2069"
# Bidi classes that can turn text around in a left-to-right sentence: right-to-left letters
# (Hebrew R, Arabic AL) and Arabic digits (AN). A name with none of them has every character
# at the sentence's own level (English and Russian are left to right): nothing moves.
_RIGHT_TO_LEFT = frozenset({"R", "AL", "AN"})

def unnamed(name: str) -> bool:
    """Whether a stored name shows nothing of its own: nothing in it was visible, so it was
    stored as ``FALLBACK`` (as both seats' may be)."""
    return clean_name(name) == FALLBACK


def seat_word(seat: int) -> Text:
    """The name shown for a seat whose stored name shows nothing (``unnamed``): "Player 1",
    "Player 2", in the reader's language (two such names apart, never English in Russian)."""
    return (Text.ctx("a name at the table", "Player 1") if seat == 0 else
            Text.ctx("a name at the table", "Player 2"))


def seat_names(names: Sequence[str], tr: Tr) -> tuple[str, str]:
    """The players' stored names as ``tr``'s reader sees them: one that shows nothing by its
    seat (``seat_word``), the others cleaned again (``clean_name``: a name stored under an
    older cleaning is shown by today's)."""
    return (tr(seat_word(0)) if unnamed(names[0]) else clean_name(names[0]),
            tr(seat_word(1)) if unnamed(names[1]) else clean_name(names[1]))


def record_name(name: str, user_id: int, tr: Tr) -> str:
    """A member's stored name read away from its match (boards, stats, history), as ``tr``'s
    reader sees it; plain, for ``safe_name``. One that shows nothing is "Player" and the last
    four digits of their Discord id ("Игрок …4821"): no seat means anything there, and two such
    on one board or in one head-to-head are told apart, the same member alike wherever shown.
    Others cleaned again, as ``seat_names`` does."""
    if not unnamed(name):
        return clean_name(name)
    digits = str(user_id % 10000).zfill(4)
    return tr("Player …{digits}", digits=digits)


def challenge_names(ch: Challenge, tr: Tr) -> tuple[str, str]:
    """The challenger's and the opponent's stored names as ``tr``'s reader sees them: one that
    shows nothing by the seat it takes ("Player 1"; ``names.seat_names``), as the table will
    name it."""
    seated = seat_names((ch.seated[0][1], ch.seated[1][1]), tr)
    return seated if ch.rematch_of is None else (seated[1], seated[0])


def defuse_mentions(text: str) -> str:
    return _MENTION_START.sub(lambda m: m.group(0) + "\u200b", text)


def defuse_links(text: str) -> str:
    return _LINK_START.sub(":\u200b", text)


def isolate(text: str) -> str:
    """``text`` (a name made safe) as one unit of the sentence it is put in: between FSI and
    PDI when it holds a right-to-left letter or an Arabic digit. Else, in "أحمد melded 7♥ 8♥
    9♥ (12 → 15)" or "3. שרה 1520", the bidi algorithm joins the numbers and signs after
    the name to its right-to-left run (the score shown before the name), and a message opening
    with it is laid out right to left. A name without them is left as it is: it cannot move
    anything in an English or Russian sentence (tests/test_names_bidi.py)."""
    if any(unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT for ch in text):
        return FSI + text + PDI
    return text


def shorten(text: str, limit: int) -> str:
    """``text`` holding isolated names cut to ``limit`` characters (a label's 100): an
    isolate the cut leaves open is closed within the limit."""
    if len(text) <= limit:
        return text
    kept = text[:limit]
    if kept.count(FSI) > kept.count(PDI):
        kept = text[:limit - 1]  # room for the PDI
        if kept.count(FSI) > kept.count(PDI):
            # An FSI left last isolates nothing: dropped rather than closed.
            kept = kept[:-1] if kept.endswith(FSI) else kept + PDI
    return kept


def label_name(text: str) -> str:
    """A name for Discord text without markdown (menu labels, thread names): clean, mentions
    defused, nothing escaped (a backslash would show), isolated if right to left."""
    return isolate(defuse_mentions(clean_name(text)))


def safe_text(text: str) -> str:
    """User text for a Discord message: links and mentions defused, markdown escaped (not
    shortened). Links first: ``escape_markdown`` leaves a link's own text as it is, so the
    markdown in a link it no longer sees is escaped too."""
    return defuse_mentions(discord.utils.escape_markdown(defuse_links(visible(text))))


def safe_name(text: str) -> str:
    """A name for a Discord message or embed: clean, then escaped (so it may exceed 32), and
    isolated if right to left."""
    return isolate(safe_text(clean_name(text)))


def server_name(text: str) -> str:
    """A server's name for a Discord message or embed: as ``safe_text`` makes it (not cut to a
    member's 32 characters: a server's name may have 100), isolated if right to left, as a
    member's is ("Umtali leaderboard · שרת!" read the "!" at the name's wrong end). Empty
    if nothing in it shows."""
    return isolate(safe_text(text))


def member_name(user: discord.abc.User) -> str:
    """A member's display name, safe for a Discord message."""
    return safe_name(user.display_name)


def plain_member_name(user: discord.abc.User) -> str:
    """A member's display name to store or to put in plain text."""
    return clean_name(user.display_name)


def plain_global_name(user: discord.abc.User) -> str:
    """A member's Discord-wide display name (their global name, else their username), to
    store for the records of all servers: not their nickname here, which is this server's
    alone (chosen here, perhaps by its moderators) and not for other servers to read."""
    return clean_name(user.global_name or user.name)


def echo(text: str, limit: int = MAX_ECHO) -> str:
    """User input quoted back in a reply: visible, at most ``limit`` characters, safe."""
    shown = visible(text)
    if len(shown) > limit:
        shown = shown[:limit - 1].rstrip() + "…"
    return safe_text(shown)


def as_typed(quoted: str) -> str:
    r"""Visible text the engine quoted with ``repr()`` (for a terminal, where it shows what is
    hidden), as typed and unquoted: ``'a\\b'`` is ``a\b``, ``"it's"`` is ``it's``. In a
    message the escapes would show, as backslashes the member never typed; the quotes are the
    reader's language's (``QUOTED``)."""
    try:
        raw = ast.literal_eval(quoted)
    except (ValueError, SyntaxError):
        return quoted
    return raw if isinstance(raw, str) else quoted


#: What a member typed, quoted back: English “…”, Russian «…».
QUOTED = Text.ctx("typed text quoted back", "“{text}”")
