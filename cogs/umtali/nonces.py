"""The nonces the bot's messages carry. discord.py asks Discord to enforce a nonce it is
given: a message sent with a nonce the bot used within the last minutes is not created again,
and the first one comes back instead. So a message whose call failed after Discord carried it
out (its answer lost on the way: given up after 30 s, or a 5xx), sent again by the bot, is not
doubled, provided its nonce names it: the same for the same message, whichever try or process
sends it, and another for any other message (Discord holds them per bot, across channels).
discord.py's own tries of one call (after a 5xx) share the nonce it was given, or one it drew
itself."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cogs.umtali.live import LiveMatch


def nonce_of(*parts: object) -> str:
    """The nonce naming the message ``parts`` describe (at most 25 characters, as Discord
    wants)."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return str(int.from_bytes(digest[:8], "big"))


def match_nonce(live: LiveMatch, *parts: object) -> str:
    """The nonce naming a message of the match ``live`` that ``parts`` describe. The match is
    named by its id and its commitment: a new database numbers its matches from 1 again, and
    a nonce of its match 1 must not name one of the old match 1, sent minutes before."""
    return nonce_of(live.id, live.commitment, *parts)
