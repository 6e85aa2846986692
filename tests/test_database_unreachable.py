"""A database server out of reach for now (down, still starting at boot, the network) is
told apart from a database someone must mend (a refused login, a missing database, a newer
schema): the first ends the start with exit status 1, as Discord out of reach does, so that
a supervisor tries again (docs/examples/umtali.service); the others with exit status 2."""

from __future__ import annotations

import asyncpg
import pytest

from bot import EXIT_DATABASE_ERROR, EXIT_FOR_NOW
from data.db import DatabaseUnreachable, DatabaseUnusable, SchemaTooNew
from data.pg_db import unusable

WHERE = "postgresql://umtali@db/umtali"


@pytest.mark.parametrize("cause", [
    ConnectionRefusedError(111, "Connect call failed"),
    OSError(113, "No route to host"),
    TimeoutError(),
    asyncpg.CannotConnectNowError("the database system is starting up"),
])
def test_a_server_out_of_reach_is_so_for_now(cause: BaseException) -> None:
    error = unusable(WHERE, cause)
    assert isinstance(error, DatabaseUnreachable)
    assert WHERE in str(error)


@pytest.mark.parametrize("cause", [
    asyncpg.InvalidPasswordError("password authentication failed"),
    asyncpg.InvalidCatalogNameError('database "umtali" does not exist'),
    SchemaTooNew(99, 36),
    ValueError("invalid DSN"),
])
def test_what_someone_must_mend_is_not(cause: BaseException) -> None:
    error = unusable(WHERE, cause)
    assert isinstance(error, DatabaseUnusable) and not isinstance(error, DatabaseUnreachable)


def test_the_two_end_the_start_differently() -> None:
    assert (EXIT_FOR_NOW, EXIT_DATABASE_ERROR) == (1, 2)
