"""A Russian player's moves in their own words (review164): the terminal listed «1) meld 3♥ 3♦
3♣» and refused «сбросить 8♠» as no move, while Discord's suggestions said the moves in Russian.
Now both read the words the bot says a move with (``umtali.move_words``; the words shown are
``text.move_meaning``, Discord's labels), and the Russian suits' letters п ч б т."""

from __future__ import annotations

import io
import random

import pytest

from tests.discord_helpers import World, player, start_match, thread_of
from tests.test_play_typed_side import face_down, going_out
from umtali.cli import main
from umtali.errors import InvalidMoveError
from umtali.i18n import tr_for
from umtali.moves import Move, MoveKind, side_chosen, typed
from umtali.players import RandomPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.text import move_meaning

RU = tr_for("ru")


def _play(typed_lines: str, *extra: str) -> str:
    out = io.StringIO()
    assert main(["play", "--seed", "7", "--no-review", *extra], io.StringIO(typed_lines),
                out) == 0
    return out.getvalue()


def test_the_terminal_lists_and_reads_the_moves_in_russian() -> None:
    out = _play("выложить 7п 7ч 7т\nсбросить Кп\n", "--lang", "ru")
    assert "Ходы: 1) выложить 3♥ 3♦ 3♣, 2) выложить 7♠ 7♥ 7♣" in out, out
    assert "Игрок выкладывает 7♠ 7♥ 7♣: группа, +3." in out, out
    # Under compulsory melding the group left must be laid first: the engine says why, in
    # the notation, which reads too.
    assert "не ход" not in out, out
    # English keeps the notation.
    english = _play("meld 7s 7h 7c\n")
    assert "Moves: 1) meld 3♥ 3♦ 3♣, 2) meld 7♠ 7♥ 7♣" in english


@pytest.mark.parametrize(("words", "move"), [
    ("сбросить 8п", "discard 8S"), ("сбросить 8♠", "discard 8S"),
    ("выложить 3ч 3б 3т", "meld 3H 3D 3C"), ("выложить Кп Дп", "meld KS QS"),
    ("приложить 7б к комбинации 8б 9б 10б", "extend 7D 8D"),
    ("приложить 10т к Вт", "extend 10C JC"),
    ("взять карту из колоды", "draw"), ("взять из сброса", "take"),
    ("взять две верхние карты сброса", "take 2"), ("сбросить Тт рубашкой вверх", "discard AC down"),
    ("Сбросить дп в открытую", "discard QS"), ("discard 10h", "discard 10H"),
])
def test_russian_words_and_suit_letters(words: str, move: str) -> None:
    assert typed(words, "ru")[0] == Move.parse(move)


def test_where_a_take_is_from_is_asked_and_english_reads_no_russian_suit() -> None:
    with pytest.raises(InvalidMoveError) as e:
        typed("взять", "ru")
    assert RU(e.value.text) == ("'взять': из колоды или из сброса? Введите 'взять из колоды' "
                                "или 'взять из сброса'")
    with pytest.raises(InvalidMoveError):
        typed("discard 8п", "en")  # the English game's suits are S H D C and the symbols


def test_every_move_as_the_bot_says_it_in_russian_reads_back() -> None:
    # The words shown (the terminal's list, Discord's labels) and the words read are one
    # table: each legal move of many turns, said in Russian and typed back, is itself.
    seen = 0
    for seed in range(12):
        session = Session(RuleSet.english() if seed % 2 else RuleSet.russian(), seed)
        players = [RandomPlayer(seed), RandomPlayer(seed + 1)]
        rng = random.Random(seed)
        for _ in range(rng.randrange(20, 200)):
            if session.over:
                break
            view = session.view(session.to_act)
            for move in view.legal_moves:
                said = move_meaning(view, move, RU)
                read, default = typed(said, "ru")
                if default:
                    read = side_chosen(read, view.legal_moves)
                # An extension names its meld by any of its cards: the engine keeps one.
                if read.kind is MoveKind.EXTEND:
                    read = session.hand.canonical(read)
                assert read == move, said
                seen += 1
            session.apply(players[session.to_act].choose(view))
    assert seen > 1000


async def test_discord_reads_the_same_words(world: World, locales: dict[int, str]) -> None:
    live = await start_match(world)
    seat = live.session.to_act
    live.session = going_out(live.session)
    actor, thread = player(world, seat), thread_of(world, live)
    locales[actor.id] = "ru"
    melded = await actor.slash(thread, "umtali play", move="выложить 8б 9б 10б")
    assert melded.acknowledged
    assert live.session.view(seat).melds, "the meld typed in Russian was not laid"
    done = await actor.slash(thread, "umtali play", move="сбросить Кп")
    assert done.acknowledged
    assert face_down(live.session) is True  # the last card's default, as in English


def test_the_hint_says_the_move_as_the_list_does() -> None:
    out = _play("hint\n", "--lang", "ru")
    assert "Подсказка: выложить 7♠ 7♥ 7♣ (ход компьютера уровня «сложный»)." in out, out
    assert "Hint: meld 7♠ 7♥ 7♣ (the hard computer's move)." in _play("hint\n")
