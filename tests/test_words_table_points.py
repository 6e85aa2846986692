"""The public table's field for each player names the cards they hold and the points of the
hand in words, each count with its own plural form: "1 card · 1 point", "5 cards · 12 points";
"1 карта · 1 очко", "3 карты · 2 очка", "5 карт · 12 очков" (never "1 pts", nor "оч.")."""

from __future__ import annotations

import pytest

from cogs.umtali.render import table_embed
from umtali.i18n import tr_for
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import SPECTATOR

NAMES = ("ada", "ben")


def _english(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _russian(n: int, forms: tuple[str, str, str]) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} {forms[0]}"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return f"{n} {forms[1]}"
    return f"{n} {forms[2]}"


def _wanted(lang: str, name: str, cards: int, points: int) -> str:
    if lang == "en":
        return (f"{name} · {_english(cards, 'card', 'cards')} · "
                f"{_english(points, 'point', 'points')}")
    return (f"{name} · {_russian(cards, ('карта', 'карты', 'карт'))} · "
            f"{_russian(points, ('очко', 'очка', 'очков'))}")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_players_fields_count_cards_and_points_in_words(lang: str) -> None:
    tr = tr_for(lang)
    seen: set[int] = set()
    for seed in range(2):
        session = Session(RuleSet.english(), seed)
        while not session.over:
            seat = session.to_act
            session.apply(GreedyPlayer().choose(session.view(seat)), seat)
            if session.over:
                break
            view = session.view(SPECTATOR)
            embed = table_embed(view, NAMES, 1, tr=tr)
            for s in (0, 1):
                points = view.hand_points[s]
                assert embed.fields[s].name == _wanted(lang, NAMES[s], view.hand_sizes[s],
                                                       points)
                seen.add(points % 10 if points % 100 not in (11, 12, 13, 14) else 0)
    # Each plural form was shown: 1 (21...), 2-4 (22...), and 0, 5-20 (25...).
    assert {1, 2, 0} <= seen and seen & {5, 6, 7, 8, 9}
