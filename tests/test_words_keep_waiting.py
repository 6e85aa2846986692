"""When the waiting player keeps waiting, the question says when the absent player's turn now
ends. The time is a Discord relative timestamp ("in a day", "через день"), so the sentence is
built around a verb ("ends in a day"), not "has until in a day" / "время до через день"."""

from __future__ import annotations

from tests.discord_helpers import World, flush, player, thread_of
from tests.time_control_helpers import button, time_up


async def test_keep_waiting_says_when_the_turn_now_ends(world: World) -> None:
    live, question = await time_up(world)
    absent = live.session.to_act
    kept = await player(world, 1 - absent).click(question, custom_id=button(question, "wait"))
    assert kept.acknowledged
    await flush(world)
    shown = next(m for m in thread_of(world, live).history() if m.id == question.id)
    assert live.deadline is not None
    stamp = f"<t:{int(live.deadline)}:R>"
    waiting, gone = player(world, 1 - absent).name, player(world, absent).name
    assert f"{waiting} keeps waiting: {gone}'s turn now ends {stamp}." in shown.content, \
        shown.content
    assert "has until" not in shown.content


def test_the_russian_builds_the_same_sentence() -> None:
    from umtali.i18n import tr_for

    said = tr_for("ru")("{name} keeps waiting: {other}'s turn now ends {when}.", name="ada",
                        other="ben", when="<t:1:R>")
    assert said == "ada ждёт дальше: ходит ben, ход теперь закончится <t:1:R>."
