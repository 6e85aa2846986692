"""Names made plain (``clean_name``): invisible and control characters out, whitespace
collapsed, stacks of marks cut to 4 (``flattened``), at most 32 characters, never empty. The
bot's names on Discord start here (``cogs.umtali.names`` makes them safe for its markdown);
the terminal game's ``--name`` is cleaned the same (``umtali.cli_play``)."""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 32
FALLBACK = "Player"

# Cc: control characters (newlines included); Cf: format characters, which hold the
# zero-width ones (U+200B-U+200F, U+FEFF) and the bidi overrides and isolates (U+202A-U+202E,
# U+2066-U+2069); Zl/Zp: line and paragraph separators; Co/Cs/Cn: private, broken, unassigned.
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
#: Letters and a mark by their category, drawn as nothing: the Hangul fillers and the blank
#: braille pattern, a blank as wide as a letter (Discord's "invisible name": a space here),
#: and the combining grapheme joiner, of no width (gone).
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_JOINER = "\u034f"

_ZWJ = "\u200d"
# A flag of a region's subdivision (England: 🏴 and "gbeng") is the black flag, the
# subdivision's code in tag characters (CLDR's codes: 3 to 7 lowercase letters and digits)
# and a cancel tag. Tag characters anywhere else are invisible, and could only hide text. A
# bounded run: linear however many tags a name carries.
_TAG_FLAG = re.compile("\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{3,7}\U000e007f")
# What may stand between an emoji and a ZWJ that follows it: the emoji presentation selector
# (❤️‍🔥) and the skin tones (👨🏽‍💻).
_SKIN_TONES = frozenset(map(chr, range(0x1F3FB, 0x1F400)))
_EMOJI_TAIL = frozenset({"\ufe0f", *_SKIN_TONES})


def _joins_emoji(text: str, i: int) -> bool:
    """Whether the ZWJ at ``text[i]`` joins two emoji (👨‍👩‍👧), as written: one ZWJ alone
    between two symbols. A run of them, or one beside a letter or another hidden character,
    could only hide text."""
    before = i - 1
    while before >= 0 and text[before] in _EMOJI_TAIL:
        before -= 1
    return (before >= 0 and i + 1 < len(text) and unicodedata.category(text[before]) == "So"
            and unicodedata.category(text[i + 1]) == "So")


def _flag_tags(text: str) -> set[int]:
    """Where in ``text`` the tag characters of subdivision flags (🏴󠁧󠁢󠁥󠁮󠁧󠁿) are."""
    return {i for m in _TAG_FLAG.finditer(text) for i in range(m.start() + 1, m.end())}


def visible(text: str) -> str:
    """``text`` without invisible or control characters, its whitespace collapsed, its stacks
    of marks cut to 4 (``flattened``: after the hidden characters go, which could part a
    stack). A zero-width joiner is kept only inside an emoji sequence, which it draws as one
    emoji; tag characters only in a subdivision flag (🏴󠁧󠁢󠁥󠁮󠁧󠁿), which they draw."""
    flags = _flag_tags(text)
    # A line break or tab (control characters) still parts words: "meld 8D\n9D" is two cards.
    shown = "".join(" " if ch.isspace() or ch in _BLANK else ch for i, ch in enumerate(text)
                    if ch.isspace() or ch in _BLANK
                    or (unicodedata.category(ch) not in _HIDDEN and ch != _JOINER)
                    or (ch == _ZWJ and _joins_emoji(text, i)) or i in flags)
    return " ".join(flattened(shown).split())


#: The most nonspacing or enclosing marks kept on one character: Unicode's limit for such a
#: stack (UTS #39, 5.4). Real words need at most 4 (2 on a Vietnamese vowel typed apart, 4 on a
#: Hebrew letter with points and cantillation, 3 in a Tibetan stack); "zalgo" puts dozens on
#: a letter, drawn over the lines above and below the name (tests/test_fix145_zalgo_names.py).
MAX_MARKS = 4
_STACKED = frozenset({"Mn", "Me"})


def _stacked(ch: str) -> bool:
    return unicodedata.category(ch) in _STACKED


def flattened(text: str) -> str:
    """``text`` with at most ``MAX_MARKS`` marks stacked on any character. A stack is counted
    composed (NFC: "e" with a circumflex and a tilde is "ễ", no mark at all); one of up to
    four marks as typed stays as typed, a longer one is composed and keeps its first four
    marks (in canonical order). A spacing mark (a Devanagari vowel sign) takes its own room:
    the marks after it are a stack of their own."""
    kept: list[str] = []
    start = 0
    while start < len(text):
        end = start + 1
        while end < len(text) and _stacked(text[end]):
            end += 1
        stack = text[start:end]
        if end - start - 1 > MAX_MARKS:
            stack = _cut(unicodedata.normalize("NFC", stack))
        kept.append(stack)
        start = end
    return "".join(kept)


def _cut(stack: str) -> str:
    """A composed ``stack`` (a character and the marks on it, or marks alone) with its first
    ``MAX_MARKS`` marks."""
    kept: list[str] = []
    marks = 0
    for ch in stack:
        marks += _stacked(ch)
        if marks <= MAX_MARKS or not _stacked(ch):
            kept.append(ch)
    return "".join(kept)


def _joins_before(ch: str) -> bool:
    """Whether ``ch`` is drawn joined to the character before it: a combining mark (an
    accent, a variation selector, the keycap's U+20E3) or an emoji's skin tone."""
    return unicodedata.category(ch).startswith("M") or ch in _SKIN_TONES


def _own_start(text: str) -> str:
    """``text`` from its first character that stands on its own: what went before it would
    join the text the name is put after (an accent on our quote or colon, "1" and
    "\ufe0f\u20e3" a keycap emoji), and with nothing after it, a name of marks alone shows
    accents over nothing, in a message and in a picture."""
    start = 0
    while start < len(text) and (text[start].isspace() or _joins_before(text[start])):
        start += 1
    return text[start:]


def clean_name(text: str) -> str:
    """A name for plain text: visible characters only, at most 32, never empty; nothing at
    its start that joins what comes before it (``_own_start``). Made visible again after the
    cut: a joiner it left last joins nothing, a flag it cut leaves stray tags."""
    return plain_name(text) or FALLBACK


def plain_name(text: str) -> str:
    """``clean_name`` but '' when nothing in ``text`` is visible (the caller's own default
    then: the terminal's is in the player's language)."""
    return visible(_own_start(visible(text))[:MAX_NAME])
