"""The database's failures that may pass: another writer holding an SQLite file past the busy
timeout, a PostgreSQL connection lost or refused, a lock waited on too long, a statement
cancelled by its timeout, a server shutting down. Not bugs of ours (a missing table, a syntax
error, a constraint broken are): a member is told to try again in a moment, what the bot
was doing is tried again, and they are logged as warnings, as Discord failing for now is."""

from __future__ import annotations

import sqlite3

import asyncpg

#: SQLite's words for such a failure, from its ``OperationalError`` (which also says "no such
#: table" and "syntax error", bugs).
_SQLITE = ("database is locked", "database table is locked", "database schema is locked",
           "disk i/o error", "database or disk is full", "unable to open database file")
#: PostgreSQL's: the connection lost or refused (class 08), the server shutting down or
#: cancelling the statement (57), out of connections or memory (53), a lock not had in time
#: (55P03), a deadlock or a serialization failure (40).
_POSTGRES = (asyncpg.PostgresConnectionError, asyncpg.OperatorInterventionError,
             asyncpg.InsufficientResourcesError, asyncpg.LockNotAvailableError,
             asyncpg.TransactionRollbackError)


def _from_driver(error: BaseException) -> bool:
    """Whether ``error`` was raised inside asyncpg (its traceback passes through it)."""
    tb = error.__traceback__
    while tb is not None:
        if str(tb.tb_frame.f_globals.get("__name__", "")).startswith("asyncpg."):
            return True
        tb = tb.tb_next
    return False


def failing_for_now(error: BaseException) -> bool:
    """Whether ``error`` is the database failing for a while, not a bug."""
    if isinstance(error, OSError | TimeoutError):
        # The server out of reach as the pool connects (restarting: its socket gone, the
        # connection refused) or not answering in time: the system's error, not asyncpg's.
        # Raised anywhere else (a file of ours missing), it is no database's.
        return _from_driver(error)
    if isinstance(error, sqlite3.OperationalError):
        said = str(error).lower()
        return any(words in said for words in _SQLITE)
    if isinstance(error, asyncpg.exceptions.InternalClientError):
        # A pooled connection the server ended while idle, used again before asyncpg saw it
        # close (the server restarted, its backends terminated): asyncpg's protocol trips on
        # its own state (MagicStack/asyncpg#1069, #784), a disconnect in effect.
        return "cannot switch to state" in str(error)
    if isinstance(error, asyncpg.InterfaceError):
        # The pool's connection closed under a query (the server restarted); any other
        # misuse of the driver is a bug.
        return "connection" in str(error).lower() and "closed" in str(error).lower()
    return isinstance(error, _POSTGRES)
