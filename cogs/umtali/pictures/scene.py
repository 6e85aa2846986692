"""What a picture shows, taken from a ``PlayerView`` and nothing else.

A scene is a frozen value holding exactly what is drawn, so it is the cache's key (the same
scene is never drawn twice) and the reason a public picture cannot show a hidden card: the
table's scene is made from the spectator's view only, and holds no hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

from cogs.umtali.arrange import HandOrder, grouped
from cogs.umtali.names import clean_name
from cogs.umtali.pictures.fonts import drawable
from cogs.umtali.render import hand_points
from umtali.cards import Card
from umtali.i18n import Tr
from umtali.moves import MoveKind
from umtali.text import TableMeld, table_melds
from umtali.view import SPECTATOR, PlayerView


@dataclass(frozen=True, slots=True)
class MeldScene:
    """A logical meld as laid out: each card with the seat that laid it."""

    cards: tuple[tuple[Card, int], ...]
    marriage: bool


@dataclass(frozen=True, slots=True)
class SeatScene:
    name: str
    hand_size: int
    hand_points: int
    game_score: int
    games_won: int
    dealer: bool
    went_out: bool
    #: The melds this seat started (extensions by either seat shown on them).
    melds: tuple[MeldScene, ...]
    #: In the reader's words: the hand's points, the game's score and the games won;
    #: " · 4 cards · dealer · went out"; and those but the count (" · dealer · went out"),
    #: where the picture is short of room and writes the count on the card backs.
    score_line: str = ""
    tags: str = ""
    marks: str = ""


@dataclass(frozen=True, slots=True)
class TableWords:
    """The table picture's labels in the reader's language (part of the scene: a language
    is a scene of its own in the cache)."""

    stock: str
    discard_pile: str
    face_down: str
    no_melds: str


@dataclass(frozen=True, slots=True)
class HandWords:
    meldable: str
    taken: str
    no_cards: str
    #: The tag on a card taken this turn, and on two side by side.
    new: str = ""
    new_two: str = ""


@dataclass(frozen=True, slots=True)
class TableScene:
    title: str
    #: The seat to act (-1 when nobody is), and what they must do, in words.
    to_act: int
    status: str
    seats: tuple[SeatScene, SeatScene]
    stock: int
    pile: int
    #: The top of the discard pile face up (None: empty or face down) and the card under it
    #: (None: none, or face down when ``pile`` is two or more: drawn as a back).
    top: Card | None
    below: Card | None
    face_down: bool
    four_colour: bool
    words: TableWords
    #: The session's winner (-1: none yet, or the match ended without one).
    winner: int = -1
    #: The name the status begins with (the seat to act, or the winner), drawn in its seat's
    #: colour; empty when the status is about nobody.
    status_name: str = ""


@dataclass(frozen=True, slots=True)
class HandScene:
    cards: tuple[Card, ...]
    #: Per card: whether a legal move melds it now (a new meld or an extension).
    meldable: tuple[bool, ...]
    #: The cards taken from the discard pile this turn (two after "take 2"), outlined dashed.
    taken: tuple[Card, ...]
    four_colour: bool
    words: HandWords
    #: Per card: whether the seat took it this turn (``PlayerView.drawn``), tagged "new".
    drawn: tuple[bool, ...] = ()
    #: Where a group of the player's order begins (indexes into ``cards``, the first card's
    #: left out): a gap is drawn before each. The cards are in the order the player chose
    #: (``arrange.grouped``), so each order is a scene, and a picture, of its own.
    starts: tuple[int, ...] = ()


def _status(view: PlayerView, names: tuple[str, str], tr: Tr) -> str:
    if view.winner >= 0:
        return tr("{name} wins the session", name=names[view.winner])
    if view.to_act < 0:
        return tr("The hand is over")
    who = names[view.to_act]
    if view.phase == "draw":
        if view.went_out >= 0:
            return tr("{name} to draw (last turn)", name=who)
        return tr("{name} to draw", name=who)
    if view.phase == "meld":
        if view.went_out >= 0:
            return tr("{name} to meld and discard (last turn)", name=who)
        return tr("{name} to meld and discard", name=who)
    return tr("The hand is over")


def _tags(cards: int | None, dealer: bool, went_out: bool, tr: Tr) -> str:
    """What is said after a seat's name: " · 4 cards · dealer · went out" (``cards`` None:
    no count). Set apart by dots, not in brackets: the computer's name has brackets of its own
    ("Computer (normal)"). The cards counted in words: a bare "4" before the name read as a
    score (review164)."""
    tags = [] if cards is None else [tr.plural("{count} card", "{count} cards", cards)]
    if dealer:
        tags.append(tr.ctx("beside a name", "dealer"))
    if went_out:
        tags.append(tr.ctx("beside a name", "went out"))
    return "".join(" · " + t for t in tags)


def _melds(view: PlayerView) -> tuple[tuple[MeldScene, ...], tuple[MeldScene, ...]]:
    # Laid out as the table's text lists them (``table_melds``): the two read alike.
    first, second = table_melds(view)
    return _scenes(first), _scenes(second)


def _scenes(melds: tuple[TableMeld, ...]) -> tuple[MeldScene, ...]:
    return tuple(MeldScene(tuple(zip(m.cards, m.laid_by, strict=True)), m.marriage)
                 for m in melds)


def table_scene(view: PlayerView, names: tuple[str, str] | list[str], tr: Tr,
                four_colour: bool = False, ended: str = "") -> TableScene:
    """The public table's scene; ``view`` must be the spectator's. ``ended``: how the match
    ended with no result, in words (cancelled, abandoned): its session never finished, so
    the view still has a seat to act, which nobody is now."""
    if view.seat != SPECTATOR:
        raise ValueError("the public table is drawn from the spectator's view only")
    shown = (drawable(clean_name(names[0])), drawable(clean_name(names[1])))
    melds = _melds(view)
    # The hand's points as the text says them (the hand's score once it is over).
    points = hand_points(view)
    seats = tuple(
        SeatScene(shown[s], view.hand_sizes[s], points[s], view.game_scores[s],
                  view.games_won[s], view.dealer == s, view.went_out == s, melds[s],
                  tr("+{points} · score {score} · games won {won}", points=points[s],
                     score=view.game_scores[s], won=view.games_won[s]),
                  _tags(view.hand_sizes[s], view.dealer == s, view.went_out == s, tr),
                  _tags(None, view.dealer == s, view.went_out == s, tr))
        for s in (0, 1))
    pile = view.discard_pile
    top = None if view.top_face_down or not pile else pile[-1]
    # Under a face-down top too: the pile is public but for face-down cards, which the
    # spectator's view holds as None.
    below = pile[-2] if len(pile) > 1 else None
    to_act = view.to_act if view.winner < 0 and not ended else -1
    winner = view.winner if not ended else -1
    about = to_act if to_act >= 0 else winner
    return TableScene(
        title=tr("Game {game} · hand {hand}", game=view.game, hand=view.hand_no),
        to_act=to_act,
        status=ended or _status(view, shown, tr),
        seats=(seats[0], seats[1]), stock=view.stock_size, pile=len(pile), top=top,
        below=below, face_down=view.top_face_down, four_colour=four_colour,
        words=TableWords(tr("stock"), tr("discard pile"), tr("face down"), tr("no melds yet")),
        winner=winner, status_name=shown[about] if about >= 0 else "")


def hand_scene(view: PlayerView, tr: Tr, four_colour: bool = False,
               order: HandOrder = HandOrder.SUIT) -> HandScene:
    """A seat's hand, laid out in the player's ``order`` as its text is; only ever shown to
    that seat."""
    if view.seat == SPECTATOR:
        raise ValueError("the spectator has no hand")
    melding = 0
    for move in view.legal_moves:
        if move.kind in (MoveKind.MELD, MoveKind.EXTEND):
            melding |= move.cards
    drawn = set(view.drawn)
    groups = grouped(view, order)
    cards = tuple(c for g in groups for c in g)
    starts = list(accumulate(len(g) for g in groups))[:-1]
    # Taken from the pile, every card this seat took this turn was (one, or two by "take 2":
    # ``view.taken`` names one of them).
    taken = tuple(c for c in cards if c in drawn) if view.taken is not None else ()
    return HandScene(cards, tuple(bool(melding & c.bit) for c in cards), taken, four_colour,
                     HandWords(tr("can be melded now"),
                               # One or two cards outlined: «взята», «взяты» in Russian.
                               tr.plural("taken from the pile", "taken from the pile",
                                         len(taken)),
                               tr("no cards"), tr.ctx("card", "new"), tr.ctx("cards", "new")),
                     tuple(c in drawn for c in cards), tuple(starts))
