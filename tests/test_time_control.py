"""Time control arithmetic: a reserve is spent only past a turn's own time."""

from __future__ import annotations

import pytest

from cogs.umtali.time_control import PRESETS, time_control


def test_a_turn_within_its_own_time_costs_no_reserve() -> None:
    blitz = PRESETS["blitz"]
    deadline = blitz.deadline(1000.0, 120.0)
    assert deadline == 1000 + 30 + 120
    assert blitz.reserve_after(deadline, 120.0, ended=1029.0) == 120.0
    assert not blitz.in_reserve(deadline, 120.0, 1029.0)


def test_a_slow_turn_spends_only_what_it_took_past_its_own_time() -> None:
    blitz = PRESETS["blitz"]
    deadline = blitz.deadline(1000.0, 120.0)
    assert deadline is not None
    assert blitz.in_reserve(deadline, 120.0, 1031.0)
    assert blitz.reserve_after(deadline, 120.0, ended=1075.0) == pytest.approx(75.0)
    # The next turn starts with what is left.
    nxt = blitz.deadline(2000.0, 75.0)
    assert nxt == 2000 + 30 + 75
    assert blitz.reserve_after(nxt, 75.0, ended=nxt) == 0.0


@pytest.mark.parametrize("name", ["blitz", "normal", "correspondence"])
def test_every_timed_preset_warns_within_its_turn(name: str) -> None:
    tc = PRESETS[name]
    assert tc.timed and 0 < tc.warn_before < tc.turn


def test_off_has_no_clock_and_correspondence_asks() -> None:
    assert PRESETS["off"].deadline(5.0, 0.0) is None
    assert PRESETS["correspondence"].on_timeout == "ask"
    assert PRESETS["correspondence"].notify_turn
    assert {PRESETS[n].on_timeout for n in ("blitz", "normal")} == {"forfeit"}


def test_a_match_from_before_presets_keeps_its_turn_timer() -> None:
    old = time_control("", 120)
    assert (old.turn, old.reserve, old.warn_before, old.on_timeout) == (120, 0, 60, "forfeit")
    assert time_control("", 0).deadline(1.0, 0.0) is None
    assert time_control("normal", 999) is PRESETS["normal"]
