"""docs/FAIR_DEALS.md's recipe, followed without the project: the draw for first dealer, every
deal and every stock rebuild of real replay files rebuilt from the seed and cut with nothing
but Python's ``random``, as the docs word it, in English and Russian rules. Nothing of the
engine's shuffling is imported here: the engine only plays the sessions and the bot's own
writer makes their files, and ``verify`` is not the check."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.fair import verify_file
from umtali.players import RandomPlayer
from umtali.rules import RuleSet
from umtali.session import Session

SALT = "c0ffee" * 6
CUT = "k3v9 qx"

# -- the recipe, from the docs' words ----------------------------------------------------------

#: "the 52 cards, numbered 0 to 51 (♠ ♥ ♦ ♣, each ace to king)", written as the file writes them.
SUITS = "SHDC"
RANKS = ["A", *map(str, range(2, 11)), "J", "Q", "K"]


def code(card: int) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


def shuffled(text: str, cards: list[int]) -> list[int]:
    """``random.Random(TEXT).shuffle`` of the list as given."""
    cards = list(cards)
    random.Random(text).shuffle(cards)
    return cards


def draw_rank(card: int, english: bool) -> int:
    """Ace high in the English rules, low in the Russian ones; then 2 to king."""
    rank = card % 13 + 1
    return 14 if english and rank == 1 else rank


def dealer_draw(played_from: str, english: bool) -> tuple[list[list[str]], int]:
    """Seat 0 takes the first card of the shuffle, seat 1 the second; equal ranks take the
    next two. English: the higher card deals; Russian: the lower."""
    deck = shuffled(f"{played_from}:dealer-draw", list(range(52)))
    draws = []
    for at in range(0, 52, 2):
        a, b = deck[at], deck[at + 1]
        draws.append([code(a), code(b)])
        ra, rb = draw_rank(a, english), draw_rank(b, english)
        if ra != rb:
            return draws, (0 if ra > rb else 1) if english else (0 if ra < rb else 1)
    raise AssertionError("the whole deck drawn")


def deal(played_from: str, n: int, dealer: int, english: bool) -> dict[str, Any]:
    """Hand ``n``: one card at a time, the non-dealer first, ten each; the 21st card the
    non-dealer's eleventh (English) or the upcard (Russian); the rest the stock, top first."""
    deck = shuffled(f"{played_from}:deal-{n}", list(range(52)))
    hands: list[list[int]] = [[], []]
    hands[1 - dealer] = deck[0:20:2] + (deck[20:21] if english else [])
    hands[dealer] = deck[1:20:2]
    return {"dealer": dealer,
            "hands": [sorted(h) for h in hands],
            "stock": [code(c) for c in deck[21:]],
            "discard": [] if english else [code(deck[20])]}


def rebuilt(played_from: str, n: int, pile: list[int]) -> tuple[list[str], list[int]]:
    """The discard pile (bottom card first) but its top card, shuffled as a list by
    ``SEED:hand-N:reshuffle``: the LAST card of the shuffled list is the new stock's top.
    The new stock top first, and the pile left (its old top card alone)."""
    cards = shuffled(f"{played_from}:hand-{n}:reshuffle", pile[:-1])
    return [code(c) for c in reversed(cards)], pile[-1:]


def pile_after(pile: list[int], move: str) -> list[int]:
    """The discard pile after a move: ``discard X`` lays X on top, ``take`` takes the top
    card, ``take 2`` the top two; melds and extensions leave it."""
    words = move.split()
    if words[0] == "discard":
        return [*pile, CODES[words[1]]]
    if words[0] == "take":
        return pile[:-int(words[1])] if len(words) > 1 else pile[:-1]
    return pile


CODES = {code(c): c for c in range(52)}


def rebuild_by_hand(data: dict[str, Any]) -> int:
    """Every card of the file checked against the recipe; the number of stock rebuilds."""
    played_from = f"{data['reveal']['seed']}/{data['cut']}"
    english = data["rules"]["deal"] == "eleven"
    draws, first = dealer_draw(played_from, english)
    assert data["dealer_draw"] == {"draws": draws, "dealer": first}
    rebuilds = 0
    for n, hand in enumerate(data["hands"]):
        # "The dealer alternates after every hand, across games too."
        expected = deal(played_from, n, first if n % 2 == 0 else 1 - first, english)
        recorded = hand["deal"]
        assert recorded["hands"] == [[code(c) for c in h] for h in expected.pop("hands")]
        assert {k: recorded[k] for k in expected} == expected, (n, recorded)
        pile = [CODES[c] for c in recorded["discard"]]
        done = 0
        for rebuild in hand["rebuilds"]:
            for move in hand["moves"][done:rebuild["after"]]:
                pile = pile_after(pile, move)
            done = rebuild["after"]
            stock, pile = rebuilt(played_from, n, pile)
            assert rebuild["stock"] == stock, (n, rebuild["after"])
            rebuilds += 1
    return rebuilds


# -- real files ------------------------------------------------------------------------------


@cache
def deals_file(variant: str) -> dict[str, Any]:
    """The replay file of a finished session of random players that rebuilt its stock, cut
    with typed text, written as the bot writes it."""
    for i in range(200):
        seed = f"{i:032x}"
        s = Session(RuleSet.named(variant), f"{seed}/{CUT}")
        players = [RandomPlayer(f"{i}:0"), RandomPlayer(f"{i}:1")]
        while not s.over:
            s.apply(players[s.to_act].choose(s.view(s.to_act)))
        data: dict[str, Any] = json.loads(verify_file(s, ("ada", "bo"), SALT, cut=CUT))
        if sum(len(h["rebuilds"]) for h in data["hands"]) >= 2:
            return data
    raise AssertionError("no session rebuilt its stock twice")


@pytest.mark.parametrize("variant", ["english", "russian"])
def test_the_documented_recipe_rebuilds_every_card_of_a_real_file(variant: str) -> None:
    data = deals_file(variant)
    assert data["cut"] == CUT and data["rules"]["name"] == variant
    assert rebuild_by_hand(data) >= 2


@pytest.mark.parametrize("variant", ["english", "russian"])
def test_the_recipe_catches_a_rebuild_in_another_order(variant: str) -> None:
    # The recipe can fail: a rebuilt stock read the other way round is not the file's.
    data = json.loads(json.dumps(deals_file(variant)))
    hand = next(h for h in data["hands"] if h["rebuilds"])
    hand["rebuilds"][0]["stock"].reverse()
    with pytest.raises(AssertionError):
        rebuild_by_hand(data)


ROOT = Path(__file__).resolve().parent.parent

#: What the recipe above follows, as each page words it (its lines joined).
WORDED = {
    "FAIR_DEALS.md": [
        "Seat 0 takes its first card, seat 1 its second; if they are of equal rank, seat 0 "
        "takes the third and seat 1 the fourth",
        "In the English rules the higher card deals, ace high; in the Russian rules the lower "
        "card deals, ace low",
        "the first dealer deals hands 0, 2, 4, …, the other player 1, 3, 5, …",
        "the non-dealer gets the 1st, 3rd, …, 19th cards of the shuffled list, the dealer the "
        "2nd, 4th, …, 20th",
        "The rest, the 22nd to the 52nd, is the stock, the 22nd on top",
        "List the pile from its bottom card up",
        "(`take` takes the top card, `take 2` the top two)",
        "Leave out the top card, which stays as the discard pile, and shuffle the rest of the "
        "list with `SEED:hand-N:reshuffle`. The **last** card of the shuffled list is the new "
        "stock's top",
        "that `verify` is honest",
    ],
    "FAIR_DEALS.ru.md": [
        "Место 0 берёт его первую карту, место 1 — вторую; если они одного достоинства, место 0 "
        "берёт третью, место 1 — четвёртую",
        "По английским правилам сдаёт старшая карта, туз старший; по русским сдаёт младшая, туз "
        "младший",
        "первый сдающий сдаёт раздачи 0, 2, 4, …, другой игрок — 1, 3, 5, …",
        "несдающему — 1-я, 3-я, …, 19-я карты перетасованного списка, сдающему — 2-я, 4-я, …, "
        "20-я",
        "Остальные, с 22-й по 52-ю, — колода, 22-я сверху",
        "Выпишите сброс от нижней карты вверх",
        "(`take` берёт верхнюю карту, `take 2` — две верхние)",
        "Уберите верхнюю карту — она остаётся сбросом — и перетасуйте остаток списка по "
        "`ЗЕРНО:hand-N:reshuffle`. **Последняя** карта перетасованного списка — верх новой "
        "колоды",
        "что `verify` честна",
    ],
}


@pytest.mark.parametrize("page", sorted(WORDED))
def test_each_page_words_the_recipe_this_test_follows(page: str) -> None:
    text = " ".join((ROOT / "docs" / page).read_text(encoding="utf-8").split())
    missing = [said for said in WORDED[page] if said not in text]
    assert not missing, missing
