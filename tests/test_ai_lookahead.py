"""``hard``'s discards, one draw ahead: the next turn's value, the choice, and the coach's why."""

from __future__ import annotations

from collections.abc import Iterator

from tests.helpers import mask, position
from umtali import MoveKind, RuleSet, Session
from umtali.ai import lookahead, policy
from umtali.ai.coach import hint
from umtali.ai.hard import HardPlayer
from umtali.ai.heuristics import holding_odds, keep_values
from umtali.ai.memory import Memory
from umtali.ai.normal import NormalPlayer
from umtali.ai.outlook import Outlook, of_view
from umtali.cards import format_cards, iter_cards
from umtali.i18n import EN
from umtali.view import PlayerView


def test_the_next_turn_lays_what_it_can_and_sheds_its_least_worth_card() -> None:
    session = Session(RuleSet.english(), 0)
    session.hand = position(hands=("7H 8H 2C KS", "3D 5D"), stock="4C", discard="AD")
    o = of_view(session.view(0))
    # Drawing 9H lays 7-8-9 (3 points); of 2C and KS left, the least worth keeping is shed.
    left = mask("2C KS")
    worth = keep_values(o._replace(hand=left), left)
    drawn = mask("7H 8H 2C KS 9H")
    assert lookahead.next_turn_value(o, drawn) == 3 + max(worth.values())
    # Nothing to lay: only the cards' worth, less the least.
    idle = mask("7H 8H 2C KS 4D")
    worth = keep_values(o._replace(hand=idle), idle)
    assert lookahead.next_turn_value(o, idle) == sum(worth.values()) - min(worth.values())
    # Laying all but one card goes out: the plan's bonus for emptying the hand counts.
    assert lookahead.next_turn_value(o, mask("7H 8H 9H 2C")) == 3 + policy.GOING_OUT_BONUS


def hard_turns(
    seed: int, discard_budget: int = 4000
) -> Iterator[tuple[PlayerView, Outlook, HardPlayer]]:
    """Seat 0's turns in the first game of session ``seed``, ``hard`` against ``normal``: each
    view with its outlook (as ``hard``'s memory has it), before ``hard`` moves."""
    session = Session(RuleSet.english(), seed)
    players = (HardPlayer("ahead", budget=100, discard_budget=discard_budget), NormalPlayer())
    memory = Memory()  # what seat 0 knows, as its player's own memory has it
    while not session.over and session.game == 1:
        seat = session.to_act
        view = session.view(seat)
        if seat == 1:
            session.apply(players[1].choose(view))
            continue
        yield view, of_view(view, memory.observe(view).known), players[0]
        move = players[0].choose(view)
        memory.note(view, move)
        session.apply(move)


def test_it_sheds_the_better_of_normals_two_best_and_the_coach_says_why() -> None:
    """Over a game, every discard is ``normal``'s best or the one of its two best of higher
    value one draw ahead, unless the search overruled that with another of ``normal``'s best
    three; where the choice is not ``normal``'s own, the hint says which card it beat and how."""
    differed = 0
    for view, o, player in hard_turns(3, discard_budget=0):
        if view.legal_moves[0].kind is not MoveKind.DISCARD or len(view.hand) == 1:
            continue
        ranked = policy.rank_discards(o, view.legal_moves)
        chosen = lookahead.choose_discard(o, view.legal_moves)
        if not o.last_turn:
            draws = list(iter_cards(o.live))
            values = [lookahead.discard_value(o, m.card, draws, holding_odds(o))
                      for m in ranked[:lookahead.WIDTH]]
            assert chosen == ranked[values.index(max(values))]
        if chosen != ranked[0]:
            differed += 1
            advice = hint(view, player)
            assert advice.move == chosen
            assert "rather than" in EN(advice.reason)
            assert "on average over the cards you might draw next" in EN(advice.reason)
    assert differed >= 1


def test_its_search_overrules_the_look_ahead_among_normals_best_three() -> None:
    """With its discard search (on by default), ``hard`` sheds the look ahead's card or another
    of ``normal``'s best three; where it overrules both the look ahead and ``normal``, the hint
    names the card it beat and says the playouts chose (back to ``normal``'s own card, the hint
    says why that card is the one to shed, as for ``normal``)."""
    overruled = 0
    for seed in (3, 4, 5):
        for view, o, player in hard_turns(seed):
            if view.legal_moves[0].kind is not MoveKind.DISCARD or len(view.hand) == 1:
                continue
            ahead = lookahead.choose_discard(o, view.legal_moves)
            advice = hint(view, player)
            best = policy.rank_discards(o, view.legal_moves)[:player.discard_width]
            assert advice.move == ahead or (advice.move in best and not o.last_turn)
            if advice.move not in (ahead, best[0]):
                overruled += 1
                shed, beaten = (format_cards(iter_cards(m.cards)) for m in (advice.move, ahead))
                assert EN(advice.reason).startswith(
                    f"discard {shed} rather than {beaten}: over the many ways the rest of the "
                    "hand can go")
        if overruled >= 2:
            break
    assert overruled >= 2


def test_it_draws_against_normal_only_by_a_margin_and_the_coach_says_why() -> None:
    """Over a few games, ``hard`` takes or leaves the top discard against ``normal``'s rule only
    when one draw ahead says so by ``DRAW_MARGIN``, and the hint gives that reason."""
    reasons: set[str] = set()
    for seed in range(1, 30):
        if len(reasons) == 2:
            break
        for view, o, player in hard_turns(seed):
            if MoveKind.TAKE not in {m.kind for m in view.legal_moves}:
                continue
            usual = policy.choose_draw(o, view.legal_moves)
            chosen = lookahead.choose_draw(o, view.legal_moves)
            if chosen != usual and usual.kind is not MoveKind.TAKE_TWO:
                stock, pile = lookahead.draw_values(o)
                assert abs(pile - stock) > lookahead.DRAW_MARGIN
                assert (chosen.kind is MoveKind.TAKE) == (pile > stock)
                advice = hint(view, player)
                assert advice.move == chosen
                reasons.add(EN(advice.reason).split(":")[1].split()[0])
    # Both ways: a card taken for keeping ("kept ...": a pair to go out with, say), a
    # meldable card left ("melding ...").
    assert reasons == {"kept", "melding"}, reasons
