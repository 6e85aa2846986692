"""The notes a process leaves for whoever brings its matches back (``cogs.umtali.alive``):
time owed by match, read back as written, and a note no bot of ours wrote owes nothing."""

from __future__ import annotations

import json
import logging

import pytest

from cogs.umtali.alive import owed_of, owed_on


def test_time_owed_is_read_back_by_match() -> None:
    note = json.dumps({"7": [1000.5, 600.0], "9": [2000.0, 30.0]})
    assert owed_of(note) == {7: (1000.5, 600.0), 9: (2000.0, 30.0)}
    assert owed_on(owed_of(note).get(7), 1000.5) == 600.0
    # A turn whose deadline moved on since (paid, or another turn) is owed nothing.
    assert owed_on(owed_of(note).get(7), 1600.5) == 0.0
    assert owed_on(owed_of(note).get(7), None) == 0.0
    assert owed_on(owed_of(note).get(8), 1000.5) == 0.0


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
                                   "[1000.0, 1e300]", "[1000.0, -60]", "[1000.0, 0]"])
def test_a_time_no_clock_owes_is_not_given(entry: str,
                                           caplog: pytest.LogCaptureFixture) -> None:
    note = '{"7": ' + entry + ', "8": [2000.0, 30.0]}'
    with caplog.at_level(logging.WARNING):
        assert owed_of(note) == {8: (2000.0, 30.0)}
    assert "no clock owes" in caplog.text
