"""What a computer seat infers about hidden cards: sampled worlds, memory, card judgement."""

from __future__ import annotations

import random

from tests.helpers import mask, position
from umtali import Move, RuleSet, Session
from umtali.ai.determinize import hidden_cards, opponent_model, rules_of, sample_world
from umtali.ai.heuristics import (
    feed_chance,
    group_outs,
    keep_value,
    keep_values,
    marriage_partner,
    run_outs,
    table_outs,
)
from umtali.ai.memory import Memory, read_turn
from umtali.ai.outlook import of_state, of_view
from umtali.ai.search import clearly_better
from umtali.cards import Card, iter_cards, mask_of
from umtali.hand import HandState, Phase
from umtali.melds import cover
from umtali.players import GreedyPlayer


def _hidden_of(h: HandState, seat: int) -> int:
    pile = mask_of(h.discard_pile)
    if h.face_down and h.out != seat:
        pile &= ~(1 << h.discard_pile[-1])
    return h.hands[1 - seat] | mask_of(h.stock) | (mask_of(h.discard_pile) & ~pile)


def _replay_checking(seeds: range, rules: RuleSet) -> int:
    """Replay greedy self-play; at each decision check the sampled world and the inferences
    against the real hidden cards. Return how many decisions were checked."""
    rng = random.Random(1)
    checked = 0
    for seed in seeds:
        session = Session(rules, seed)
        players = [GreedyPlayer(), GreedyPlayer()]
        memories = [Memory(), Memory()]
        last_seat, hand_no, turn_start = -1, -1, 0
        while not session.over and session.game == 1:
            seat = session.to_act
            view = session.view(seat)
            if seat != last_seat or view.hand_no != hand_no:
                last_seat, hand_no, turn_start = seat, view.hand_no, len(view.plays)
            model = memories[seat].observe(view)
            real = session.hand
            opponent = real.hands[1 - seat]
            # Every inference holds for the real hidden cards.
            assert model.known & ~opponent == 0
            if model.meld_free:
                assert cover(opponent) == 0
                assert opponent & model.barred == 0
                for p in model.phantoms:
                    assert cover(opponent | 1 << p) & (1 << p) == 0
                # The table as the opponent's last discard found it.
                assert model.table_plays == turn_start
            # A sampled world shows the seat exactly what the real one does.
            world = sample_world(view, rng, model)
            assert world.hands[seat] == real.hands[seat]
            assert world.hands[1 - seat].bit_count() == opponent.bit_count()
            assert len(world.stock) == len(real.stock)
            assert _hidden_of(world, seat) == _hidden_of(real, seat) == hidden_cards(view)
            assert world.melds == real.melds and world.plays == real.plays
            assert world.points == real.points and world.out == real.out
            assert world.legal_moves() == list(view.legal_moves)
            assert world.hands[1 - seat] & model.known == model.known
            if model.meld_free:
                assert cover(world.hands[1 - seat]) == 0
            checked += 1
            move = players[seat].choose(view)
            memories[seat].note(view, move)
            session.apply(move)
    return checked


def test_sampled_worlds_agree_with_the_view_and_inferences_hold_english() -> None:
    assert _replay_checking(range(6), RuleSet.english()) > 300


def test_sampled_worlds_agree_with_the_view_and_inferences_hold_russian() -> None:
    assert _replay_checking(range(6, 10), RuleSet.russian()) > 200


def test_sampled_worlds_under_optional_melding_assume_nothing() -> None:
    rules = RuleSet.english(optional_melding=True)
    session = Session(rules, 2)
    session.apply(GreedyPlayer().choose(session.view(session.to_act)))
    view = session.view(session.to_act)
    assert rules_of(view) == rules
    assert not opponent_model(view).meld_free
    assert _replay_checking(range(2), rules) > 50


def test_sampled_worlds_differ_but_hold_the_same_hidden_cards() -> None:
    session = Session(RuleSet.english(), 4)
    player = GreedyPlayer()
    for _ in range(6):
        session.apply(player.choose(session.view(session.to_act)))
    view = session.view(session.to_act)
    rng = random.Random(0)
    worlds = [sample_world(view, rng) for _ in range(5)]
    assert len({w.hands[1 - view.seat] for w in worlds}) == 5
    for w in worlds:
        assert _hidden_of(w, view.seat) == hidden_cards(view)


def test_memory_reads_the_opponents_turn_from_the_pile() -> None:
    a, b, c, d = (Card.parse(x) for x in ("2S", "7H", "KD", "4C"))
    # Drew from the stock and discarded.
    turn = read_turn((a, b), (a, b, c), 20, 19)
    assert turn.taken == () and turn.discarded == c
    # Took the top card, then discarded.
    turn = read_turn((a, b), (a, c), 20, 20)
    assert turn.taken == (b,) and turn.discarded == c
    # Took two, then went out without a discard.
    assert read_turn((a, b, d), (a,), 20, 20).taken == (b, d)
    # Took two and discarded.
    turn = read_turn((a, b, d), (a, c), 20, 20)
    assert turn.taken == (b, d) and turn.discarded == c


def test_memory_knows_a_card_the_opponent_took_until_it_is_laid() -> None:
    # Seat 0 discards 9S; seat 1 takes it (holding 9H 9D it melds a group, so that is not the
    # case here: with 8S and 10S apart, 9S stays in hand after seat 1 takes it).
    h = position(
        hands=("2C 5D 9S QH", "3H 6C 8D KS"),
        stock="4S 7C",
        discard="AH",
        turn=0,
    )
    session = Session(RuleSet.english(), 0)
    session.hand = h
    memory = Memory()
    view = session.view(0)
    memory.observe(view)
    move = Move.parse("discard 9S")
    memory.note(view, move)
    session.apply(move)
    session.apply(Move.parse("take"))
    session.apply(Move.parse("discard 3H"))
    model = memory.observe(session.view(0))
    assert model.known == mask("9S")
    assert model.meld_free and (1 << Card.parse("3H")) in [1 << p for p in model.phantoms]
    assert model.discards == (int(Card.parse("3H")),)


def test_sampled_opponents_seldom_hold_what_would_have_kept_their_discards() -> None:
    # The opponent shed 7H: they seldom held 6H, 8H or another seven, which would have made it
    # worth keeping.
    h = position(
        hands=("2C 5D 9S QH KC", "3H 6C 8D KS AD"),
        stock="4S 7C 6H 8H 7S 7D 10C 2D 3S 4D",
        discard="7H",
        turn=0,
        phase=Phase.DRAW,
    )
    session = Session(RuleSet.english(), 0)
    session.hand = h
    view = session.view(0)
    hinted = opponent_model(view)._replace(discards=(int(Card.parse("7H")),))
    partners = mask("6H 8H 7S 7D 7C")
    rng = random.Random(3)
    counts = []
    for model in (hinted._replace(discards=()), hinted):
        worlds = [sample_world(view, rng, model) for _ in range(400)]
        counts.append(sum((w.hands[1] & partners).bit_count() for w in worlds))
    plain, with_hint = counts
    assert with_hint < 0.8 * plain


def test_keep_values_are_keep_value_of_each_card() -> None:
    session = Session(RuleSet.russian(), 5)
    player = GreedyPlayer()
    checked = 0
    while not session.over and session.hand_no == 1:
        view = session.view(session.to_act)
        o = of_view(view, mask_of(view.hand[:1]))
        values = keep_values(o, o.hand)
        assert values == {c: keep_value(c, o) for c in iter_cards(o.hand)}
        checked += len(values)
        session.apply(player.choose(view))
    assert checked > 100


def test_run_group_and_marriage_outs() -> None:
    hand = mask("4H 6H 7H 9C 9S KD")
    assert run_outs(int(Card.parse("6H")), hand) == mask("5H 8H")
    assert run_outs(int(Card.parse("4H")), hand) == mask("5H")
    assert run_outs(int(Card.parse("KD")), hand) == 0  # no new sequence holds a king
    assert group_outs(int(Card.parse("9C")), hand) == mask("9H 9D")
    assert group_outs(int(Card.parse("KD")), hand) == 0
    assert marriage_partner(int(Card.parse("KD"))) == mask("QD")
    assert marriage_partner(int(Card.parse("QS"))) == mask("KS")
    h = position(hands=("9H", ""), table=["1: 5H 6H 7H"], turn=0)
    assert table_outs(tuple(h.melds)).get(int(Card.parse("9H"))) == mask("8H")


def test_keep_value_keeps_connected_cards_and_sheds_dead_high_ones() -> None:
    h = position(hands=("4H 5H KS 2C", "8D 8C 3S"), stock="AS 2S", turn=0, discard="QS")
    o = of_state(h)
    value = {c: keep_value(int(Card.parse(c)), o) for c in ("4H", "KS", "2C")}
    # 4H 5H wait for 3H or 6H; the king's queen lies dead in the pile.
    assert value["4H"] > value["2C"] > value["KS"]


def test_feed_chance_of_a_card_the_opponent_is_known_to_need() -> None:
    h = position(hands=("KH 3C", "QH 5D"), stock="AS 2S", turn=0)
    o = of_state(h)
    blind = feed_chance(int(Card.parse("KH")), o)
    knowing = feed_chance(int(Card.parse("KH")), o._replace(known_opponent=mask("QH")))
    assert knowing == 1.0 > blind > 0.0
    on_table = position(hands=("8H 3C", "5D"), table=["1: 5H 6H 7H"], turn=0)
    assert feed_chance(int(Card.parse("8H")), of_state(on_table)) == 1.0


def test_outlook_of_a_view_matches_the_outlook_of_its_state() -> None:
    session = Session(RuleSet.english(), 12)
    player = GreedyPlayer()
    for _ in range(15):
        seat = session.to_act
        view = session.view(seat)
        assert of_view(view) == of_state(session.hand)
        session.apply(player.choose(view))


def test_clearly_better_needs_evidence() -> None:
    assert clearly_better([3.0, 2.0, 4.0, 3.0], 1.0)
    assert not clearly_better([10.0, -9.0, 8.0, -8.0], 1.0)
    assert not clearly_better([5.0], 1.0)
