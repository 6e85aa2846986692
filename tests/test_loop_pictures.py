"""Pictures are drawn off the event loop: a table takes up to about 50 ms with Pillow (bench/
loop_costs.py), long enough to hold up every other match's answers. ``Shown.drawn`` draws them
in a worker thread, from the view taken when the message was made."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

import cogs.umtali.showing as showing
from cogs.umtali import pictures
from cogs.umtali.pictures import HAND_FILE, TABLE_FILE, draw_hand_png, draw_table_png
from cogs.umtali.showing import Look, hand_of, table_of
from tests.discord_helpers import (
    World,
    flush,
    play_out,
    player,
    start_match,
    table_message,
    thread_of,
)
from umtali.view import SPECTATOR


def recorded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Which pictures were drawn, and whether on the event loop's thread."""
    drawn: list[tuple[str, bool]] = []
    loop_thread = threading.get_ident()

    def spy(name: str, make: Callable[..., bytes]) -> Callable[..., bytes]:
        def draw(*args: Any, **kwargs: Any) -> bytes:
            drawn.append((name, threading.get_ident() == loop_thread))
            return make(*args, **kwargs)
        return draw

    monkeypatch.setattr(showing, "hand_png", spy("hand", pictures.hand_png))
    monkeypatch.setattr(showing, "table_png", spy("table", pictures.table_png))
    return drawn


async def test_a_shown_draws_its_pictures_in_a_thread_from_the_view_it_was_made_with(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    drawn = recorded(monkeypatch)
    seat = live.session.to_act
    hand_then, table_then = live.session.view(seat), live.session.view(SPECTATOR)
    hand = hand_of(live, seat, look=Look())
    table = table_of(live, look=Look())
    assert drawn == [] and hand.made == [] and table.made == []  # nothing drawn yet
    # The match moves on before the pictures are drawn: they still show where it was.
    move = next(iter(live.session.view(seat).legal_moves))
    live.session.apply(move, seat)
    await hand.drawn()
    await table.drawn()
    assert drawn == [("hand", False), ("table", False)]
    assert [f.filename for f in hand.files] == [HAND_FILE]
    assert hand.files[0].fp.read() == draw_hand_png(hand_then)
    assert table.files[0].fp.read() == draw_table_png(table_then, live.names)
    assert table.embed.image.url == f"attachment://{TABLE_FILE}"
    # Drawn once: a later send or edit does not draw again.
    assert table.edit()["attachments"] == table.files and len(drawn) == 2


async def test_a_shown_not_awaited_still_carries_its_pictures(world: World) -> None:
    live = await start_match(world)
    assert [f.filename for f in table_of(live, look=Look()).send()["files"]] == [TABLE_FILE]
    assert [f.filename for f in table_of(live, look=Look()).files] == [TABLE_FILE]


async def test_the_hand_panel_is_drawn_off_the_event_loop(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    seat = live.session.to_act
    drawn = recorded(monkeypatch)
    # "My hand" on the table: the seat's panel, with its picture.
    answer = await player(world, seat).click(await table_message(world, live),
                                              custom_id=f"umtali:m:{live.id}:hand")
    assert answer.ephemeral and answer.response is not None
    assert [a.filename for a in answer.response.attachments] == [HAND_FILE]
    hands = [on_loop for name, on_loop in drawn if name == "hand"]
    assert hands and not any(hands), drawn


async def test_the_table_and_dm_hands_of_a_turn_end_are_drawn_off_the_event_loop(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    drawn = recorded(monkeypatch)
    # Moves until a turn has ended: the delivery edits the table and sends both DM hands.
    mover = live.session.to_act
    while live.session.to_act == mover and not live.over:
        await play_out(world, live, moves=1)
    await flush(world)
    names = {name for name, _ in drawn}
    assert {"table", "hand"} <= names, drawn
    assert not [d for d in drawn if d[1]], drawn


async def test_the_first_table_and_both_kinds_of_asked_table_are_drawn_off_the_event_loop(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = recorded(monkeypatch)
    live = await start_match(world)
    # The first table, posted by the accept.
    assert ("table", False) in drawn and ("table", True) not in drawn, drawn
    where = thread_of(world, live)
    del drawn[:]
    # A snapshot for someone outside the match, then the live table posted again.
    peek = await world.carol.slash(where, "umtali table")
    assert peek.ephemeral
    moved = await world.alice.slash(where, "umtali table")
    assert live.table_message_id == moved.response.id
    tables = [on_loop for name, on_loop in drawn if name == "table"]
    assert len(tables) >= 2 and not any(tables), drawn
