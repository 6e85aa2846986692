"""review30: the coach's lines checked against what the player can see and what the rules let
them do (found by driving seeded sessions and checking each hint mechanically)."""

from __future__ import annotations

from cogs.umtali.coach_work import advise
from tests.helpers import position
from umtali import Move, RuleSet, Session
from umtali.ai.coach import hint
from umtali.ai.hard import HardPlayer
from umtali.ai.reasons import reason
from umtali.ai.resume import dealt_view, player_seed, seat_history
from umtali.cards import parse_cards
from umtali.cli_coach import hint_line
from umtali.hand import Phase
from umtali.i18n import EN, tr_for
from umtali.session import Deal
from umtali.view import PlayerView


def _view(rules: RuleSet | None = None, **kwargs: object) -> PlayerView:
    session = Session(rules or RuleSet.english(), 0)
    session.hand = position(rules=rules, **kwargs)  # type: ignore[arg-type]
    return session.view(0)


def test_a_discards_line_names_no_out_that_needs_the_card_shed() -> None:
    """Shedding 3♠ from 3♠ 4♠ (2♠ and 6♠ in the pile), the line said "keep 4♠: 5♠ is still
    unseen": 5♠ melds 4♠ only with the 3♠ just shed. The outs were counted on the hand before
    the discard (92 such lines in 120 seeded sessions)."""
    view = _view(hands=("3S 4S", "3C 7C 9H"), stock="AD 4D 6H 10C 5S",
                 discard="AS 2S 5D 6D 6S 9C", turn=0)
    why = EN(reason(view, Move.parse("discard 3S")))
    assert "5♠" not in why, why
    # (Kept alone, 4♠ and any other four make the pair that goes out: review143.)
    assert why == "keep 4♠: 4♥ 4♦ 4♣ are still in play"


def test_the_top_discard_that_pairs_out_is_not_called_unmeldable() -> None:
    """5♠ in hand, 5♥ on the pile: taken, the pair 5♠ 5♥ goes out at once. The draw's line
    said "5♥ on the pile cannot be melded now", and the take's that 5♥ would be "kept in your
    hand": the pair laid to go out was left out."""
    for rules, hand in ((RuleSet.english(optional_melding=True), "5S"),
                        (RuleSet.english(), "5S 9C")):
        view = _view(rules, hands=(hand, "3C 7S 9H"), stock="AD 4D 6H 10C",
                     discard="QS 5H", turn=0, phase=Phase.DRAW)
        assert Move.parse("take") in view.legal_moves
        draw = EN(reason(view, Move.parse("draw")))
        assert "cannot be melded" not in draw, draw
        take = EN(reason(view, Move.parse("take")))
        assert take == "take 5♥: it can be melded this turn", take
        assert hint(view).move == Move.parse("take")


def _upcard_taken() -> Session:
    """A Russian deal, seat 0 dealing: the opponent takes the upcard K♠ (both saw it turned
    up), sheds 9♥; seat 0 draws and is to discard, holding Q♠ and nothing else near a meld."""
    def cards(text: str) -> tuple[int, ...]:
        return tuple(int(c) for c in parse_cards(text))

    mine, theirs, up = (cards("QS 2H 5C 9D 3S 7H 10C 4D 8S AC"),
                        cards("2C 6D 9H 4S 7C QH 3D 8C AH 10D"), cards("KS"))
    top = cards("6C 5H KD 2D 10S")
    stock = top + tuple(c for c in range(52) if c not in mine + theirs + up + top)
    session = Session(RuleSet.russian(), 7, Deal(0, (mine, theirs), stock, up))
    for text, seat in (("take", 1), ("discard 9H", 1), ("draw", 0)):
        session.apply(Move.parse(text), seat)
    return session


def test_the_upcard_the_opponent_took_is_not_called_unseen() -> None:
    """Russian deal: the player dealt, the opponent took the upcard K♠ on their first turn.
    The coach's hint said "keep Q♠: K♠ is still unseen" (in Russian "K♠ ещё в игре"): its
    memory began at the player's first turn, after the pile had lost the upcard."""
    session = _upcard_taken()
    for lang in ("en", "ru"):
        line = hint_line(session, 0, tr_for(lang))
        assert "K♠" not in line, line
    # The bot's hint and review read the same deal (``dealt_view``).
    dealt = dealt_view(session, 0)
    assert dealt is not None and dealt.discard_pile == (parse_cards("KS")[0],)
    view = session.view(0)
    history = list(seat_history(session, 0))
    assert "K♠" not in EN(advise(player_seed(session, 0), history, view, dealt).reason)
    player = HardPlayer("r30")
    player.memory.saw(dealt)
    for seen, made in history:
        player.memory.witness(seen, made)
    assert player.memory.observe(view).known == 1 << parse_cards("KS")[0]
    # Seat 1 played first: it saw no pile before its turn, and is given none.
    assert dealt_view(session, 1) is None


def test_a_meld_is_called_the_richest_turn_only_when_it_is() -> None:
    """11 cards, 4♣ 5♣ 6♣ 7♣ 7♠ 7♦: ``hard`` laid 4♣ 5♣ 6♣ 7♣ (seed 2, game 1, hand 4 of a
    seeded session; its search keeps 7♠ 7♦) and the line said "of the melds on offer, this one
    starts the richest turn: 4 points", while 4♣ 5♣ 6♣ and 7♠ 7♦ 7♣ lay 6."""
    view = _view(hands=("7S KS AH 2D 7D 10D AC 4C 5C 6C 7C", "2S 3H 9S QD 8H 9C 3C 5D 6H 10S"),
                 stock="KD 4H 8C 9H", turn=0)
    run = Move.parse("meld 4C 5C 6C 7C")
    assert run in view.legal_moves
    why = EN(reason(view, run))
    assert "lays the most" not in why, why
    assert why.startswith("lay 4♣ 5♣ 6♣ 7♣ rather than ")
    assert why.endswith("lays 6 points against 4"), why
    assert "хотя" in tr_for("ru")(reason(view, run))
    # The richest says so, with its points.
    assert EN(reason(view, Move.parse("meld 7S 7D 7C"))) == (
        "of the melds on offer, a turn starting with 7♠ 7♦ 7♣ lays the most: 6 points")
