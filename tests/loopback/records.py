"""What the loopback Discord remembers for tests: REST calls, faults, interactions, members.

Plain records, shared by the server and its parts, so a test reads them without knowing which
part filled them in.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from tests.loopback.attachments import Files

#: The message flag of a reply only its member sees.
EPHEMERAL = 64


@dataclass
class Call:
    """One REST call the bot made, and what it was answered."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    match: dict[str, str] = field(default_factory=dict)
    status: int = 0
    #: The files uploaded with it: (filename, bytes).
    files: Files = field(default_factory=list)
    #: Who sent it (discord.py, or a proxy in front of it).
    user_agent: str = ""
    #: When it came (``time.time``, as the snowflakes are): for a soak's trace.
    at: float = field(default_factory=time.time)
    #: When it came, by ``time.perf_counter`` (an interaction's age at its answer: ``answers``).
    came: float = field(default_factory=time.perf_counter)
    #: A post sent again with its nonce (``enforce_nonce``): the first message given back,
    #: none created, nothing new shown.
    given_back: bool = False


@dataclass
class Fault:
    """Answer the next ``times`` calls matching ``method`` and ``pattern`` with an error."""

    method: str
    pattern: re.Pattern[str]
    times: int
    status: int = 429
    retry_after: float = 0.05
    code: int = 0
    hits: int = 0
    #: Instead of answering, hold the call until ``release()`` (a bot dying mid-call).
    hold: bool = False
    #: With ``hold``: once released, answer the call as usual (a slow Discord, not a dead one).
    passes: bool = False
    #: With ``hold``: the call carried out first, its answer then held (lost on its way).
    lost: bool = False
    held: list[Call] = field(default_factory=list)


@dataclass
class Interaction:
    """An interaction a member made, and the bot's answers to it."""

    id: int
    token: str
    payload: dict[str, Any]
    #: The callback (type 4, 5, 6, 7, 8 or 9) and its data; ``None`` until it came.
    callback_type: int | None = None
    callback: dict[str, Any] = field(default_factory=dict)
    #: The message the callback created or updated, then every follow-up, in order.
    messages: list[dict[str, Any]] = field(default_factory=list)
    followups: list[dict[str, Any]] = field(default_factory=list)
    callbacks: int = 0
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    #: perf_counter() when INTERACTION_CREATE went out and when the callback came in.
    sent_at: float = 0.0
    answered_at: float = 0.0
    #: Refused a first answer that came after Discord's 3 seconds (``answers.EXPIRES_AFTER``).
    expired: bool = False
    #: perf_counter() when the bot's gateway connection was sent it (0: not yet).
    delivered_at: float = 0.0

    @property
    def ephemeral(self) -> bool:
        """Whether everything the bot said in answer was private (flags 64)."""
        if self.callback_type in (4, 5):
            said = [self.callback, *self.followups]
        else:
            # An update (7) edits the message the component was on: private if that one is.
            said = [*self.messages[:1], *self.followups]
        return all(int(m.get("flags") or 0) & EPHEMERAL for m in said)

    @property
    def response(self) -> dict[str, Any] | None:
        """The message the answer created or updated (an ephemeral one included)."""
        return self.messages[0] if self.messages else None

    def text(self) -> str:
        """Everything the answer said, as one string (for assertions on wording)."""
        return json.dumps([self.callback, *self.followups], ensure_ascii=False)


@dataclass(frozen=True)
class Member:
    """A member given as a slash command option."""

    id: int
