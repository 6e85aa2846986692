"""A saved session's moves are read through a cache (most of a load's time was reading the
same few thousand move texts again): the moves and their texts must be exactly those read
one by one, whatever spelling was saved, and a move that is not text is a bad save."""

from __future__ import annotations

import json
import random

import pytest

from umtali import RuleSet, Session
from umtali.codec import session_from_json, session_to_json
from umtali.errors import InvalidStateError
from umtali.moves import Move


def _played(seed: int, moves: int) -> Session:
    session, rng = Session(RuleSet(), seed), random.Random(seed)
    for _ in range(moves):
        session.apply(rng.choice(session.legal_moves()))
    return session


def test_a_load_reads_every_move_as_parsing_it_alone_would() -> None:
    for seed in range(3):
        saved = session_to_json(_played(seed, 120))
        # Spelt another way (lower case, commas), as a hand-edited or older save might be.
        saved["moves"] = [m.lower().replace(" ", ", ", 1) for m in saved["moves"]]
        for _ in range(2):  # the second load from the cache
            loaded = session_from_json(json.loads(json.dumps(saved)))
            assert loaded.moves == [Move.parse(m) for m in saved["moves"]]
            assert loaded.move_texts() == [str(Move.parse(m)) for m in saved["moves"]]


@pytest.mark.parametrize("bad", [["draw"], {"kind": "draw"}, 5, None, "fly away"])
def test_a_move_that_is_not_one_is_a_bad_save(bad: object) -> None:
    saved = session_to_json(_played(7, 10))
    saved["moves"][3] = bad
    with pytest.raises(InvalidStateError):
        session_from_json(saved)
