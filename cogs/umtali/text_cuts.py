"""Long texts cut to a Discord limit (a message's 2,000 characters, a field's 1,024...) where a
reader loses least: the start kept at the end of a line, else of a word, an ellipsis saying
something was cut, and never inside what the cut would break, the markdown after it read
wrong: an escape (``\\*``), a mention or a timestamp (``<@123>``, ``<t:1:R>``), a pair of
markdown signs (``**``, ``||``, a code span), a right-to-left name's isolate (``names.isolate``).
A bare ``text[:2000]`` did all of these, and dropped the text's last line, which is often the
one that matters (the answer to a question, how a session ended): ``with_end`` keeps it whole.
The end of a text, not its start, is ``showing.tail``'s; a plain label's, ``names.shorten``."""

from __future__ import annotations

from cogs.umtali.names import FSI, PDI

ELLIPSIS = "…"
#: Markdown signs that come in pairs, longest first (a code span's backtick holds the others).
_PAIRS = ("**", "__", "~~", "||", "`")


def head(text: str, limit: int) -> str:
    """The start of ``text`` in at most ``limit`` characters: whole lines (else whole words),
    then an ellipsis, the markdown left open closed after it; ``text`` if it fits."""
    if len(text) <= limit:
        return text
    room = limit - 2
    while room > 0:
        cut = _cut(text, room)
        closing = _closing(cut)
        out = cut + ("\n" + ELLIPSIS if _ends_line(text, cut) else ELLIPSIS) + closing
        if len(out) <= limit:
            return out
        room -= len(out) - limit
    return ELLIPSIS[:limit]


def with_end(body: str, end: str, limit: int) -> str:
    """``body``, then ``end`` on a line of its own: ``end`` kept whole (it says what matters:
    an answer, an ending), ``body`` cut to what is left (``head``)."""
    text = body + "\n" + end
    if len(text) <= limit:
        return text
    if len(end) + 2 > limit:
        return head(end, limit)
    return head(body, limit - len(end) - 1) + "\n" + end


def _cut(text: str, room: int) -> str:
    """``text`` cut to at most ``room`` characters at the end of a line, if that keeps half of
    them, else of a word, never inside an escape, a mention or an isolate's opening."""
    kept = text[:room]
    line = kept.rfind("\n")
    if line >= room // 2:
        kept = kept[:line]
    elif text[room:room + 1] not in (" ", "\n"):
        # A no-break space holds cards (and a meld's note) together: not a place to cut.
        space = kept.rfind(" ")
        if space > 0:
            kept = kept[:space]
    kept = kept.rstrip(" ")
    # A mention or a timestamp cut open reads as its raw text: cut before it.
    opened = kept.rfind("<")
    if opened > kept.rfind(">"):
        kept = kept[:opened].rstrip(" ")
    # A backslash left last escapes nothing, or the ellipsis: dropped with what it escaped.
    trailing = len(kept) - len(kept.rstrip("\\"))
    if trailing % 2:
        kept = kept[:-1]
    if kept.endswith(FSI):
        kept = kept[:-1]  # isolating nothing
    return kept


def _ends_line(text: str, cut: str) -> bool:
    return text[len(cut):len(cut) + 1] == "\n"


def _closing(text: str) -> str:
    """What closes the markdown pairs and the isolates ``text`` leaves open, innermost first."""
    opened: list[str] = []
    i = 0
    while i < len(text):
        if "`" in opened:
            # Nothing is markdown in a code span, backslashes included, until its backtick.
            if text[i] == "`":
                opened.remove("`")
            i += 1
            continue
        if text[i] == "\\":
            i += 2
            continue
        sign = next((s for s in _PAIRS if text.startswith(s, i)), None)
        if sign is not None:
            if sign in opened:
                del opened[len(opened) - 1 - opened[::-1].index(sign)]
            else:
                opened.append(sign)
            i += len(sign)
            continue
        if text[i] == FSI:
            opened.append(PDI)
        elif text[i] == PDI and PDI in opened:
            opened.remove(PDI)
        i += 1
    return "".join(reversed(opened))
