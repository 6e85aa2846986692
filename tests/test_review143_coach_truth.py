"""review143: the coach's lines checked against the rules on pairs and the last turn (5,651
hints checked against the engine; each test below a real position it got wrong)."""

from __future__ import annotations

import re

from tests.helpers import position
from umtali import Move, RuleSet, Session
from umtali.ai.coach import Mistake
from umtali.ai.determinize import rules_of
from umtali.ai.normal import NormalPlayer
from umtali.ai.outlook import of_view
from umtali.ai.reasons import reason
from umtali.ai.review_words import review_words
from umtali.cards import iter_cards
from umtali.i18n import EN, tr_for
from umtali.search import meld_options
from umtali.view import PlayerView

RU = tr_for("ru")


def _view(rules: RuleSet | None = None, **kwargs: object) -> PlayerView:
    session = Session(rules or RuleSet.english(), 0)
    session.hand = position(rules=rules, **kwargs)  # type: ignore[arg-type]
    return session.view(0)


def test_a_card_that_pairs_out_is_not_called_unmeldable() -> None:
    """English, seed 14, normal against normal: seat 0 held 3♣ 6♣ and the line said "discard
    3♣: no card still in play would meld it" while 3♠ 3♥ 3♦ were unseen: kept alone, 3♣ and
    any of them make the pair that goes out. 21 of 41 such lines in two-card hands were false."""
    view = _view(hands=("3C 6C", "9S 8S 4D"), stock="KS 2H 5D 3S",
                 discard="4S 7D 3H QC", table=("1: AH AS AC", "0: 8D 9D 10D", "1: 5H 6H 7H"),
                 turn=0)
    why = EN(reason(view, Move.parse("discard 3C")))
    assert "no card still in play" not in why, why
    # Shedding K♠ (its queen and kings seen), the line says what 3♣ waits for: the pair.
    view = _view(hands=("3C KS", "9S 8S 4D"), stock="2H 5D 3S",
                 discard="4S 7D 3H QS KH KD KC", table=("1: AH AS AC", "0: 8D 9D 10D"),
                 turn=0)
    assert EN(reason(view, Move.parse("discard KS"))) == "keep 3♣: 3♠ 3♦ are still in play"
    # Three cards: kept with another, 3♣ still pairs out (the pair, then the last discard).
    view = _view(hands=("3C 6C 9H", "9S 8S 4D"), stock="KS 2H 5D 3S",
                 discard="4S 7D 3H QC", table=("1: AH AS AC", "0: 8D 9D 10D", "1: 5H 6H 7H"),
                 turn=0)
    assert "no card still in play" not in EN(reason(view, Move.parse("discard 3C")))


def _claims(seeds: range) -> tuple[int, list[tuple[PlayerView, int, str]]]:
    """How many discards' lines were said in normal-against-normal sessions (each discard on
    offer, not only the one played), and every "no card still in play would meld X" among
    them, with its view and X."""
    said, found = 0, []
    for seed in seeds:
        session = Session(RuleSet.english(optional_melding=seed % 3 == 2), seed)
        players = (NormalPlayer(seed), NormalPlayer(seed + 1))
        while not session.over:
            seat = session.to_act
            view = session.view(seat)
            for move in view.legal_moves:
                if move.kind.name == "DISCARD" and len(view.legal_moves) > 1:
                    why = EN(reason(view, move))
                    said += 1
                    if "no card still in play would meld" in why:
                        found.append((view, int(move.card), why))
            session.apply(players[seat].choose(view), seat)
    return said, found


def test_every_card_called_unmeldable_is_so() -> None:
    """Each "no card still in play would meld X", checked against the engine's melds: no card
    unseen by the player, with X kept (another card shed), lets a meld with X be laid, the
    going-out pair included."""
    said, claims = _claims(range(16))
    # (Before the pair was counted, 40 claims here, the first false of A♣ with A♥ unseen.)
    assert said >= 300 and len(claims) >= 5, (said, len(claims))
    for view, x, why in claims:
        o = of_view(view, 0, rules_of(view).optional_melding)
        for other in iter_cards(o.hand & ~(1 << x)):
            kept = o.hand & ~(1 << other)
            for y in iter_cards(o.unseen):
                options = meld_options(kept | 1 << y, o.melds, o.optional)
                assert not any(cards >> x & 1 for _, cards, _ in options), (why, y)


def test_the_last_card_on_the_last_turn_is_not_kept_from_the_opponent() -> None:
    """After the opponent went out they get no further turn: "the opponent cannot take it" is
    beside the point. Going out now leaves nothing in the hand to score for them."""
    view = _view(hands=("7S", ""), stock="KS 2H 5D", discard="4S 7D 3H QC",
                 table=("1: AH AS AC", "1: 8D 9D 10D"), turn=0, out=1)
    assert len(view.legal_moves) > 1
    why = EN(reason(view, view.legal_moves[0]))
    assert "cannot take" not in why, why
    assert "nothing" in why and "7♠" in why, why
    assert "ничего" in RU(reason(view, view.legal_moves[0]))


def test_a_review_weighs_the_card_shed_when_it_waited_for_nothing() -> None:
    """Seed 9, hand 1 of ``play --level hard --review``: the player shed 2♥, the computer would
    shed 8♥, and the line said "keep K♦: Q♦ is still in play", of neither card."""
    view = _view(hands=("2H 8H 10H 3D KD 3C", "8S 9S 10S 2D"), stock="KC 7C 5S",
                 discard="4S 3S 9H",
                 table=("1: QH KH", "0: JD", "0: 6D 7D 8D", "1: AS AH AD", "1: 9D > 8D",
                        "0: JS"), turn=0)
    why = EN(reason(view, Move.parse("discard 8H"), instead=Move.parse("discard 2H")))
    assert why.startswith("discard 8♥ rather than 2♥: "), why
    assert "K♦" not in why, why


def test_a_cost_under_a_point_has_no_brackets_within_brackets() -> None:
    view = _view(hands=("2H 8H 10H 3D KD 3C", "8S 9S 10S 2D"), stock="KC 7C 5S",
                 discard="4S 3S 9H", turn=0)
    m = Mistake(0, view, Move.parse("discard 2H"), Move.parse("discard 8H"), 0.3,
                reason(view, Move.parse("discard 8H")))
    for tr in (EN, RU):
        said = tr(review_words([(3, m)])[0][0])
        assert not re.search(r"\([^)]*\(", said), said


def test_a_card_laid_on_a_meld_is_put_to_it_in_russian() -> None:
    """Seed 14, normal against normal: "lay J♥ on J♣ rather than J♥ alone" was in Russian
    "выложите J♥ к J♣": a card laid onto a meld is "приложите"."""
    view = _view(hands=("AS 5S 8S 9S 5H 10H JH 10D 3C 5C", "2S 3S 4H 6H 7H 2D 3D"),
                 stock="KS 2H 4D", discard="4S 7D", table=("0: JC",), turn=0)
    move = Move.parse("extend JH JC")
    assert move in view.legal_moves
    en, ru = EN(reason(view, move)), RU(reason(view, move))
    assert en.startswith("lay J♥ on J♣"), en
    assert ru.startswith("приложите J♥ к комбинации J♣"), ru
