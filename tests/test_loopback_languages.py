"""A whole session in English and one in Russian over the loopback Discord, pictures on: no
card of a hand in any public message, each turn announced once in the server's language, the
table's picture edited in place, and at most two calls to Discord a move besides the answers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cogs.umtali.pictures import HAND_FILE, TABLE_FILE
from tests.loopback.driver import play_move, read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord
from tests.test_discord_play import CARD_TEXT, without_accounts
from tests.test_loopback_session import mid_turn_moves
from umtali.cards import CARDS, iter_cards
from umtali.i18n import tr_for
from umtali.players import GreedyPlayer

CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)


@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_a_full_session_in_each_language(locale: str, monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        # The server's language reaches the bot with the server itself, when it connects.
        server.guild_locale = locale
        await play_a_session(server, db, locale)


async def play_a_session(server: LoopbackDiscord, db: Path, locale: str) -> None:
    async with bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        server.locales.update({alice: locale, bob: locale})
        saved = await start_session(server, db, alice, bob)
        await until(lambda: all(server.dm_messages(u) for u in (alice, bob)), "the hands")
        assert bot.matches is not None
        public = {server.channel_id, saved.channel_id}
        checked = 0
        said: list[str] = []

        def scan(in_hands: set[str]) -> None:
            """What the bot posted or edited publicly since the last scan shows no card held
            in a hand."""
            nonlocal checked
            for call in server.calls[checked:]:
                found = re.search(r"/channels/(\d+)/messages", call.path)
                to_channel = (call.method in ("POST", "PATCH") and found is not None
                              and int(found.group(1)) in public)
                if not to_channel:
                    continue
                # A hand just over shows what each player held (the "▸" lines): it no
                # longer matters. Nothing else may.
                text = json.dumps(without_accounts(call.body), ensure_ascii=False)
                leaked = {x.group(0) for x in CARD_TEXT.finditer(text)} & in_hands
                assert not leaked, f"{sorted(leaked)} in a public message: {text}"
                assert HAND_FILE not in [name for name, _ in call.files]
                if call.method == "POST" and isinstance(call.body, dict):
                    said.append(str(call.body.get("content") or ""))
            checked = len(server.calls)

        scan(set())
        calls_before = len(server.calls)
        moves = 0
        while True:
            now = read_match(db, saved.id)
            assert now is not None
            if now.status != "active":
                break
            probe = now.session.copy()
            hand = probe.hand
            probe.apply(GreedyPlayer().choose(probe.view(probe.to_act)))
            await play_move(server, db, saved.id)
            await bot.matches.flush()
            moves += 1
            # Judged by the cards held once the move was made, in the hand it was made in.
            scan({str(CARDS[c]) for seat in (0, 1) for c in iter_cards(hand.hands[seat])})
        final = read_match(db, saved.id)
        assert final is not None and final.status == "finished"
        others = [c for c in server.calls[calls_before:] if "/interactions/" not in c.path
                  and "/webhooks/" not in c.path]
        within = mid_turn_moves(final.session)
        assert len(others) <= 2 * moves + within, (len(others), moves, within)
        # The table message carries its picture to the end.
        assert final.table_message_id is not None
        table = server.messages[final.table_message_id]
        assert server.attachment(table, TABLE_FILE) is not None
        # Every turn was announced in the server's language; the last one ends the session.
        announcements = [s for s in said if s]
        assert len(announcements) > 20
        russian = [s for s in announcements if CYRILLIC.search(s)]
        if locale == "ru":
            assert len(russian) == len(announcements), [
                s for s in announcements if not CYRILLIC.search(s)]
            assert not any(re.search(r"\b(wins|turn|draws|discards|melds)\b", s)
                           for s in announcements)
        else:
            assert not russian, russian
        tr = tr_for(locale)
        last = announcements[-1]
        assert tr("Deals revealed: seed `{seed}`, salt `{salt}`, sealed as the fingerprint "
                  "beginning {short}. Check them with the session's deals file (`{history}`) "
                  "and `python3 -m umtali verify`.", seed=final.session.seed, salt="", short="",
                  history="").split("`")[0] in last
        # Each hand arrived by DM, in its player's language, and was edited in place.
        for user in (alice, bob):
            [dm] = server.dm_messages(user)
            shown = json.dumps(dm["embeds"], ensure_ascii=False)
            assert bool(CYRILLIC.search(shown)) == (locale == "ru")
