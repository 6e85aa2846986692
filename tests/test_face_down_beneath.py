"""A face-down card stays hidden from the other player once it is covered.

The player who goes out may lay their last card face down; the other then plays one last turn,
whose discard goes on top of it (face up, or face down too if it is their last card). Before,
the engine hid only the top card and only from the seat that did not go out: once the session's
last hand ended, the covered face-down card was named to everyone (the table's pile line, the
terminal's "then" card), and a face-down last discard of the second player was named to the
first."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import discord

from cogs.umtali.arrange import HandOrder
from cogs.umtali.render import hand_embed, table_embed
from umtali.cards import CARDS, Card
from umtali.codec import hand_from_json, hand_to_json
from umtali.i18n import EN
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.text import render_view, whole_pile
from umtali.view import SPECTATOR

NAMES = ("ada", "ben")


class Ended:
    """A session played to its end by greedy players, and how its last hand ended: the
    discards of its last two turns (seat, card, face down), the player who went out."""

    def __init__(self, session: Session, discards: list[tuple[int, int, bool]]) -> None:
        self.session = session
        self.hand = session.hand
        self.out = session.hand.out
        self.discards = discards

    def laid(self, seat: int) -> tuple[int, bool] | None:
        """The card ``seat`` discarded in the hand's last two turns, and if face down."""
        return next(((c, d) for s, c, d in self.discards[-2:] if s == seat), None)


def _ended_sessions(seeds: range, first_up: bool = False) -> Iterator[Ended]:
    """``first_up``: the player going out first lays the last card face up."""
    for seed in seeds:
        session = Session(RuleSet.english(), seed)
        hand = session.hand
        discards: list[tuple[int, int, bool]] = []
        while not session.over:
            seat = session.to_act
            view = session.view(seat)
            move = GreedyPlayer().choose(view)
            if first_up and move.face_down and view.went_out < 0:
                move = move._replace(face_down=False)
                assert move in view.legal_moves
            session.apply(move, seat)
            if session.hand is not hand:
                hand, discards = session.hand, []
            elif move.kind is MoveKind.DISCARD:
                discards.append((seat, int(move.card), move.face_down))
        yield Ended(session, discards)


def _ended(kind: Callable[[Ended, tuple[int, bool] | None, tuple[int, bool] | None], bool],
           first_up: bool = False) -> Ended:
    """The first session whose last hand ended so: ``kind(e, first's, second's)`` with each
    player's discard of the last two turns, from who went out."""
    for e in _ended_sessions(range(400), first_up):
        if e.out >= 0 and kind(e, e.laid(e.out), e.laid(1 - e.out)):
            return e
    raise AssertionError("no session ended so")


def _ids(pile: tuple[Card | None, ...]) -> list[int | None]:
    return [None if c is None else int(c) for c in pile]


def test_a_covered_face_down_card_is_named_only_to_who_laid_it() -> None:
    e = _ended(lambda e, first, second: bool(first and first[1] and second))
    first = e.out
    hidden = e.hand.discard_pile[-2]
    assert e.laid(first) == (hidden, True)
    for seat in (1 - first, SPECTATOR):
        view = e.session.view(seat)
        assert _ids(view.discard_pile)[-2] is None, seat
        assert hidden not in _ids(view.discard_pile)
        assert "🂠" in whole_pile(view, EN)
        if seat >= 0:
            said = render_view(view, NAMES, EN)
            assert "None" not in said
            # The pile's size still said, its top named, the card under it not.
            top = e.session.view(seat).discard_pile[-1]
            assert f"Discard pile: {top} ({len(view.discard_pile)} cards)." in said, said
    assert _ids(e.session.view(first).discard_pile)[-2] == hidden


def test_the_second_face_down_discard_is_hidden_from_the_first() -> None:
    e = _ended(lambda e, first, second: bool(first and first[1] and second and second[1]))
    first, second = e.out, 1 - e.out
    top, below = e.hand.discard_pile[-1], e.hand.discard_pile[-2]
    assert _ids(e.session.view(first).discard_pile)[-2:] == [below, None]
    assert _ids(e.session.view(second).discard_pile)[-2:] == [None, top]
    assert _ids(e.session.view(SPECTATOR).discard_pile)[-2:] == [None, None]


def test_the_second_face_down_over_a_face_up_card() -> None:
    e = _ended(lambda e, first, second: bool(second and second[1]), first_up=True)
    assert not (e.laid(e.out) or (0, False))[1]
    top = e.hand.discard_pile[-1]
    assert _ids(e.session.view(e.out).discard_pile)[-1] is None
    assert _ids(e.session.view(1 - e.out).discard_pile)[-1] == top
    assert None not in _ids(e.session.view(e.out).discard_pile)[:-1]


def test_a_saved_hand_keeps_who_laid_what() -> None:
    h = _ended(lambda e, first, second: bool(first and first[1] and second and second[1])).hand
    again = hand_from_json(h.rules, hand_to_json(h))
    assert (again.down_by, again.down_below) == (h.down_by, True)
    copied = h.copy()
    assert (copied.down_by, copied.down_below) == (h.down_by, True)


def test_a_hand_saved_before_keeps_its_face_down_top_the_going_out_ones() -> None:
    """A match saved before this was kept, mid-way through the last turn."""
    for e in _ended_sessions(range(400)):
        if e.out >= 0:
            h = e.hand
            break
    else:
        raise AssertionError("nobody went out")
    saved = hand_to_json(h)
    saved["face_down"] = True
    del saved["down_by"], saved["down_below"]
    again = hand_from_json(h.rules, saved)
    assert (again.down_by, again.down_below) == (h.out, False)


def _said(embed: discord.Embed) -> str:
    return " ".join([embed.description or "", *(f"{f.name} {f.value}" for f in embed.fields)])


def test_the_table_and_the_other_players_panel_do_not_name_it() -> None:
    """The public table after the session's last hand, and the other player's panel."""
    e = _ended(lambda e, first, second: bool(first and first[1] and second))
    covered = str(CARDS[e.hand.discard_pile[-2]])
    table = table_embed(e.session.view(SPECTATOR), NAMES, 1, tr=EN)
    assert covered not in _said(table)
    other = hand_embed(e.session.view(1 - e.out), NAMES, 1, tr=EN, order=HandOrder.SUIT)
    assert covered not in _said(other)
    assert "🂠" in _said(other)
    mine = hand_embed(e.session.view(e.out), NAMES, 1, tr=EN, order=HandOrder.SUIT)
    assert covered in _said(mine)
