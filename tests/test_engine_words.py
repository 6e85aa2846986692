"""The engine's errors are ``Text``: English by ``str``, and worded in Russian where shown."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from umtali import Move, RuleSet, Session
from umtali.codec import deal_from_json, session_from_json
from umtali.errors import UmtaliError
from umtali.fairness import commitment_text, verify
from umtali.hand import HandState
from umtali.i18n import tr_for
from umtali.replay import from_json as replay_from_json

RU = tr_for("ru")


def _over() -> Session:
    s = Session(RuleSet.english(), 1)
    s.resign(0)
    return s


def _replay(**changes: Any) -> dict[str, Any]:
    return {"format": "umtali-replay", "version": 1, "players": ["a", "b"],
            "rules": RuleSet.english().to_json(), "dealer_draw": {"draws": [], "dealer": 0},
            "hands": [], **changes}


CASES: list[tuple[str, Callable[[], object], str]] = [
    ("no move", lambda: Move.parse(" "), "ход не указан"),
    ("not a move", lambda: Move.parse("jump"), "'jump' — не ход. Ходы: draw, take"),
    ("take what", lambda: Move.parse("take all"), "'take 2' — две верхние"),
    ("meld nothing", lambda: Move.parse("meld"), "назовите карты комбинации"),
    ("meld twice", lambda: Move.parse("meld 8d 8d 9d"), "одна карта названа дважды"),
    ("extend one", lambda: Move.parse("extend 7d"), "назовите свою карту"),
    ("extend itself", lambda: Move.parse("extend 7d 7d"), "к ней самой"),
    ("discard two", lambda: Move.parse("discard 7d 8d"), "назовите одну карту для сброса"),
    ("session over", lambda: _over().apply(Move.draw()), "матч окончен"),
    ("resign twice", lambda: _over().resign(1), "матч окончен"),
    ("not your turn", lambda: Session(RuleSet.russian(), 1).apply(
        Move.draw(), 1 - Session(RuleSet.russian(), 1).to_act), "сейчас не ваш ход"),
    ("short deck", lambda: HandState.deal(RuleSet.english(), 0, list(range(51)), "k"),
     "каждая из 52 карт"),
    ("fixed deal", lambda: HandState.from_position(RuleSet.english(), 0, (1, 1), [], [], "k"),
     "ровно один раз"),
    ("bad deal", lambda: deal_from_json({"dealer": 0}), "неверная раздача: нет \"hands\""),
    ("bad card", lambda: deal_from_json({"dealer": 0, "hands": [["ZZ"], []], "stock": []}),
     "неверная раздача: 'ZZ' — не карта"),
    ("bad dealer", lambda: deal_from_json({"dealer": 5, "hands": [[], []], "stock": []}),
     "сдающий — 0 или 1"),
    ("saved format", lambda: session_from_json({"format": 99}), "ожидается формат 1"),
    ("saved session", lambda: session_from_json({"format": 1}), "неверный сохранённый матч"),
    ("replay format", lambda: replay_from_json({}), "это не файл раздач Умтали"),
    ("replay version", lambda: replay_from_json({"format": "umtali-replay"}),
     "неизвестная версия файла раздач"),
    ("replay moves", lambda: replay_from_json(_replay(hands=[{"moves": "draw"}])),
     "ходы должны быть списком"),
    ("replay seed", lambda: replay_from_json(_replay(reveal={"seed": 1.5, "salt": "0"})),
     "зерно должно быть числом или строкой"),
    ("replay cards", lambda: replay_from_json(_replay(dealer_draw={"draws": ["AS"]})),
     "ожидался список карт"),
    ("replay key", lambda: replay_from_json({"format": "umtali-replay", "version": 1}),
     "неверный файл раздач: нет \"dealer_draw\""),
    ("salt", lambda: commitment_text(1, "xyz"), "соль"),
    ("seed", lambda: commitment_text("a b", "0" * 32), "зерно должно быть печатным"),
    ("commitment", lambda: verify("abc", 1, "0" * 32, replay_from_json(_replay())),
     "обязательство — это 64"),
]


@pytest.mark.parametrize(("make", "russian"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_an_engine_error_is_worded_in_russian(make: Callable[[], object], russian: str) -> None:
    with pytest.raises(UmtaliError) as caught:
        make()
    error = caught.value
    worded = RU(error.text)
    assert russian in worded
    # English stays the error's str, as logs and the English reader have it.
    assert str(error) == tr_for("en")(error.text) and re.search("[a-z]{3}", str(error))
    assert worded != str(error)


def test_an_error_in_a_replayed_move_keeps_its_words() -> None:
    from umtali.replay import play

    played = play(RuleSet.english(), 1, ["draw"])
    assert played.error_at == 0 and played.error is not None
    assert RU(played.error) != str(played.error) and "карт" in RU(played.error)
