"""Names that show nothing, told apart by seat (``names.seat_names``) in the clock's and the
time-up question's texts too, in the reader's language (fix96 left them reading the stored
name: "Player" for both, in English in a Russian match)."""

from __future__ import annotations

from cogs.umtali.names import FALLBACK
from cogs.umtali.question_message import question
from cogs.umtali.time_out import answered
from cogs.umtali.turn_clock import clock_line
from tests.discord_helpers import World, start_match
from umtali.i18n import tr_for

RU = tr_for("ru")


async def test_the_clock_and_the_time_up_question_name_such_seats_by_number(
        world: World) -> None:
    live = await start_match(world, time_control="normal")
    live.names = (FALLBACK, FALLBACK)  # as stored for two names that showed nothing
    to_act = live.session.to_act
    line = clock_line(live, RU)
    assert f"Игрок {to_act + 1}" in line and "Player" not in line, line
    asked = question(live, to_act, RU)
    assert f"Игрок {to_act + 1}" in asked and "Player" not in asked, asked
    told = answered(live, to_act, False, RU)
    assert f"Игрок {2 - to_act}" in told and f"Игрок {to_act + 1}" in told, told
