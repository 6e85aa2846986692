"""The lay menus past Discord's 25 options a menu: every meld and extension the engine allows
is offered (a second menu for the rest, never a menu with a lone "-"), and a lay from the
second menu is played."""

from __future__ import annotations

from typing import Any

import discord

from cogs.umtali.arrange import HandOrder
from cogs.umtali.play_panel import MAX_OPTIONS, hand_panel, lay_menus
from tests.discord_helpers import World, flush, player, start_match, table_message
from umtali.cards import CARDS, Card
from umtali.codec import session_from_json, session_to_json
from umtali.i18n import EN, tr_for
from umtali.moves import Move, MoveKind
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import PlayerView

#: Spades ace to nine (28 sequences among them), and two hearts that extend 5♥ 6♥ 7♥.
HAND = [*(f"{r}S" for r in ("A", 2, 3, 4, 5, 6, 7, 8, 9)), "4H", "8H"]
TABLE = ["5H", "6H", "7H"]


def position(session: Session) -> Session:
    """``session`` with its seat to act in the meld phase of a constructed hand: 28 melds and
    2 extensions open to it (30 lays)."""
    seat = session.to_act
    data = session_to_json(session)
    h = data["hand"]
    rest = [c.code for c in CARDS if c.code not in {*HAND, *TABLE}]
    h["melds"] = [{"shape": "run", "cards": TABLE}]
    h["plays"] = [{"player": 1 - seat, "kind": "sequence", "cards": TABLE, "meld": 0,
                   "points": 3}]
    h["points"] = [3, 0] if seat == 1 else [0, 3]
    h["hands"] = [HAND, rest[:10]] if seat == 0 else [rest[:10], HAND]
    h["discard"], h["stock"] = rest[10:11], rest[11:]
    h.update(phase="meld", turn=seat, taken=None, must_meld=[], drawn=[], face_down=False)
    return session_from_json(data)


def selects(message: Any) -> dict[str, list[str]]:
    """Each menu of a message, by custom id: its options' values."""
    out: dict[str, list[str]] = {}
    for row in message.components:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for c in children:
            options = c.get("options") if isinstance(c, dict) else getattr(c, "options", None)
            if options is None:
                continue
            cid = c["custom_id"] if isinstance(c, dict) else c.custom_id
            out[cid] = [o["value"] if isinstance(o, dict) else o.value for o in options]
    return out


def lays(view: PlayerView) -> set[str]:
    return {str(m) for m in view.legal_moves if m.kind in (MoveKind.MELD, MoveKind.EXTEND)}


async def test_thirty_lays_are_all_offered_and_one_from_the_second_menu_is_played(
        world: World) -> None:
    live = await start_match(world)
    seat = live.session.to_act
    live.session = position(live.session)
    view = live.session.view(seat)
    assert len(lays(view)) > MAX_OPTIONS
    actor = player(world, seat)
    table = await table_message(world, live)
    panel = await actor.click(table, custom_id=f"umtali:m:{live.id}:hand")
    assert panel.ephemeral
    prefix = f"umtali:m:{live.id}:{live.version}"
    menus = {cid: values for cid, values in selects(panel.response).items()
             if cid in (f"{prefix}:lay", f"{prefix}:extend")}
    assert len(menus) == 2
    assert all(0 < len(v) <= MAX_OPTIONS and "-" not in v for v in menus.values())
    offered = [v for values in menus.values() for v in values]
    assert sorted(offered) == sorted(lays(view))
    # A three-card meld: the shortest melds come last, past the first menu's 25.
    shortest = "meld 7S 8S 9S"
    where = next(cid for cid, values in menus.items() if shortest in values)
    assert where == f"{prefix}:extend"
    version = live.version
    answer = await actor.select(panel.response, [shortest], custom_id=where)
    assert answer.acknowledged
    await flush(world)
    assert live.version == version + 1
    laid = {c.code for p in live.session.view(seat).plays if p.player == seat for c in p.cards}
    assert laid == {"7S", "8S", "9S"}


class _Many:
    """A seat's view with other legal moves: no legal position holds more than about 23
    extensions and no meld, so the layout is checked on the moves alone."""

    def __init__(self, view: PlayerView, moves: list[Move]) -> None:
        self._view, self.legal_moves = view, moves

    def __getattr__(self, name: str) -> Any:
        return getattr(self._view, name)


def test_no_melds_and_thirty_extensions_fill_two_menus_with_no_empty_one() -> None:
    session = position(Session(RuleSet.english(), 1))
    view = session.view(session.to_act)
    cards = [Card.of(rank, 3) for rank in range(1, 11)]  # the clubs, ace to ten
    targets = [Card.parse(c) for c in ("5H", "6H", "7H")]
    moves = [Move.extend(c, t) for c in cards for t in targets]
    assert len(moves) == 30
    for tr in (EN, tr_for("ru")):
        many: Any = _Many(view, moves)
        panel = hand_panel(many, 1, 1, tr=tr, order=HandOrder.SUIT)
        items = [getattr(i, "item", i) for i in panel.children]
        menus = [i for i in items if isinstance(i, discord.ui.Select)
                 and i.custom_id.split(":")[-1] in ("lay", "extend")]
        assert len(menus) == 2
        values = [o.value for m in menus for o in m.options]
        assert sorted(values) == sorted(str(m) for m in moves)
        assert all(len(m.options) <= MAX_OPTIONS for m in menus)
        words = [m.placeholder for m in menus]
        assert words == [tr("Extend a meld on the table…"), tr("More extensions…")]


def test_the_menus_never_go_past_25_nor_leave_out_an_extension() -> None:
    meld = Move.parse("meld 2S 3S 4S")
    ext = Move.parse("extend 8H 7H")
    for m, e in ((0, 30), (30, 0), (30, 5), (60, 0), (10, 45), (26, 26)):
        menus = lay_menus([meld] * m, [ext] * e)
        assert 1 <= len(menus) <= 2
        assert all(0 < len(moves) <= MAX_OPTIONS for _, moves in menus)
        kept = [x for _, moves in menus for x in moves]
        assert kept.count(ext) == min(e, 2 * MAX_OPTIONS)
        assert len(kept) == min(m + e, 2 * MAX_OPTIONS)
