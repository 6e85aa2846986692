"""Verifiable deals: a whole session checked from its commitment and reveal, and every way a
replay file can disagree with its seed caught and named."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from functools import cache
from typing import Any

import pytest

from umtali import Deal, MoveKind, RuleSet, Session
from umtali.cards import CARDS
from umtali.errors import InvalidStateError
from umtali.events import StockReshuffled
from umtali.fairness import Check, commit, verify
from umtali.players import RandomPlayer
from umtali.replay import ReplayFile, from_json, from_session

SALT = "5a1f" * 8
OTHER_SALT = "0b7e" * 8


def played(rules: RuleSet, seed: int) -> Session:
    """A whole session between two random players, fixed by ``seed``."""
    s = Session(rules, seed)
    players = [RandomPlayer(f"{seed}:0"), RandomPlayer(f"{seed}:1")]
    while not s.over:
        s.apply(players[s.to_act].choose(s.view(s.to_act)))
    return s


@cache
def session_with_rebuild(variant: str) -> tuple[int, Session]:
    """The first seed whose random session rebuilds the stock at least once."""
    for seed in range(100):
        s = played(RuleSet.named(variant), seed)
        data = from_session(s, ("ada", "bo"))
        if any(h["rebuilds"] for h in data["hands"]):
            return seed, s
    raise AssertionError("no session rebuilt its stock")


def replay_data(variant: str = "english") -> tuple[int, dict[str, Any]]:
    """The replay file of a finished session with its reveal, as JSON travels (a fresh copy)."""
    seed, s = session_with_rebuild(variant)
    data = from_session(s, ("ada", "bo"), commit(seed, SALT), SALT)
    return seed, json.loads(json.dumps(data))


def check(data: dict[str, Any], seed: int | str, salt: str = SALT) -> Any:
    return verify(commit(seed, salt), seed, salt, from_json(data))


# -- the commitment ---------------------------------------------------------------------------


def test_the_commitment_is_sha256_of_the_documented_text() -> None:
    # What docs/FAIR_DEALS.md tells a player to hash by hand.
    text = f"umtali-deals-v1:{SALT}:123456789"
    assert commit(123456789, SALT) == hashlib.sha256(text.encode()).hexdigest()
    assert commit("123456789", SALT) == commit(123456789, SALT)
    assert commit(123456789, OTHER_SALT) != commit(123456789, SALT)
    assert commit(123456788, SALT) != commit(123456789, SALT)


@pytest.mark.parametrize("salt", ["", "abc", "5A1F" * 8, "g" * 32, "5a1f" * 7])
def test_a_salt_must_be_long_lowercase_hex(salt: str) -> None:
    with pytest.raises(ValueError, match="salt"):
        commit(1, salt)


@pytest.mark.parametrize("seed", ["", "1 2", "a\nb"])
def test_a_seed_must_be_printable_without_spaces(seed: str) -> None:
    with pytest.raises(ValueError, match="seed"):
        commit(seed, SALT)


# -- a whole session --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["english", "russian"])
def test_a_whole_session_verifies_from_its_commitment_and_reveal(variant: str) -> None:
    seed, data = replay_data(variant)
    verdict = check(data, seed)
    assert verdict.fair, verdict.mismatch
    assert verdict.mismatch is None
    assert verdict.deals == len(data["hands"]) >= 8
    assert verdict.rebuilds == sum(len(h["rebuilds"]) for h in data["hands"]) >= 1
    # The seed as a player types it works the same.
    assert check(data, str(seed)).fair


def test_the_file_records_the_deals_of_the_documented_recipe() -> None:
    # docs/FAIR_DEALS.md: hand n's deck is random.Random(f"{seed}:deal-{n}") shuffling cards
    # 0..51 (suit S H D C, then rank A..K); one at a time, non-dealer first; English: an 11th
    # card to the non-dealer; the rest is the stock, top first.
    seed, s = session_with_rebuild("english")
    data = from_session(s, ("ada", "bo"))
    for n, hand in enumerate(data["hands"]):
        deck = list(range(52))
        random.Random(f"{seed}:deal-{n}").shuffle(deck)
        dealer = hand["deal"]["dealer"]
        first = 1 - dealer
        seats = {first: [*deck[0:20:2], deck[20]], dealer: deck[1:20:2]}
        code = [CARDS[c].code for c in range(52)]
        for seat in (0, 1):
            assert hand["deal"]["hands"][seat] == [code[c] for c in sorted(seats[seat])]
        assert hand["deal"]["stock"] == [code[c] for c in deck[21:]]
    assert data["result"] == {"winner": s.winner, "games_won": s.games_won, "how": s.how}
    assert [m for h in data["hands"] for m in h["moves"]] == s.move_texts()


def test_stock_rebuilds_follow_the_documented_recipe() -> None:
    # docs/FAIR_DEALS.md: the pile under its top card, shuffled by
    # random.Random(f"{seed}:hand-{n}:reshuffle"), becomes the stock (top first: its last card).
    seed, s = session_with_rebuild("english")
    data = from_session(s, ("ada", "bo"))
    replayed = Session(s.rules, seed)
    rebuilt: list[list[str]] = []
    for move in s.moves:
        n = sum(len(g) for g in replayed.finished_games) + len(replayed.hand_scores)
        pile = list(replayed.hand.discard_pile)
        if move.kind is MoveKind.DISCARD:
            pile.append(move.cards.bit_length() - 1)
        if any(isinstance(e, StockReshuffled) for e in replayed.apply(move)):
            stock = pile[:-1]
            random.Random(f"{seed}:hand-{n}:reshuffle").shuffle(stock)
            rebuilt.append([CARDS[c].code for c in reversed(stock)])
    assert rebuilt == [b["stock"] for h in data["hands"] for b in h["rebuilds"]]
    assert rebuilt


def nth_hand_with_rebuild(data: dict[str, Any]) -> int:
    return next(i for i, h in enumerate(data["hands"]) if h["rebuilds"])


@pytest.mark.parametrize("part", ["seat 0", "seat 1", "stock"])
def test_one_card_changed_in_one_deal_fails_and_names_the_hand(part: str) -> None:
    seed, data = replay_data()
    i = len(data["hands"]) // 2
    deal = data["hands"][i]["deal"]
    cards = deal["stock"] if part == "stock" else deal["hands"][int(part[-1])]
    # Swap one card with the last of the stock: still 52 different cards, one in a new place.
    other = deal["stock"][-1]
    cards[3], deal["stock"][-1] = other, cards[3]
    verdict = check(data, seed)
    assert not verdict.fair
    m = verdict.mismatch
    assert m is not None and m.check is Check.DEAL and m.part == part
    assert (m.game, m.hand) == (data["hands"][i]["game"], data["hands"][i]["hand"])
    assert verdict.deals == i  # the hands before it were checked and found right


def test_a_card_overwritten_in_the_first_deal_fails_there() -> None:
    seed, data = replay_data()
    hand = data["hands"][0]["deal"]["hands"][0]
    hand[0] = "AS" if hand[0] != "AS" else "2S"
    m = check(data, seed).mismatch
    assert m is not None and m.check is Check.DEAL and (m.game, m.hand) == (1, 1)


def test_the_russian_upcard_is_checked() -> None:
    seed, data = replay_data("russian")
    deal = data["hands"][1]["deal"]
    deal["discard"][0] = "AS" if deal["discard"][0] != "AS" else "2S"
    m = check(data, seed).mismatch
    assert m is not None and m.check is Check.DEAL and m.part == "discard" and m.hand == 2


def test_a_changed_stock_rebuild_fails_and_names_its_hand() -> None:
    seed, data = replay_data()
    i = nth_hand_with_rebuild(data)
    stock = data["hands"][i]["rebuilds"][0]["stock"]
    stock[0], stock[1] = stock[1], stock[0]
    verdict = check(data, seed)
    m = verdict.mismatch
    assert m is not None and m.check is Check.REBUILD and m.part == "stock"
    assert (m.game, m.hand, m.position) == (data["hands"][i]["game"], data["hands"][i]["hand"], 0)
    assert verdict.deals == i + 1


def test_a_missing_stock_rebuild_fails() -> None:
    seed, data = replay_data()
    i = nth_hand_with_rebuild(data)
    data["hands"][i]["rebuilds"] = []
    m = check(data, seed).mismatch
    assert m is not None and m.check is Check.REBUILD and m.part == "count"


@pytest.mark.parametrize(("seed_delta", "salt"), [(0, OTHER_SALT), (1, SALT)])
def test_a_wrong_seed_or_salt_does_not_open_the_commitment(seed_delta: int, salt: str) -> None:
    seed, data = replay_data()
    verdict = verify(data["commitment"], seed + seed_delta, salt, from_json(data))
    m = verdict.mismatch
    assert m is not None and m.check is Check.COMMITMENT and m.part == "seed"
    assert verdict.deals == 0


def test_deals_from_another_seed_fail_even_with_a_true_commitment() -> None:
    # A bot that commits to one seed and deals from another is caught at the first cards.
    seed, data = replay_data()
    honest = commit(seed + 1, SALT)
    data["commitment"] = honest
    m = verify(honest, seed + 1, SALT, from_json(data)).mismatch
    assert m is not None and m.check in (Check.DEALER_DRAW, Check.DEAL)


def test_the_file_must_name_the_commitment_given() -> None:
    seed, data = replay_data()
    data["commitment"] = commit(seed, OTHER_SALT)
    m = check(data, seed).mismatch
    assert m is not None and m.check is Check.COMMITMENT and m.part == "file"


def test_the_dealer_draw_is_checked() -> None:
    seed, data = replay_data()
    draw = data["dealer_draw"]
    draw["dealer"] = 1 - draw["dealer"]
    m = check(data, seed).mismatch
    assert m is not None and m.check is Check.DEALER_DRAW


def test_an_illegal_move_is_named_with_its_hand() -> None:
    seed, data = replay_data()
    hand = data["hands"][2]
    hand["moves"][0] = "discard AS down"
    m = check(data, seed).mismatch
    assert m is not None and m.check is Check.MOVE
    assert (m.hand, m.move, m.recorded) == (3, 0, ("discard AS down",)) and m.reason


def test_recorded_scores_and_result_must_follow_from_the_moves() -> None:
    seed, data = replay_data()
    changed = copy.deepcopy(data)
    changed["hands"][0]["scores"][0] += 1
    m = check(changed, seed).mismatch
    assert m is not None and m.check is Check.SCORES and m.hand == 1
    changed = copy.deepcopy(data)
    changed["result"]["winner"] = 1 - changed["result"]["winner"]
    m = check(changed, seed).mismatch
    assert m is not None and m.check is Check.RESULT


def test_a_missing_last_hand_fails() -> None:
    seed, data = replay_data()
    data["hands"].pop()
    m = check(data, seed).mismatch
    assert m is not None and m.check in (Check.HANDS, Check.RESULT)


def test_moves_moved_to_another_hand_fail() -> None:
    seed, data = replay_data()
    data["hands"][1]["moves"].insert(0, data["hands"][0]["moves"].pop())
    m = check(data, seed).mismatch
    assert m is not None and m.check is Check.HANDS and m.part == "moves" and m.hand == 1


def test_a_resigned_session_verifies() -> None:
    s = Session(RuleSet.english(), 77)
    players = [RandomPlayer(1), RandomPlayer(2)]
    for _ in range(150):
        s.apply(players[s.to_act].choose(s.view(s.to_act)))
    s.resign(0)
    data = json.loads(json.dumps(from_session(s, ("ada", "bo"), commit(77, SALT), SALT)))
    assert data["result"]["how"] == "resigned"
    assert check(data, 77).fair
    data["result"]["how"] = "played out"
    assert check(data, 77).mismatch is not None


def test_a_fixed_first_deal_is_not_from_the_seed() -> None:
    base = Session(RuleSet.english(), 5).hand
    hands = (tuple(i for i in range(52) if base.hands[0] >> i & 1),
             tuple(i for i in range(52) if base.hands[1] >> i & 1))
    deal = Deal(base.dealer, hands, tuple(reversed(base.stock)))
    s = Session(RuleSet.english(), 5, deal)
    data = from_session(s, ("ada", "bo"), commit(5, SALT))
    m = check(data, 5).mismatch
    assert m is not None and m.check is Check.FIXED_DEAL


# -- the file -------------------------------------------------------------------------------


def test_the_seed_is_not_revealed_while_the_session_is_in_play() -> None:
    s = Session(RuleSet.english(), 3)
    with pytest.raises(ValueError, match="secret"):
        from_session(s, ("ada", "bo"), commit(3, SALT), SALT)
    data = from_session(s, ("ada", "bo"), commit(3, SALT))
    assert data["reveal"] is None and data["result"] is None
    assert data["hands"][0]["scores"] is None


def test_the_file_reads_back_as_it_was_written() -> None:
    from umtali.replay import to_json

    _, data = replay_data()
    replay: ReplayFile = from_json(data)
    assert to_json(replay) == data


@pytest.mark.parametrize("bad", [
    [], {"format": "other"}, {"format": "umtali-replay", "version": 9},
    {"format": "umtali-replay", "version": 1},
    {"format": "umtali-replay", "version": 1, "players": ["a", "b"], "rules": {},
     "dealer_draw": {"draws": [], "dealer": 0}, "hands": []},
])
def test_a_malformed_file_is_refused(bad: Any) -> None:
    with pytest.raises(InvalidStateError):
        from_json(bad)


def test_a_bad_card_in_the_file_is_refused() -> None:
    _, data = replay_data()
    data["hands"][0]["deal"]["stock"][0] = "ZZ"
    with pytest.raises(InvalidStateError):
        from_json(data)


def test_a_malformed_commitment_is_bad_input() -> None:
    seed, data = replay_data()
    with pytest.raises(ValueError, match="64 hex"):
        verify("abc", seed, SALT, from_json(data))


def test_a_session_loaded_from_its_saved_state_gives_the_same_file() -> None:
    # The bot keeps only the saved state (the hand in play, the seed, the moves): that is enough.
    from umtali.codec import session_from_json, session_to_json

    seed, s = session_with_rebuild("russian")
    loaded = session_from_json(json.loads(json.dumps(session_to_json(s))))
    names = ("ada", "bo")
    assert from_session(loaded, names, commit(seed, SALT), SALT) == \
        from_session(s, names, commit(seed, SALT), SALT)
