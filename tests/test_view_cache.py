"""A view reuses the table and the pile it built for the last view; it must equal one built from
scratch."""

from __future__ import annotations

import random

import pytest

from umtali import RuleSet, Session
from umtali.cards import CARDS, iter_cards, sort_key
from umtali.view import SPECTATOR, PlayerView


def _from_scratch(session: Session, seat: int) -> PlayerView:
    again = session.copy()
    again.hand._table_view = None
    again.hand._table_base = None
    again.hand._pile_seen = None
    return PlayerView.of(again, seat)


@pytest.mark.parametrize(
    "rules", [RuleSet.english(), RuleSet.russian()], ids=["english", "russian"]
)
def test_every_view_equals_one_built_from_scratch(rules: RuleSet) -> None:
    for seed in range(3):
        session = Session(rules, seed)
        rng = random.Random(seed)
        while not session.over:
            h = session.hand
            for seat in (session.to_act, 1 - session.to_act, SPECTATOR):
                view = session.view(seat)
                assert view == _from_scratch(session, seat)
                assert [p.cards for p in view.plays] == [
                    tuple(CARDS[c] for c in iter_cards(p.cards)) for p in h.plays
                ]
                assert [m.cards for m in view.melds] == [
                    tuple(CARDS[c] for c in iter_cards(m.cards)) for m in h.melds
                ]
                if seat >= 0:
                    assert list(view.hand) == sorted(iter_cards(h.hands[seat]), key=sort_key)
            session.apply(rng.choice(session.legal_moves()))



@pytest.mark.parametrize(
    "rules", [RuleSet.english(), RuleSet.russian()], ids=["english", "russian"]
)
def test_a_view_read_late_shows_the_position_it_was_made_in(rules: RuleSet) -> None:
    """A view turns its numbers into cards only when read: reading it after the session has
    moved on (cards laid and taken, a new hand dealt) must still show its own position."""
    for seed in range(3):
        session = Session(rules, seed)
        rng = random.Random(seed)
        kept: list[tuple[PlayerView, str]] = []
        while not session.over:
            for seat in (session.to_act, 1 - session.to_act, SPECTATOR):
                late = session.view(seat)  # not read until the session is over
                kept.append((late, repr(_from_scratch(session, seat))))
                if rng.random() < 0.5:
                    # Sometimes the table is read now, so later tables build on this one.
                    assert session.view(seat).melds == late.melds
            session.apply(rng.choice(session.legal_moves()))
        for late, then in kept:
            assert repr(late) == then
