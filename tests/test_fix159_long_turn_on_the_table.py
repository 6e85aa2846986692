"""fix159: with the match's channel lost, each DM panel's table repeats the last turn's
announcement, in at most ``LAST_TURN`` characters. A very long turn (many melds and
extensions, long names) was trimmed from its top, and its "your turn" line, first since
fix157, went first: the panel no longer said whose turn it was. Now the line stays, once,
first, and the turn's first moves go (its last ones, the discard, stay). The panel itself
(English and Russian, long names), and through SimCord's real discord.py path."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from cogs.umtali.announcing import turn_kept, with_turn, your_turn
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import ping
from cogs.umtali.outbox import Batch
from cogs.umtali.render import turn_message
from cogs.umtali.showing import LAST_TURN, Look, dm_panel_of, tail
from tests.discord_helpers import World, dm_panel, flush, player, start_match, thread_of
from tests.time_control_helpers import played_in_dms
from umtali.cards import Card
from umtali.events import Discarded, DrewFromStock, Event, Extended, Melded
from umtali.i18n import EN, Tr, tr_for
from umtali.melds import PlayKind
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session

#: Names as long as a name can be shown: 32 characters, each escaped (twice as long).
LONG_NAMES = ("~" * 32, "Ж_" * 16)


def _long_turn(seat: int, extensions: int = 8) -> list[Event]:
    """A turn laying four runs and extending them, then discarding."""
    events: list[Event] = [DrewFromStock(seat, None)]
    events += [Melded(seat, PlayKind.SEQUENCE, tuple(Card.of(r, s) for r in (2, 3, 4)), 9)
               for s in range(4)]
    events += [Extended(seat, Card.of(5 + n % 8, n // 8 % 4), Card.of(2, n // 8 % 4), 5)
               for n in range(extensions)]
    return [*events, Discarded(seat, Card.of(13, 2), False)]


def _table_note(embed: Any, turn: str) -> list[str]:
    """The table's lines from its turn line on: the last turn repeated."""
    lines = str(embed.description).split("\n")
    assert turn in lines, f"no turn line: {lines}"
    return lines[lines.index(turn):]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_long_turn_keeps_its_turn_line_on_the_dm_panels_table(lang: str) -> None:
    tr = tr_for(lang)
    session = Session(RuleSet.english(), 1)
    turn = your_turn(tr, ping(10))
    moves = turn_message(_long_turn(1), LONG_NAMES, tr)
    text = with_turn(turn, moves)
    assert len(text) > LAST_TURN
    live = LiveMatch(id=7, guild_id=1, channel_id=2, table_message_id=None, player_ids=(10, 11),
                     names=LONG_NAMES, turn_timer=0, session=session, deadline=None,
                     warned=False, dm_channel_ids=[None, None], dm_message_ids=[None, None],
                     dm_refused=[False, False], pending=[], channel_lost=True, last_turn=text)
    look = Look(tr, pictures=False)
    shown = dm_panel_of(live, 0, look=look, table_look=look)
    note = _table_note(shown.embeds[0], turn)
    assert note[0] == turn, note
    assert sum(turn in line for line in note) == 1, note
    # Of the moves, the first went (an ellipsis says so), the last stayed whole.
    assert note[1] == "…", note
    assert note[-1] == moves.split("\n")[-1], note
    assert moves.split("\n")[0] not in note, note
    assert len("\n".join(note)) <= LAST_TURN
    assert sum(len(e) for e in shown.embeds) <= 6000


def test_a_short_turn_is_repeated_as_it_was() -> None:
    text = with_turn(your_turn(EN, ping(10)), "ada draws.\nada discards 5♥.")
    assert turn_kept(text, LAST_TURN, tail) == text
    assert turn_kept("ada goes out.", LAST_TURN, tail) == "ada goes out."
    # No turn line (the session over): trimmed from its top, as before.
    over = "\n".join(f"line {n}" for n in range(300))
    assert turn_kept(over, 100, tail) == tail(over, 100)


async def test_the_dm_panel_sent_keeps_the_turn_line_of_a_long_turn(world: World) -> None:
    live = await played_in_dms(world)
    svc = world.bot.matches
    assert svc is not None
    seat = live.session.to_act
    tr = svc.public_tr(live)
    turn = your_turn(tr, ping(live.player_ids[seat]))
    moves = turn_message(_long_turn(1 - seat, 32), live.names_in(tr), tr)
    # The last turn as the move's save leaves it in memory (only there: nothing saves it).
    live.last_turn = with_turn(turn, moves)
    assert len(live.last_turn) > LAST_TURN
    live.dm_shown = [None, None]
    svc.delivery.enqueue(live, Batch(hands={0, 1}))
    await flush(world)
    for each in (0, 1):
        panel = dm_panel(player(world, each), live, each)
        note = _table_note(panel.embeds[0], turn)
        assert note[0] == turn and sum(turn in line for line in note) == 1, note
        assert note[-1] == moves.split("\n")[-1], note


def _longer(monkeypatch: pytest.MonkeyPatch, module: str) -> list[str]:
    """A turn told at its longest (said as a whole by ``turn_words``, fix180): many plays by a
    player of the longest name, before what the turn really said (its last lines: the discard,
    how the session ended). Those last lines."""
    last: list[str] = []

    def told(events: Sequence[Event], names: Sequence[str], tr: Tr) -> str:
        said = turn_message(events, names, tr)
        last[:] = said.split("\n")[-1:]
        return turn_message(_long_turn(0, 40), LONG_NAMES, tr) + "\n" + said

    monkeypatch.setattr(f"cogs.umtali.{module}.turn_message", told)
    return last


def _posted(world: World, live: LiveMatch, before: set[int]) -> list[str]:
    thread = thread_of(world, live)
    return [str(m.content) for m in sorted(thread.history(), key=lambda m: m.id)
            if m.id not in before and m.content]


async def test_a_very_long_turn_is_announced_with_its_turn_line_and_its_last_moves(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut at Discord's 2,000 characters, its end went: the discard, the hand's score, and
    a name cut in the middle of its markdown."""
    live = await start_match(world)
    before = {m.id for m in thread_of(world, live).history()}
    last = _longer(monkeypatch, "turn_words")
    seat = live.session.to_act
    while live.session.to_act == seat:
        move = GreedyPlayer().choose(live.session.view(seat))
        done = await player(world, seat).slash(thread_of(world, live), "umtali play",
                                               move=str(move))
        assert done.acknowledged
    await flush(world)
    [said] = _posted(world, live, before)
    lines = said.split("\n")
    assert len(said) <= 2000 and lines[0] == f"<@{live.player_ids[1 - seat]}>, your turn.", said
    assert lines[1] == "…" and lines[-1] == last[0], said
    assert live.last_turn == said


async def test_a_very_long_turn_ended_by_a_resignation_keeps_its_end(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    await flush(world)
    before = {m.id for m in thread_of(world, live).history()}
    last = _longer(monkeypatch, "turn_words")
    assert await svc.resign(live, live.session.to_act)
    await flush(world)
    said = _posted(world, live, before)[0]
    lines = said.split("\n")
    assert len(said) <= 2000 and lines[0] == "…" and lines[-1] == last[0], said
