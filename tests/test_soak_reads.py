"""The soak's reads of a PostgreSQL database (tests/loopback/saved_db.py): one stuck longer
than allowed is said to be the soak's own trouble, and the next read still answers."""

from __future__ import annotations

import pytest

from tests.loopback import saved_db
from tests.loopback.saved_db import ReadStuck, done_with, query

pytestmark = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])


def test_a_read_stuck_is_the_soaks_trouble_and_the_next_one_answers(
        store_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(saved_db, "TIMEOUT", 0.2)
    try:
        with pytest.raises(ReadStuck, match=r"took over 0\.2 s"):
            query(store_target, "SELECT pg_sleep(2)")
        [row] = query(store_target, "SELECT count(*) AS n FROM matches")
        assert row["n"] == 0
    finally:
        done_with(store_target)
