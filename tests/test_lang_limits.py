"""Every limit Discord puts on what a bot sends, held in Russian with the longest names.

The loopback Discord refuses only the limits it knows; here each body the bot sent (posts,
edits, answers, follow-ups, modals) is checked after the run against all of them, as SimCord
checks them: content, embeds (each, and 6,000 in all), buttons, menus, modals, thread names.
"""

from __future__ import annotations

import asyncio
import gettext
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from simcord.components import (
    ComponentValidationError,
    validate_components,
    validate_embeds,
    validate_modal,
)

from cogs.umtali.arrange import HandOrder
from cogs.umtali.final_card import final_panel
from cogs.umtali.panels import (
    challenge_panel,
    cut_panel,
    hand_panel,
    resign_panel,
    table_panel,
    timeout_panel,
)
from cogs.umtali.render import hand_embed, table_embed
from cogs.umtali.showing import LAST_TURN
from tests.loopback.driver import (
    custom_ids,
    cut_deck,
    play_move,
    play_out,
    read_match,
    start_session,
    until,
)
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord, Member
from umtali.i18n import languages, tr_for
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import SPECTATOR

#: Names as long as a name can be shown: 32 characters, each escaped (twice as long).
LONG_NAMES = ("~" * 32, "Ж_" * 16)
THREAD_NAME = 100
#: The commands' own names, the same in every language.
SAME_NAMES = ("umtali", "umtali-admin")


def over_limits(server: LoopbackDiscord) -> list[str]:
    """Every body the bot sent that Discord would refuse, and why."""
    found: list[str] = []
    for call in server.calls:
        if call.method not in ("POST", "PATCH") or not isinstance(call.body, dict):
            continue
        callback = call.path.endswith("/callback")
        body = call.body.get("data") if callback else call.body
        if not isinstance(body, dict):
            continue
        try:
            if callback and call.body.get("type") == 9:
                validate_modal(body)
                continue
            content = body.get("content")
            if content is not None and len(content) > 2000:
                raise ComponentValidationError(f"content: {len(content)} > 2000")
            if body.get("embeds") is not None:
                validate_embeds(body["embeds"])
            if body.get("components"):
                validate_components(body["components"], flags=int(body.get("flags") or 0))
            if call.path.endswith("/threads") and len(body.get("name") or "") > THREAD_NAME:
                raise ComponentValidationError(f"thread name: {len(body['name'])}")
        except ComponentValidationError as e:
            found.append(f"{call.method} {call.path}: {e}")
        if call.status == 400:
            found.append(f"{call.method} {call.path}: refused by the loopback")
    return found


async def _everything_in_russian(server: LoopbackDiscord, db: Path, **options: Any) -> None:
    a, b = (server.add_member(n) for n in LONG_NAMES)
    server.locales.update({a: "ru", b: "ru"})
    saved = await start_session(server, db, a, b, **options)
    await play_out(server, db, saved.id)
    done = read_match(db, saved.id)
    assert done is not None and done.status == "finished"
    await until(lambda: not any(":hand" in c for c in custom_ids(
        server.messages.get(done.table_message_id or 0))), "the final table")
    for page in range(1, 7):
        await server.slash(a, server.channel_id, "umtali rules", {"page": page})
    await server.slash(a, server.channel_id, "umtali leaderboard", {})
    await server.slash(a, server.channel_id, "umtali stats",
                       {"member": Member(a), "versus": Member(b)})
    history = await server.slash(a, server.channel_id, "umtali history", {"member": Member(b)})
    assert history.response is not None
    [menu] = [c for c in custom_ids(history.response) if c.startswith("umtali:rp:")]
    await server.click(a, history.response, menu, values=[str(saved.id)])


@pytest.fixture
def untranslated(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every message asked of a catalogue (Russian) that it does not hold."""
    missed: list[str] = []
    cls = gettext.GNUTranslations

    def gettext_(self: Any, message: str) -> str:
        if message not in self._catalog:
            missed.append(message)
        return str(self._catalog.get(message, message))

    def ngettext_(self: Any, singular: str, plural: str, n: int) -> str:
        if (singular, 0) not in self._catalog:
            missed.append(singular)
        return original_n(self, singular, plural, n)

    def pgettext_(self: Any, context: str, message: str) -> str:
        if f"{context}\x04{message}" not in self._catalog and message not in SAME_NAMES:
            missed.append(f"{context}|{message}")
        return original_p(self, context, message)

    original_n, original_p = cls.ngettext, cls.pgettext
    monkeypatch.setattr(cls, "gettext", gettext_)
    monkeypatch.setattr(cls, "ngettext", ngettext_)
    monkeypatch.setattr(cls, "pgettext", pgettext_)
    return missed


@pytest.mark.parametrize("pictures", [True, False])
async def test_a_russian_session_between_the_longest_names_keeps_every_limit(
        pictures: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        untranslated: list[str]) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        server.guild_locale = "ru"
        async with bot_in_process(server, db):
            boss = server.add_member("boss")
            await server.slash(boss, server.channel_id, "umtali-admin settings",
                               {"pictures": pictures, "time_control": "normal"})
            await _everything_in_russian(server, db)
        assert len(server.threads()) == 1
        assert not over_limits(server), "\n".join(over_limits(server))
    assert not untranslated, sorted(set(untranslated))


# -- the panels' builders, walked directly ---------------------------------------------------

LANGUAGES = list(languages())


def _valid(view: discord.ui.View) -> None:
    validate_components(view.to_components())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_fixed_panel_keeps_discords_limits(lang: str) -> None:
    tr = tr_for(lang)
    big = 10**19 - 1  # ids at their longest
    live = SimpleNamespace(id=big, guild_id=big)
    for view in (table_panel(big, tr), challenge_panel(big, tr, (big, big)),
                 cut_panel(big, tr, big), resign_panel(big, big, tr), timeout_panel(big, big, tr),
                 final_panel(live, tr)):  # type: ignore[arg-type]
        _valid(view)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_hand_panel_of_whole_sessions_keeps_discords_limits(lang: str) -> None:
    """Each seat's panel at every point of whole sessions, in each layout, as a practice
    session's (with its Hint) and not: buttons, menus, labels and ids within the limits."""
    tr = tr_for(lang)
    big = 10**19 - 1
    checked = 0
    for seed, rules in ((1, RuleSet.english()), (2, RuleSet.russian()),
                        (3, RuleSet.english(optional_melding=True))):
        session = Session(rules, seed)
        while not session.over:
            for seat in (0, 1):
                view = session.view(seat)
                for order in HandOrder:
                    _valid(hand_panel(view, big, big, tr=tr, order=order, hint=True))
                    checked += 1
                # The DM panel while the channel is lost: the table above the hand.
                table = table_embed(session.view(SPECTATOR), LONG_NAMES, big, tr=tr,
                                    note="z" * LAST_TURN, clock="y" * 200, deadline=1e9)
                hand = hand_embed(view, LONG_NAMES, big, tr=tr, order=HandOrder.MELDS,
                                  note="x" * 200)
                validate_embeds([table.to_dict(), hand.to_dict()])
            seat = session.to_act
            session.apply(GreedyPlayer().choose(session.view(seat)), seat)
    assert checked > 1000


async def test_a_russian_practice_with_hints_and_reviews_is_all_in_russian_and_in_limits(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, untranslated: list[str]) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        server.guild_locale = "ru"
        async with bot_in_process(server, db):
            ada = server.add_member(LONG_NAMES[1])
            server.locales[ada] = "ru"
            offer = await server.slash(ada, server.channel_id, "umtali practice",
                                       {"level": "easy"})
            assert offer.response is not None
            await cut_deck(server, ada, offer.response)
            saved = await until(lambda: (m := read_match(db)) and m.table_message_id and m,
                                "the table")
            hints = 0
            while (now := read_match(db, saved.id)) is not None and now.status == "active":
                if now.session.to_act != 0:
                    await asyncio.sleep(0.01)
                    continue
                if hints < 6 and server.dm_messages(ada):
                    panel = server.dm_messages(ada)[-1]
                    hint = [c for c in custom_ids(panel) if c.endswith(":hint")]
                    if hint:
                        await server.click(ada, panel, hint[0])
                        hints += 1
                await play_move(server, db, saved.id)
            await until(lambda: len(server.dm_messages(ada)) > 1, "a hand's review")
            await server.slash(ada, server.channel_id, "umtali history", {})
        assert hints
    assert not over_limits(server), "\n".join(over_limits(server))
    assert not untranslated, sorted(set(untranslated))


async def test_a_server_switching_to_russian_mid_match_keeps_every_limit(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, untranslated: list[str]) -> None:
    """Threads off, an English server turned Russian between two turns, a resignation: what
    follows the switch is in Russian, an English member's own answers stay English."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        async with bot_in_process(server, db):
            boss = server.add_member("boss")
            await server.slash(boss, server.channel_id, "umtali-admin settings",
                               {"threads": False, "pictures": False})
            a, b = (server.add_member(n) for n in LONG_NAMES)
            server.locales[b] = "ru"
            saved = await start_session(server, db, a, b, variant="russian")
            await play_out(server, db, saved.id, moves=5)
            await server.slash(boss, server.channel_id, "umtali-admin settings",
                               {"language": "ru"})
            await play_out(server, db, saved.id, moves=5)
            snapshot = await server.slash(boss, server.channel_id, "umtali table", {})
            assert snapshot.ephemeral and "Umtali" in snapshot.text()
            ask = await server.slash(a, server.channel_id, "umtali resign", {})
            assert ask.response is not None and "Resign the session?" in ask.text()
            yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
            await server.click(a, ask.response, yes)
            done = await until(lambda: (m := read_match(db, saved.id)) is not None
                               and m.status == "finished" and m, "the resignation")
            await until(lambda: "Матч окончен" in json.dumps(
                server.messages.get(done.table_message_id or 0), ensure_ascii=False),
                "the final table, in Russian")
        assert not server.threads()
    assert not over_limits(server), "\n".join(over_limits(server))
    assert not untranslated, sorted(set(untranslated))
