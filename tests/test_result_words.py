"""A session's result as every place words it: the winner's games first, and no "wins 0-0"
or "wins 0-1" for a session its winner did not lead when it ended (the other resigned or ran
out of time first; review147, review149): the announcement, the final card and challenge
line, and the replay file's header, in both languages."""

from __future__ import annotations

import pytest

from cogs.umtali.history import result_line
from cogs.umtali.numbers import session_over
from umtali.events import SessionEnded
from umtali.i18n import EN, tr_for
from umtali.text import describe

RU = tr_for("ru")
NAMES = ("ada", "ben")


@pytest.mark.parametrize(("won", "en", "ru"), [
    ((2, 1), "ben wins the session 2-1 (ada resigned).", "ben выигрывает матч 2:1 (ada сдаётся)."),
    ((1, 1), "ben wins the session (ada resigned).", "ben выигрывает матч (ada сдаётся)."),
    ((0, 1), "ben wins the session (ada resigned).", "ben выигрывает матч (ada сдаётся)."),
    ((0, 0), "ben wins the session (ada resigned).", "ben выигрывает матч (ada сдаётся)."),
])
def test_the_announcement(won: tuple[int, int], en: str, ru: str) -> None:
    # ``won``: the winner's games, then the loser's (ben, seat 1, wins).
    event = SessionEnded(winner=1, games_won=(won[1], won[0]), how="resigned")
    assert describe(event, NAMES, EN) == en
    assert describe(event, NAMES, RU) == ru


def test_the_final_card_and_the_challenge_line() -> None:
    assert session_over(EN, "ben", 2, 0) == "Session over: ben wins 2-0"
    assert session_over(RU, "ben", 2, 1) == "Матч окончен: ben побеждает 2:1"
    for a, b in ((0, 0), (0, 1), (1, 1)):
        assert session_over(EN, "ben", a, b) == "Session over: ben wins"
        assert session_over(RU, "ben", a, b) == "Матч окончен: ben побеждает"


def test_the_replay_header_keeps_the_games() -> None:
    assert result_line(EN, "ben", 2, 1, "played out") == \
        "Result: ben wins 2-1 in games, played out"
    assert result_line(EN, "ben", 0, 1, "ada resigned") == \
        "Result: ben wins (ada resigned); games won 0-1"
    assert result_line(RU, "ben", 0, 1, "ada сдался") == \
        "Итог: побеждает ben (ada сдался); выиграно партий 0:1"
