"""A first delivery retry a minute away, not 5 s: none fires by itself while SimCord waits for
the bot to settle (its timers fire in real time too); a test moves time on past ``RETRY``.
Imported by a test module, the fixture applies to all its tests."""

from __future__ import annotations

import pytest

import cogs.umtali.retries

#: Seconds before a first retry.
RETRY = 60.0


@pytest.fixture(autouse=True)
def slow_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cogs.umtali.retries, "RETRY_FIRST", RETRY)
