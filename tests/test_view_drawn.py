"""``PlayerView.drawn``: the cards a seat took this turn, shown to it alone while it melds."""

from __future__ import annotations

import random

import pytest

from umtali import Move, RuleSet, Session
from umtali.cards import Card
from umtali.codec import session_from_json, session_to_json
from umtali.events import DrewFromStock, HandStarted, TookDiscard
from umtali.view import SPECTATOR


def _check_views(session: Session, taker: int, took: tuple[Card, ...]) -> None:
    """Each seat's view and the spectator's against what the events say was taken."""
    meld_phase = session.view(SPECTATOR).phase == "meld"
    for seat in (0, 1, SPECTATOR):
        view = session.view(seat)
        mine = seat == taker and view.my_turn and meld_phase
        assert view.drawn == (tuple(sorted(took)) if mine else ()), (seat, taker, took)
        if seat != taker:
            # Never named anywhere in another seat's view (nor the spectator's).
            for card in took:
                if card not in view.hand and all(card not in p.cards for p in view.plays):
                    assert repr(card) not in repr(view)


@pytest.mark.parametrize(
    "rules", [RuleSet.english(), RuleSet.russian(), RuleSet.english(optional_melding=True)],
    ids=["english", "russian", "optional"],
)
def test_drawn_is_what_this_seat_took_this_turn_and_only_it_sees_it(rules: RuleSet) -> None:
    kinds: set[str] = set()
    for seed in range(4):
        session = Session(rules, seed)
        rng = random.Random(seed)
        taker = -1
        took: tuple[Card, ...] = ()
        while not session.over:
            _check_views(session, taker, took)
            for event in session.apply(rng.choice(session.legal_moves())):
                if isinstance(event, DrewFromStock) and event.card is not None:
                    taker, took = event.player, (event.card,)
                    kinds.add("stock")
                elif isinstance(event, TookDiscard):
                    taker, took = event.player, event.cards
                    kinds.add(f"take {len(event.cards)}")
                elif isinstance(event, HandStarted):
                    taker, took = -1, ()
            if not session.over and session.view(SPECTATOR).phase == "draw":
                taker, took = -1, ()  # a new turn: nothing taken yet
    assert kinds == {"stock", "take 1", "take 2"}


def test_drawn_survives_saving_and_stays_while_the_drawn_card_is_laid() -> None:
    checked = 0
    for seed in range(40):
        session = Session(RuleSet.english(), seed)
        rng = random.Random(seed)
        while not session.over and session.game == 1:
            seat = session.to_act
            view = session.view(seat)
            if view.drawn:
                saved = session_from_json(session_to_json(session))
                assert saved.view(seat) == view
                melds = [m for m in view.legal_moves if m.cards & (1 << view.drawn[0])
                         and m.kind.value in ("meld", "extend")]
                if melds:
                    hand = session.hand
                    session.apply(melds[0])
                    after = session.view(seat)
                    if session.hand is hand and after.my_turn and after.phase == "meld":
                        # Laid now, still the card this seat took this turn.
                        assert after.drawn == view.drawn
                        assert view.drawn[0] not in after.hand
                        checked += 1
                    continue
            session.apply(rng.choice(session.legal_moves()))
    assert checked >= 5


def test_nothing_is_drawn_at_the_start_of_a_turn_or_on_a_first_turn_without_a_draw() -> None:
    session = Session(RuleSet.english(), 3)
    # English deal: the non-dealer starts with eleven cards and melds without drawing.
    first = session.view(session.to_act)
    assert first.phase == "meld" and first.drawn == ()
    while session.view(SPECTATOR).phase != "draw":
        session.apply(session.legal_moves()[-1])
    seat = session.to_act
    assert session.view(seat).drawn == ()
    session.apply(Move.draw())
    view = session.view(seat)
    assert len(view.drawn) == 1 and view.drawn[0] in view.hand
    assert session.view(1 - seat).drawn == () and session.view(SPECTATOR).drawn == ()
