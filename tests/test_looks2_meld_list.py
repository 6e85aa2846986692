"""The hand panel's "You can meld" lists twelve moves at most, and says how many more there
are (English and Russian plurals), never leaving the rest to be guessed."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.arrange import HandOrder
from cogs.umtali.render import MELDS_LISTED, hand_embed
from tests.test_looks2_lay_menus import position
from umtali.i18n import EN, tr_for
from umtali.moves import Move, MoveKind
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import PlayerView

NAMES = ("ada", "ben")


class _Moves:
    """A seat's view with only ``moves`` open to it."""

    def __init__(self, view: PlayerView, moves: list[Move]) -> None:
        self._view, self.legal_moves = view, moves

    def __getattr__(self, name: str) -> Any:
        return getattr(self._view, name)


def _listed(view: Any, lang: str) -> str:
    embed = hand_embed(view, NAMES, 1, tr=tr_for(lang), order=HandOrder.SUIT)
    field = next(f for f in embed.fields if f.name == tr_for(lang)("You can meld"))
    return field.value or ""


def test_thirty_lays_list_twelve_and_say_eighteen_more() -> None:
    session = position(Session(RuleSet.english(), 1))
    view = session.view(session.to_act)
    lays = [m for m in view.legal_moves if m.kind in (MoveKind.MELD, MoveKind.EXTEND)]
    assert len(lays) == 30
    text = _listed(view, "en")
    lines = text.split("\n")
    assert len(lines) == MELDS_LISTED + 1 and lines[-1] == "…and 18 more"
    assert _listed(view, "ru").split("\n")[-1] == "…и ещё 18 вариантов"


@pytest.mark.parametrize(("more", "ru"), [(1, "…и ещё 1 вариант"), (3, "…и ещё 3 варианта"),
                                          (5, "…и ещё 5 вариантов"), (11, "…и ещё 11 вариантов"),
                                          (21, "…и ещё 21 вариант")])
def test_the_rest_is_counted_in_each_language(more: int, ru: str) -> None:
    session = position(Session(RuleSet.english(), 1))
    view = session.view(session.to_act)
    meld = Move.parse("meld 2S 3S 4S")
    moves: Any = _Moves(view, [meld] * (MELDS_LISTED + more))
    assert _listed(moves, "en").split("\n")[-1] == EN.plural(
        "…and {count} more", "…and {count} more", more) == f"…and {more} more"
    assert _listed(moves, "ru").split("\n")[-1] == ru
    # Twelve or fewer: all of them, and nothing more said.
    few: Any = _Moves(view, [meld] * MELDS_LISTED)
    assert "…" not in _listed(few, "en") and len(_listed(few, "en").split("\n")) == MELDS_LISTED
