"""The loopback's global rate limit counts a second from when its first call may have arrived,
not from when the loopback, busy, got round to it (tests/loopback/ratelimit.py)."""

from __future__ import annotations

from tests.loopback.ratelimit import GlobalLimit

PATH = "/channels/1/messages"


def test_a_second_starts_when_its_first_call_may_have_arrived() -> None:
    now = [0.0]
    limit = GlobalLimit(2, clock=lambda: now[0])
    # The loop stood still from 0.0 to 0.1: the second's two calls are handled late.
    now[0] = 0.1
    assert limit.retry_after(PATH, arrived=0.0) is None
    assert limit.retry_after(PATH, arrived=0.1) is None
    # The next second's calls, sent on time and handled at once, are within it.
    now[0] = 1.05
    assert limit.retry_after(PATH, arrived=1.05) is None
    assert limit.retry_after(PATH, arrived=1.05) is None
    assert (limit.busiest_second(), limit.refused) == (2, 0)
    # A third call in that second is over the limit.
    assert limit.retry_after(PATH, arrived=1.06) is not None
    assert limit.refused == 1


def test_a_call_handled_late_is_not_counted_in_the_second_before() -> None:
    now = [0.0]
    limit = GlobalLimit(2, clock=lambda: now[0])
    assert limit.retry_after(PATH, arrived=0.0) is None
    # The loop stood still from 0.9; a call of the next second is handled at 1.1. It may have
    # come before the second ended, but it is handled after: a new second, starting as the
    # last one ended at the earliest.
    now[0] = 1.1
    assert limit.retry_after(PATH, arrived=0.9) is None
    assert limit.seconds == [1, 1]
    assert limit._started == 1.0
