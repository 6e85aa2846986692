"""The table as views show it: each play, each logical meld, and the table they make, shared by
every view of a hand until a card is laid (``umtali.view`` hands it out).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from umtali.cards import Card, cards_of, iter_cards, mask_of
from umtali.melds import Meld, PlayKind, Shape, rebuilt

if TYPE_CHECKING:
    from umtali.hand import HandState, Play


@dataclass(frozen=True, slots=True)
class PlayView:
    """One play on the table: who laid it, what, and the logical meld it belongs to."""

    player: int
    kind: PlayKind
    cards: tuple[Card, ...]
    meld: int
    points: int

    def __reduce__(self) -> tuple[type[PlayView], tuple[object, ...]]:
        # Pickled by its constructor: compiled by mypyc, a frozen class refuses the field by
        # field restore pickle would use.
        return PlayView, (self.player, self.kind, self.cards, self.meld, self.points)


@dataclass(frozen=True, slots=True)
class MeldView:
    """A logical meld: the original meld and every extension, whoever laid them."""

    index: int
    shape: Shape
    cards: tuple[Card, ...]

    def __reduce__(self) -> tuple[type[MeldView], tuple[object, ...]]:
        return MeldView, (self.index, self.shape, self.cards)  # (as ``PlayView``'s)

    def accepts(self) -> tuple[Card, ...]:
        """The cards that would extend it next (wherever they are)."""
        return tuple(iter_cards(rebuilt(self.shape, mask_of(self.cards)).accepts))


class TableView:
    """The plays and melds as views show them, built the first time a view reads them.

    A hand keeps the last one, so views share it until a card is laid. A new one builds on the
    last one that was read: only the plays added and the melds changed since are made again.
    Made by ``table_view_of`` (with no ``__init__``: a Python one costs more than the rest).
    """

    __slots__ = ("_base", "_melds", "_plays", "melds_from", "plays_from")

    #: The hand's plays and logical melds it shows.
    plays_from: tuple[Play, ...]
    melds_from: tuple[Meld, ...]
    # The last table read before this one (never a chain: see ``table_view_of``).
    _base: TableView | None
    # Built the first time they are read (``_plays`` None until then).
    _plays: tuple[PlayView, ...] | None
    _melds: tuple[MeldView, ...]

    @property
    def read(self) -> bool:
        return self._plays is not None

    @property
    def plays(self) -> tuple[PlayView, ...]:
        if self._plays is None:
            return self._build()
        return self._plays

    @property
    def melds(self) -> tuple[MeldView, ...]:
        if self._plays is None:
            self._build()
        return self._melds

    def _build(self) -> tuple[PlayView, ...]:
        base, self._base = self._base, None
        plays = self.plays_from
        kept_from: tuple[Play, ...] = ()
        kept_plays: tuple[PlayView, ...] = ()
        old: tuple[Meld, ...] = ()
        old_views: tuple[MeldView, ...] = ()
        if base is not None and base._plays is not None:
            kept_from, kept_plays = base.plays_from, base._plays
            old, old_views = base.melds_from, base._melds
        # Plays are only ever added; a meld changes when a card extends it.
        n = len(kept_from)
        if plays[:n] != kept_from:
            n = 0
        self._plays = kept_plays[:n] + tuple(
            PlayView(p.player, p.kind, cards_of(p.cards), p.meld, p.points) for p in plays[n:]
        )
        self._melds = tuple(
            old_views[i] if i < len(old) and old[i] == m
            else MeldView(i, m.shape, cards_of(m.cards))
            for i, m in enumerate(self.melds_from)
        )
        return self._plays


def table_view_of(h: HandState) -> TableView:
    """The hand's table as views show it, reusing what is unchanged since the last view; kept
    by the hand until a card is laid (``turns.lay`` forgets it)."""
    kept = h._table_base
    plays = h.plays
    # Plays are only ever added, and a meld changes only when a play is added: the same
    # number of plays, ending with the same one, is the same table.
    if (
        kept is None
        or len(kept.plays_from) != len(plays)
        or len(kept.melds_from) != len(h.melds)
        or (plays and kept.plays_from[-1] is not plays[-1])
    ):
        # Build on the last table read, so that unread tables never form a chain.
        base = kept if kept is None or kept._plays is not None else kept._base
        kept = h._table_base = TableView()
        kept.plays_from = tuple(plays)
        kept.melds_from = tuple(h.melds)
        kept._base = base
        kept._plays = None
        kept._melds = ()
    h._table_view = kept
    return kept
