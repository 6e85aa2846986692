"""A card typed in ``/umtali play`` with a letter of the other alphabet that looks like one of
the member's own: read as the terminal game reads it (``umtali.letters``), in the member's
language (their Discord client's). A Cyrillic Т looks like the Latin T but names an ace
(туз) where T is a ten: typed by a member reading English, it is refused naming both; a
Latin T typed by one reading Russian, likewise (a small t looks like no small т: a ten,
as tests/test_terminal3_lookalikes.py shows). A look-alike with one reading (a Cyrillic С
for C) is the card it looks like. A refusal is a short ephemeral answer that changes nothing
and logs no ERROR."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.loopback.driver import SavedMatch, read_match, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord
from umtali.moves import Move, MoveKind

CYRILLIC_T = "\u0422"
#: Latin suit letters and the Cyrillic capitals that look like them (Д has none).
CYRILLIC_SUITS = {"S": "\u0405", "H": "\u041d", "C": "\u0421"}


async def _started(server: LoopbackDiscord, db: Path, locale: str) -> tuple[SavedMatch, int]:
    """A new match (its first turn has no draw: a discard is a move) and the id of its player
    to act, whose client speaks ``locale``."""
    alice, bob = server.add_member("ada"), server.add_member("ben")
    saved = await start_session(server, db, alice, bob)
    player = saved.player_ids[saved.session.to_act]
    server.locales[player] = locale
    return saved, player


async def _refused(server: LoopbackDiscord, db: Path, saved: SavedMatch, player: int,
                   move: str) -> str:
    """The ephemeral answer to ``move``, which must change nothing."""
    answer = await server.slash(player, saved.channel_id, "umtali play", {"move": move})
    assert answer.callback_type == 4 and answer.ephemeral, answer.text()
    after = read_match(db, saved.id)
    assert after is not None and after.version == saved.version
    return str(answer.callback["content"])


def _no_errors(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records


async def test_a_cyrillic_t_typed_in_english_is_refused_naming_both(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "umtali.sqlite3"
    caplog.set_level(logging.WARNING)
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        saved, player = await _started(server, db, "en-US")
        said = await _refused(server, db, saved, player, f"discard {CYRILLIC_T}S")
        assert said == (f"“{CYRILLIC_T}S” could be A♠ or 10♠: a Cyrillic letter and a Latin "
                        "one look alike here; type AS or 10S."), said
        said = await _refused(server, db, saved, player, f"meld {CYRILLIC_T}♣ 2♣ 3♣")
        assert said.startswith(f"“{CYRILLIC_T}♣” could be A♣ or 10♣:"), said
    _no_errors(caplog)


async def test_a_latin_t_typed_in_russian_is_refused_naming_both(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "umtali.sqlite3"
    caplog.set_level(logging.WARNING)
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        saved, player = await _started(server, db, "ru")
        said = await _refused(server, db, saved, player, "discard TS")
        assert said == ("«TS» можно прочитать как A♠ или 10♠: русская и латинская буквы здесь "
                        "выглядят одинаково; введите AS или 10S."), said
    _no_errors(caplog)


def _with_look_alikes(saved: SavedMatch) -> Move:
    """A move of the player to act whose cards hold a suit with a Cyrillic look-alike (the
    first turn has no draw: a meld, then a discard)."""
    return next(m for m in saved.session.view(saved.session.to_act).legal_moves
                if m.kind in (MoveKind.MELD, MoveKind.DISCARD) and not m.face_down
                and any(c.code[-1] in CYRILLIC_SUITS for c in m.card_list))


@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_a_card_typed_with_a_look_alike_of_one_reading_is_played(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        locale: str) -> None:
    """In English a Cyrillic suit letter reads as the Latin one it looks like; in Russian the
    notation's Latin letters read as they always did (but T)."""
    db = tmp_path / "umtali.sqlite3"
    caplog.set_level(logging.WARNING)
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        saved, player = await _started(server, db, locale)
        move = _with_look_alikes(saved)
        codes = [c.code for c in move.card_list]
        typed = [code[:-1] + CYRILLIC_SUITS.get(code[-1], code[-1]) for code in codes] \
            if locale == "en-US" else [code.lower() for code in codes]
        answer = await server.slash(player, saved.channel_id, "umtali play",
                                    {"move": " ".join([move.kind.value, *typed])})
        assert answer.callback_type in (4, 5), answer.text()
        after = read_match(db, saved.id)
        assert after is not None and after.version > saved.version, answer.text()
        assert after.session.moves[-1] == move
    _no_errors(caplog)


#: The notation's letter ranks and the Russian letters for them (a ten is typed 10).
RUSSIAN_RANKS = {"A": "\u0422", "J": "\u0412", "Q": "\u0414", "K": "\u041a"}


async def test_a_card_typed_on_a_russian_layout_is_played_in_russian(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A member reading Russian types the cards all in Cyrillic: the Russian rank letters and
    a Cyrillic С, Н or Ѕ for the suit, which no Cyrillic letter is, so it can only be the
    Latin suit it looks like."""
    db = tmp_path / "umtali.sqlite3"
    caplog.set_level(logging.WARNING)
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        saved, player = await _started(server, db, "ru")
        move = _with_look_alikes(saved)
        typed = [RUSSIAN_RANKS.get(c.code[:-1], c.code[:-1])
                 + CYRILLIC_SUITS.get(c.code[-1], c.code[-1]) for c in move.card_list]
        answer = await server.slash(player, saved.channel_id, "umtali play",
                                    {"move": " ".join([move.kind.value, *typed])})
        assert answer.callback_type in (4, 5), answer.text()
        after = read_match(db, saved.id)
        assert after is not None and after.version > saved.version, answer.text()
        assert after.session.moves[-1] == move
    _no_errors(caplog)
