"""The whole discard pile is public (docs/RULES.md, "The whole discard pile is public"): every
face-up discard was seen by both players, so a seat's panel lists the pile, bottom to top, and
so does the terminal's table; a face-down top is named only to the seat that laid it, and said
to be face down to both. The computer players read the whole pile from their view: a person
sees no less (review103)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord.components import validate_embeds

import umtali.cli_play
from cogs.umtali.arrange import HandOrder
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import MAX_NAME
from cogs.umtali.render import hand_embed
from cogs.umtali.showing import LAST_TURN, Look, dm_panel_of
from tests.helpers import cards, position
from tests.loopback.driver import play_move, read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from umtali.cards import CARDS, parse_cards
from umtali.cli import main
from umtali.i18n import Tr, tr_for
from umtali.moves import Move
from umtali.rules import RuleSet
from umtali.session import Session

NAMES = ("ada", "ben")
#: The line's heading on a panel and in the terminal, as each language writes it.
HEADING = {"en": "Whole pile, bottom to top", "ru": "Весь сброс снизу вверх"}
FACE_DOWN = {"en": "(face down)", "ru": "(рубашкой вверх)"}
#: The pile's size in the panel's heading, in each plural form.
SIZES = {"en": {2: "(2 cards)", 5: "(5 cards)", 21: "(21 cards)"},
         "ru": {2: "(2 карты)", 5: "(5 карт)", 21: "(21 карта)"}}
PILE = ("4C 9D KS QH 8H 5C 5D 5H 6C 7C AD AS 3H 4H 10C 10D 10S 9C 8C 7D 6D")


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _session(hands: tuple[str, str], discard: str, *, stock: str = "2S 3S",
             rest: str = "stock") -> Session:
    made = Session(RuleSet.english(), 1)
    made.hand = position(hands=hands, stock=stock, discard=discard, rest=rest)
    return made


def _shown(discard: str) -> str:
    return " ".join(str(c) for c in parse_cards(discard))


def _listing(embed: discord.Embed, tr: Tr) -> list[Any]:
    """The fields that list the whole pile (one at most)."""
    return [f for f in embed.fields if (f.name or "").startswith(HEADING[tr.lang])]


def _whole(embed: discord.Embed, tr: Tr) -> Any:
    """The one field that lists the whole pile."""
    found = _listing(embed, tr)
    assert len(found) == 1, [f.name for f in embed.fields]
    return found[0]


def _top(embed: discord.Embed, tr: Tr) -> str:
    return next(f.value or "" for f in embed.fields if f.name == tr("Discard pile"))


def _face_down(rest: str = "discard") -> Session:
    """Seat 0 has just gone out with its last card, 2♣, face down on the pile ``4H 6S``."""
    session = _session(("2C", "3C 3D 9H KD"), "4H 6S", stock="5S KH", rest=rest)
    session.apply(Move.discard(cards("2C")[0], face_down=True), 0)
    assert session.to_act == 1 and session.view(1).top_face_down
    return session


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", [2, 5, 21])
def test_each_seats_panel_lists_the_whole_pile_bottom_to_top(lang: str, size: int) -> None:
    tr = tr_for(lang)
    pile = " ".join(PILE.split()[:size])
    session = _session(("2C 5S", "3C 3D 9H KD"), pile)
    for seat in (0, 1):  # the seat to act and the one waiting alike
        embed = hand_embed(session.view(seat), NAMES, 1, tr=tr, order=HandOrder.SUIT)
        field = _whole(embed, tr)
        assert field.name == f"{HEADING[lang]} {SIZES[lang][size]}"
        assert field.value == _shown(pile)
        assert not field.inline
        # The top beside the stock, said to be the top (review164: in the table's words).
        top = _shown(pile).split()[-1]
        assert _top(embed, tr) == tr("{card} on top", card=top), _top(embed, tr)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_face_down_top_is_named_only_to_the_seat_that_laid_it(lang: str) -> None:
    tr = tr_for(lang)
    session = _face_down(rest="stock")
    laid = hand_embed(session.view(0), NAMES, 1, tr=tr, order=HandOrder.SUIT)
    field = _whole(laid, tr)
    assert field.value == f"4♥ 6♠ 2♣ {FACE_DOWN[lang]}"
    assert _top(laid, tr) == tr("{card}, face down", card="2♣")
    other = hand_embed(session.view(1), NAMES, 1, tr=tr, order=HandOrder.SUIT)
    field = _whole(other, tr)
    assert field.value == f"4♥ 6♠ 🂠 {FACE_DOWN[lang]}"
    assert "2♣" not in json.dumps(other.to_dict(), ensure_ascii=False)
    assert _top(other, tr) == tr("face down")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_empty_pile_or_a_lone_card_says_no_more_than_its_top(lang: str) -> None:
    tr = tr_for(lang)
    for pile, top in (("", tr("empty")), ("7H", "7♥")):
        session = _session(("2C 5S", "3C 3D 9H KD"), pile)
        for seat in (0, 1):
            embed = hand_embed(session.view(seat), NAMES, 1, tr=tr, order=HandOrder.SUIT)
            assert _listing(embed, tr) == []
            assert _top(embed, tr) == top


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_largest_pile_is_listed_whole_within_discords_limits(lang: str) -> None:
    """A pile of 50 cards (each hand one card, the stock empty), twelve of them tens: the
    longest a pile's line can be, on a DM panel that also carries the table (the match's
    channel lost), with names as long as they are shown and the last turn at its longest."""
    tr = tr_for(lang)
    session = _session(("2C", "3C"), "", stock="", rest="discard")
    names = ("*" * MAX_NAME, "Ж_" * (MAX_NAME // 2))
    for seat in (0, 1):
        view = session.view(seat)
        assert len(view.discard_pile) == 50
        embed = hand_embed(view, names, 10**19 - 1, tr=tr, order=HandOrder.MELDS,
                           note="x" * 200)
        field = _whole(embed, tr)
        assert field.value == " ".join(str(c) for c in view.discard_pile)
        assert field.name == f"{HEADING[lang]} " + ("(50 cards)" if lang == "en"
                                                    else "(50 карт)")
        validate_embeds([embed.to_dict()])
        live = LiveMatch(id=10**19 - 1, guild_id=1, channel_id=2, table_message_id=None,
                         player_ids=(10, 11), names=names, turn_timer=0, session=session,
                         deadline=None, warned=False, dm_channel_ids=[None, None],
                         dm_message_ids=[None, None], dm_refused=[False, False], pending=[],
                         channel_lost=True, last_turn="z " * LAST_TURN)
        look = Look(tr, pictures=False)
        shown = dm_panel_of(live, seat, look=look, table_look=look)
        validate_embeds([e.to_dict() for e in shown.embeds])
        assert sum(len(e) for e in shown.embeds) <= 6000
        assert any(_listing(e, tr) for e in shown.embeds)


def _terminal(monkeypatch: pytest.MonkeyPatch, made: Session, typed: str, lang: str,
              *options: str) -> str:
    monkeypatch.setattr(umtali.cli_play, "Session", lambda rules, seed: made)
    out = io.StringIO()
    assert main(["play", "--seed", "4", "--lang", lang, *options],
                io.StringIO(typed + "\nquit\n"), out) == 0
    return out.getvalue()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_terminals_table_lists_the_whole_pile(monkeypatch: pytest.MonkeyPatch,
                                                  lang: str) -> None:
    pile = " ".join(PILE.split()[:5])
    made = _session(("2C 5S", "3C 3D 9H KD"), pile)
    out = _terminal(monkeypatch, made, "table", lang, "--level", "easy", "--no-review")
    line = f"{HEADING[lang]}: {_shown(pile)}"
    # With the table each turn, and again when asked for it.
    assert out.count(line + "\n") == 2, out
    # An empty pile has no such line.
    out = _terminal(monkeypatch, _session(("2C 5S", "3C 3D 9H KD"), ""), "table", lang,
                    "--level", "easy", "--no-review")
    assert HEADING[lang] not in out


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_terminal_keeps_a_face_down_top_from_the_other_player(
        monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    made = _session(("2C", "3C 3D 9H KD"), "4H 6S", stock="5S KH", rest="discard")
    out = _terminal(monkeypatch, made, "discard 2c", lang, "--hotseat", "--no-handover")
    lines = [line for line in out.splitlines() if line.startswith(HEADING[lang])]
    # Seat 0's table, then seat 1's for the last turn: the pile bottom to top, its top unnamed.
    assert len(lines) == 2, out
    assert lines[0].endswith(" 4♥ 6♠") and "🂠" not in lines[0], lines
    assert lines[1] == f"{lines[0]} 🂠 {FACE_DOWN[lang]}", lines
    assert len(lines[0].split(": ", 1)[1].split()) == 45 and "2♣" not in lines[1]


async def test_the_dm_panels_list_the_pile_as_it_grows(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    """Over the loopback Discord: each player's DM panel, edited as a turn ends, lists the
    pile as the session holds it, in the player's language."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        server.locales.update({alice: "en-US", bob: "ru"})
        saved = await start_session(server, db, alice, bob)
        assert bot.matches is not None
        pile = ""
        for _ in range(40):
            now = read_match(db, saved.id)
            assert now is not None and now.status == "active"
            if len(now.session.hand.discard_pile) >= 4 and not now.session.hand.face_down:
                pile = " ".join(str(CARDS[c]) for c in now.session.hand.discard_pile)
                break
            await play_move(server, db, saved.id)
            await bot.matches.flush()
        assert pile, "no pile of four cards in 40 moves"
        for user, lang in ((alice, "en"), (bob, "ru")):
            def listed(user: int = user, lang: str = lang) -> bool:
                return any(field.get("name", "").startswith(HEADING[lang])
                           and field.get("value") == pile
                           for dm in server.dm_messages(user) for embed in dm["embeds"]
                           for field in embed.get("fields", []))
            await until(listed, f"the whole pile on {lang}'s DM panel: {pile}")
