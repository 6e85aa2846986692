"""``/umtali play``'s move has a maximum length, synced with the command, so that Discord's
client refuses a longer text before it reaches the bot (it would let 6,000 characters through).
The limit holds the longest legal move written the long way: a new sequence of ten cards (a
new sequence never holds a jack: A..10), each as an emoji suit before its rank and a comma."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from discord import app_commands

from cogs.umtali.commands import MAX_MOVE, UmtaliCog
from cogs.umtali.names import MAX_ECHO
from tests.loopback.driver import read_match, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.options import unlimited
from tests.loopback.server import RefusedByClient
from umtali.cards import CARDS, SUIT_SYMBOLS
from umtali.moves import Move, typed

#: The emoji form of a suit symbol: the symbol and a variation selector (as pasted).
EMOJI = "\ufe0f"


def _longest_moves() -> list[str]:
    """The longest forms of the longest moves: a meld of A..10 of each suit, extend and
    discard of a ten, each card suit first with its emoji selector, cards parted by ", ";
    the Russian ace letter (Т) is one letter as A is, so no longer."""
    moves = []
    for suit, symbol in enumerate(SUIT_SYMBOLS):
        cards = [f"{symbol}{EMOJI}{c.code[:-1]}" for c in CARDS[suit * 13:suit * 13 + 10]]
        moves.append("meld " + ", ".join(reversed(cards)))
        moves.append(f"extend {cards[9]} on {cards[8]}")
        moves.append(f"discard {cards[9]} face-down")
    return moves


def _move_option() -> app_commands.Parameter:
    cog = UmtaliCog.__cog_app_commands__
    play = next(c for c in cog if isinstance(c, app_commands.Command) and c.name == "play")
    return next(p for p in play.parameters if p.name == "move")


def test_the_longest_legal_move_fits_the_move_options_limit() -> None:
    longest = max(_longest_moves(), key=len)
    move, _ = typed(longest, "ru")
    assert move == Move.parse("meld AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"), longest
    typed(longest.replace("A", "\u0422"), "ru")  # (the Russian ace: as long)
    option = _move_option()
    # (A string option's range is its length: synced as max_length.)
    limit = option.max_value
    assert limit is not None, "the move option has no maximum length"
    # With room for stray spaces, and no more than an answer quotes back whole.
    assert len(longest) + 20 <= limit <= MAX_ECHO, (len(longest), limit)
    assert option.required and option.min_value in (None, 1)
    assert limit == MAX_MOVE
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    assert f"(at most {MAX_MOVE} characters)" in readme
    assert f"(не длиннее {MAX_MOVE} символов)" in readme


async def test_a_move_past_the_limit_never_reaches_the_bot(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "umtali.sqlite3"
    caplog.set_level(logging.WARNING)
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        player = saved.player_ids[saved.session.to_act]
        umtali = next(c for c in server.commands if c["name"] == "umtali")
        play = next(o for o in umtali["options"] if o["name"] == "play")
        limit = next(o for o in play["options"] if o["name"] == "move").get("max_length")
        assert limit is not None, "the synced move option has no max_length"
        with pytest.raises(RefusedByClient):
            await server.slash(player, saved.channel_id, "umtali play", {"move": "x" * (limit + 1)})
        # At the limit: read and refused as any other, quoted whole.
        answer = await server.slash(player, saved.channel_id, "umtali play", {"move": "x" * limit})
        assert answer.ephemeral and "x" * limit in answer.callback["content"]
        assert "…" not in answer.callback["content"]
        # Synced by an earlier version (a sync that failed since): the bot still answers short.
        unlimited(server.commands, "umtali play", "move")
        answer = await server.slash(player, saved.channel_id, "umtali play", {"move": "x" * 3000})
        assert answer.ephemeral and len(answer.callback["content"]) < 400
        after = read_match(db, saved.id)
        assert after is not None and after.version == saved.version
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
