"""The notes a process leaves for whoever brings its matches back (``cogs.umtali.alive``):
time owed by match, read back as written, and a note no bot of ours wrote owes nothing."""

from __future__ import annotations

import json
import logging

import pytest

from cogs.umtali.alive import Notes, held_since, last_alive, owed_of, turn_still
from cogs.umtali.judged import owed_on


def test_time_owed_is_read_back_by_match() -> None:
    note = json.dumps({"7": [1000.5, 600.0], "9": [2000.0, 30.0]})
    assert owed_of(note) == {7: (1000.5, 600.0), 9: (2000.0, 30.0)}
    assert owed_on(owed_of(note).get(7), 1000.5) == 600.0
    # A turn whose deadline moved on since (paid, or another turn) is owed nothing.
    assert owed_on(owed_of(note).get(7), 1600.5) == 0.0
    assert owed_on(owed_of(note).get(7), None) == 0.0
    assert owed_on(owed_of(note).get(8), 1000.5) == 0.0


def test_a_step_back_owed_by_a_turn_is_read_back() -> None:
    """Less than nothing: a step back of the clock the turn owes (``steps``), taken at a
    restart or a take-over as time owed to it is given (review158: left out, the turn gained
    the step)."""
    note = json.dumps({"7": [1000.5, -600.0]})
    assert owed_of(note) == {7: (1000.5, -600.0)}
    assert owed_on(owed_of(note).get(7), 1000.5) == -600.0


@pytest.mark.parametrize("note", ["", None, "{}"])
def test_no_note_owes_nothing(note: str | None) -> None:
    assert owed_of(note) == {}


@pytest.mark.parametrize("note", ["not json", "[1, 2]", '{"x": [1, 2]}', '{"7": [1]}',
                                  '{"7": "ab"}', '{"7": [null, 3]}', "[" * 100000 + "]" * 100000])
def test_a_note_no_bot_wrote_owes_nothing(note: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert owed_of(note) == {}
    assert "could not be read" in caplog.text


@pytest.mark.parametrize("entry", ["[1000.0, Infinity]", "[1000.0, NaN]", "[Infinity, 60]",
                                   "[1000.0, 1e300]", "[1000.0, -1e300]", "[1000.0, 0]"])
def test_a_time_no_clock_owes_is_not_given(entry: str,
                                           caplog: pytest.LogCaptureFixture) -> None:
    note = '{"7": ' + entry + ', "8": [2000.0, 30.0]}'
    with caplog.at_level(logging.WARNING):
        assert owed_of(note) == {8: (2000.0, 30.0)}
    assert "no clock owes" in caplog.text




def by_match(turns: str, alive: str = "1000.0 still") -> str:
    """A note by match as ``heartbeat`` writes it beside ``alive``, its entries ``turns``."""
    return f'{{"noted":{json.dumps(alive)},"turns":{turns}}}'


TURNS = json.dumps({"7": [1000.0, 5000.0], "8": [1200.0, 6000.0, 6060.0], "9": [None, 7000.0]})
STILL: Notes = ("1000.0 still", by_match(TURNS))


def test_since_when_a_turn_stood_still_is_read_by_match() -> None:
    # A bot from before these entries reads the note of when it was last alive as ever.
    assert last_alive(STILL[0]) == (1000.0, True)
    assert held_since(STILL, 7, 5000.0) == 1000.0
    # On the deadline its time owed sets once paid too (the outage goes on after).
    assert held_since(STILL, 8, 6000.0) == held_since(STILL, 8, 6060.0) == 1200.0
    # A turn begun since the note (another deadline), or not in it: its clock runs.
    assert held_since(STILL, 7, 5100.0) is None
    assert held_since(STILL, 10, 5000.0) is None
    assert turn_still(STILL, 7, 5100.0) == (None, True)
    # Its clock running there (a turn begun since the holder's last check), or no turn.
    assert held_since(STILL, 9, 7000.0) is None
    assert held_since(STILL, 7, None) is None


@pytest.mark.parametrize("notes", [(None, None), ("", None), ("1000.0", ""),
                                   ("1000.0", by_match(TURNS, "1000.0"))])
def test_clocks_running_stand_nothing_still(notes: Notes) -> None:
    assert held_since(notes, 7, 5000.0) is None


@pytest.mark.parametrize("entries", [None, "", by_match(TURNS, "900.0 still")])
def test_without_entries_by_match_of_its_own_every_turn_stands_still_since_the_notes_time(
        entries: str | None) -> None:
    """None from a bot before them; or those a newer bot left before a rollback, of another
    note of when it was last alive (the older bot rewrites that note alone)."""
    assert held_since(("1000.0 still", entries), 7, 5100.0) == 1000.0
    assert turn_still(("1000.0 still", entries), 7, 5100.0) == (None, False)


@pytest.mark.parametrize("entries", [by_match('{"7": "ab"}'), by_match('{"7": 5}'),
                                     by_match("[1]"), by_match('{"7": [true, 5000.0]}'),
                                     by_match('{"7": [5.0, 5000.0]}'),
                                     by_match('{"7": [-Infinity, 5000.0]}'), "not json"])
def test_entries_that_cannot_be_read_stand_since_the_notes_time(
        entries: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert held_since(("1000.0 still", entries), 7, 5000.0) == 1000.0
    assert "could not be read" in caplog.text


@pytest.mark.parametrize("since", ["Infinity", "NaN"])
def test_a_time_no_clock_stood_still_from_is_not_given(since: str) -> None:
    assert held_since(("1000.0 still", by_match(f'{{"7": [{since}, 5000.0]}}')), 7,
                      5000.0) is None
