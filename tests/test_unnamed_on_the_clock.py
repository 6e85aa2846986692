"""Names that show nothing, told apart by seat (``names.seat_names``) in the clock's and the
time-up question's texts too, in the reader's language (fix96 left them reading the stored
name: "Player" for both, in English in a Russian match)."""

from __future__ import annotations

from dataclasses import replace

from cogs.umtali.challenge_text import declined, withdrawn
from cogs.umtali.match_start import thread_name
from cogs.umtali.names import FALLBACK, challenge_names
from cogs.umtali.practice import withdrawn as practice_withdrawn
from cogs.umtali.question_message import question
from cogs.umtali.time_up_answer import answered
from cogs.umtali.turn_clock import clock_line
from data.models import Challenge
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


def _challenge(rematch_of: int | None = None) -> Challenge:
    return Challenge(id=1, guild_id=2, channel_id=3, message_id=4, challenger_id=5,
                     opponent_id=6, challenger_name=FALLBACK, opponent_name=FALLBACK,
                     variant="english", optional_melding=False, turn_timer=300,
                     created_at=0.0, expires_at=1.0, status="open", match_id=None,
                     rematch_of=rematch_of)


def test_a_challenge_names_such_members_by_the_seat_they_take() -> None:
    """The challenge's own texts (declined, withdrawn, the thread's name) name them as the
    table will: the challenger seat 1, but seat 2 in a rematch (review98: "Player" both, in
    English on a Russian server)."""
    ch = _challenge()
    assert declined(ch, RU) == "Игрок 2 отклоняет вызов."
    assert "Игрок 1" in withdrawn(ch, RU)
    assert thread_name(*challenge_names(ch, RU), RU) == "Умтали: Игрок 1 — Игрок 2"
    assert "Игрок 2" in withdrawn(_challenge(rematch_of=9), RU)


def test_a_practice_offer_names_such_a_member_by_seat() -> None:
    """A practice session cancelled before its deal names its member as the table would
    (review99: the stored "Player", in English)."""
    ch = replace(_challenge(), opponent_name="Компьютер (средний)", computer_level="normal")
    told = practice_withdrawn(ch, RU)
    assert "Игрок 1" in told and "Player" not in told, told
