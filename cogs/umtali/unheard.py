"""Saves whose answer was lost: the COMMIT went through, and the bot was told it failed (the
connection to PostgreSQL dropped as the COMMIT was acknowledged, a timeout after it was sent, a
failing disk under SQLite's last step).

Any failure of a save but the store's own refusals (which come before anything is written) is of
unknown outcome, and the database settles it (``settled``): it is read back, and a save found
there is carried on as a success. Found not saved, its error goes on as before (nothing
changed), and the match is read again at the clock's next check all the same: a COMMIT may
still reach the server after the read. If the read fails too, the outcome stays unknown:
memory is left as it was (never ahead of the database) and the match marked
``LiveMatch.doubted``, which the clock's next check settles first (``Playing.settle``), before
it judges the turn on a deadline that may be stale.

Two saves of a match's holding settle otherwise, read and unread: a take to act on a match held
elsewhere (``Owners.hold``), whose action fails if the read does (nothing of it is saved yet;
the take lapses), and a turn resumed as a match is claimed (``clock.resume_after_downtime``),
whose claim is kept until the resume is read (``Owners``): resumed twice, a turn would get its
time back twice.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar
from weakref import WeakKeyDictionary

from cogs.umtali.lasting import Lasting
from data.db import INTEGRITY_ERRORS
from data.models import Challenge
from data.store import AlreadyPlaying, Refused, StaleState, Store

if TYPE_CHECKING:
    from cogs.umtali.live import LiveMatch
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

T = TypeVar("T")


class InDoubt(Exception):
    """A save failed, and whether it went through could not be read (its own error is the
    cause): the player is told it may have (``cogs.umtali.errors``); the clock settles it."""

#: The store's refusals, raised inside the transaction before it commits: known not saved.
REFUSALS: tuple[type[Exception], ...] = (StaleState, AlreadyPlaying, Refused, *INTEGRITY_ERRORS)


async def settled(what: str, save: Awaitable[T], landed: Callable[[], Awaitable[T | None]],
                  doubt: Callable[[], None] = lambda: None) -> T:
    """``save``'s result. Should it fail (but by a refusal), ``landed`` reads the database:
    its answer (not None) is the save's result, the save having gone through; None, the save's
    error is raised. Should that read fail too, ``doubt`` is called and InDoubt raised.
    ``what``: the save, for the log."""
    try:
        return await save
    except REFUSALS:
        raise
    except Exception as e:
        try:
            found = await landed()
        except Exception as again:
            log.warning("%s: failed (%s: %s), and whether it was saved could not be read "
                        "(%s: %s); settled later", what, e.__class__.__name__, e,
                        again.__class__.__name__, again)
            doubt()
            raise InDoubt(f"{what}: saved or not, unknown") from e
        except BaseException:
            # Cancelled as it read: as unknown as if cancelled during the save (below).
            doubt()
            raise
        if found is None:
            # Not saved yet: a COMMIT that reached the server late, or one still being written
            # when a timeout gave up on it, lands after this read. Read again at the clock's
            # next check (one read), as memory would otherwise stay behind for good.
            doubt()
            raise  # the save's own error
        log.warning("%s: saved, though the database's answer was lost (%s: %s)", what,
                    e.__class__.__name__, e)
        return found
    except BaseException:
        # Cancelled: the COMMIT may still go through (a shared transaction runs on).
        doubt()
        raise


#: The doubted matches whose reads back fail in a row (the database away): said once.
_unread: WeakKeyDictionary[LiveMatch, Lasting] = WeakKeyDictionary()


async def settle_first(svc: MatchService, live: LiveMatch) -> bool:
    """The clock's check of a doubted match reads it back before judging its turn (its
    deadline may be that of a turn already played); False if the read failed again. Each
    check tries (every second): a WARNING at the first failure, an INFO once read back."""
    try:
        await svc.settle(live)
    except Exception as e:
        failing = _unread.get(live)
        if failing is None:
            failing = _unread[live] = Lasting(
                log, f"match {live.id}: whether its last save went through could not be read",
                f"match {live.id}: its last save read back")
        failing.failed(e)
        return False
    if (failing := _unread.pop(live, None)) is not None:
        failing.worked()
    return True


async def challenge_made(store: Store, guild_id: int, pair: tuple[int, int], now: float,
                         seed: str) -> Challenge | None:
    """The open challenge between ``pair`` (challenger, opponent) made at ``now`` with
    ``seed``: this process's, saved, its answer lost; else None."""
    ch = await store.open_challenge_between(guild_id, *pair, now)
    return ch if ch is not None and (ch.created_at, ch.seed) == (now, seed) else None
