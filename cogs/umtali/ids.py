"""Ids read from what a client sends: a component's custom id, a menu's chosen value.

Anyone can send any custom id (up to 100 characters) to a bot's message, so its digits are the
client's word: a number past SQLite's signed 64-bit integers (``OverflowError`` on the query)
or characters that only look like digits (``"²".isdigit()``) must not reach the database or
``int()``. Such an id reads as 0, which names no match, challenge or server, so the member gets
the usual short "not found" answer. The templates keep ``[0-9]+`` (ASCII digits only, bounded
by the custom id's length): a tighter bound would leave a forged click with no answer at all.
"""

from __future__ import annotations

#: The largest id the database holds (and Discord's snowflakes stay below).
MAX_ID = 2**63 - 1


def id_of(digits: str) -> int:
    """``digits`` as an id; 0 (no such thing) unless they are ASCII digits within ``MAX_ID``."""
    if not (digits.isascii() and digits.isdigit()) or len(digits) > len(str(MAX_ID)):
        return 0
    value = int(digits)
    return value if value <= MAX_ID else 0


def custom_ids(message: object) -> list[str]:
    """The custom ids of ``message``'s components (a clicked one: ``interaction.message``,
    perhaps None), row by row; "" for one that has none (a link button)."""
    return [getattr(child, "custom_id", None) or ""
            for row in getattr(message, "components", None) or ()
            for child in getattr(row, "children", ())]


def carries_only(message: object, prefix: str) -> bool:
    """Whether ``message`` carries components, all of whose custom ids begin with ``prefix``:
    a page's own buttons. A page button forged onto another message (a table, a challenge)
    must not turn it into that page."""
    ids = custom_ids(message)
    return bool(ids) and all(i.startswith(prefix) for i in ids)
