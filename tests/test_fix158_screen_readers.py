"""The bot's texts as a screen reader says them (fix158), English and Russian: the card just
taken marked by a word, not "✱" ("heavy asterisk"); a hand's groups parted by "; " (a reader
passes two spaces over as one, and pauses at a semicolon); menu options that differ only by a
suit sign named in words ("7 of hearts", «7 червей»); plain list items, not "•"/"▸"; the stats'
counts said with what they count; the deals' fingerprint named by its first digits, whole on
a line of its own; `/umtali display` on a text-only server saying so first; waits and clocks
in words, not a bare "s"; `end-match` saying that it asks first. SimCord, a real SQLite file,
where the bot answers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.umtali.admin import UmtaliAdminCog
from cogs.umtali.arrange import HandOrder, hand_text, new_legend
from cogs.umtali.coach_review import review_text
from cogs.umtali.errors import message_for
from cogs.umtali.fair import reveal_line, sealed_line
from cogs.umtali.options import TIME_CONTROLS
from cogs.umtali.play_panel import MoveSelect, hand_panel
from cogs.umtali.rules_text import pages
from cogs.umtali.stats import record_text
from cogs.umtali.translator import UmtaliTranslator
from data.models import PlayerRecord, PlayerStats
from tests.discord_helpers import World, player, start_match, table_message
from tests.test_hand_summary import hands_ended
from tests.test_looks2_lay_menus import position
from tests.test_review_chal_practice_flood import OFFERS, _ask_and_cancel
from umtali import RuleSet, Session
from umtali.cards import Card
from umtali.i18n import EN, tr_for
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer
from umtali.text import describe
from umtali.view import PlayerView

RU = tr_for("ru")
#: Two numbers parted by a dash: a tally a reader says as two bare numbers.
DASHED = re.compile(r"\d\s?[–-]\s?\d")


def _taken_views() -> list[PlayerView]:
    """Views of a seat holding a card it took this turn, its hand of two suits or more."""
    found: list[PlayerView] = []
    for seed in range(30):
        session = Session(RuleSet.english(), seed)
        while not session.over and len(found) < 8:
            view = session.view(session.to_act)
            if any(c in view.hand for c in view.drawn) and len({c.suit for c in view.hand}) > 1:
                found.append(view)
            session.apply(GreedyPlayer().choose(view), session.to_act)
        if len(found) >= 8:
            break
    return found


def test_the_card_taken_is_marked_by_a_word_and_the_groups_by_semicolons() -> None:
    views = _taken_views()
    assert views
    for view in views:
        taken = [c for c in view.drawn if c in view.hand]
        for tr, mark in ((EN, "(new)"), (RU, "(новая)")):
            for order in HandOrder:
                text = hand_text(view, order, tr)
                assert "✱" not in text and "  " not in text, text
                for card in taken:
                    assert f"{card}\u00a0{mark}" in text, (text, card)
                assert "] [" not in text, text  # melds to lay, parted as the groups are
            by_suit = hand_text(view, HandOrder.SUIT, tr).split("; ")
            assert len(by_suit) == len({c.suit for c in view.hand}), by_suit
            for group in by_suit:
                assert len({c[-1] for c in group.split() if not c.startswith("(")}) == 1, group
            assert mark in new_legend(view, tr) and "✱" not in new_legend(view, tr)
    assert new_legend(views[0], EN).startswith("The card")
    assert new_legend(views[0], EN).endswith(" marked (new) is the one you just took.") or \
        new_legend(views[0], EN).endswith(" marked (new) are the ones you just took.")


def _options(message: Any) -> dict[str, list[tuple[str, str]]]:
    """Each menu of a message, by the last word of its custom id: its options' label and
    description, as sent to Discord."""
    out: dict[str, list[tuple[str, str]]] = {}
    for row in message.components:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for c in children:
            c = c if isinstance(c, dict) else c.to_dict()
            if "options" in c:
                out[c["custom_id"].split(":")[-1]] = [
                    (o["label"], o.get("description", "")) for o in c["options"]]
    return out


async def test_menu_options_name_their_cards_in_words(
        world: World, locales: dict[int, str]) -> None:
    live = await start_match(world)
    seat = live.session.to_act
    live.session = position(live.session)  # spades ace to nine, 4♥ 8♥; 5♥ 6♥ 7♥ on the table
    actor = player(world, seat)
    table = await table_message(world, live)
    for lang, ace, four, run, on in (
            ("en", "ace of spades", "4 of hearts", "a new meld: ace, 2, 3 of spades",
             "an extension: 4 of hearts on 5, 6, 7 of hearts"),
            ("ru", "туз пик", "4 червей", "новая комбинация: туз, 2, 3 пик",
             "добавление: 4 червей к комбинации 5, 6, 7 червей")):
        locales[actor.user.id] = lang
        panel = await actor.click(table, custom_id=f"umtali:m:{live.id}:hand")
        assert panel.ephemeral
        menus = _options(panel.response)
        picked = dict(menus["meld"])
        assert picked["A♠"] == ace and picked["4♥"] == four, picked
        lays = dict(menus["lay"]) | dict(menus.get("extend", []))
        assert lays["A♠ 2♠ 3♠"] == run, lays
        assert on in lays.values(), lays
        assert all(len(t) <= 100 for m in menus.values() for o in m for t in o)


def test_discard_options_name_their_card_in_words() -> None:
    """(The position above must meld first: no discard is offered there.)"""
    from cogs.umtali.card_words import card_words

    assert [card_words(Card.parse(c), EN) for c in ("7H", "QS", "AD", "10C")] == [
        "7 of hearts", "queen of spades", "ace of diamonds", "10 of clubs"]
    assert [card_words(Card.parse(c), RU) for c in ("7H", "QS", "AD", "10C")] == [
        "7 червей", "дама пик", "туз бубен", "10 треф"]
    session, seen = Session(RuleSet.english(), 4), 0
    while not session.over and seen < 5:
        view = session.view(session.to_act)
        if view.phase == "meld" and any(m.kind is MoveKind.DISCARD for m in view.legal_moves):
            for tr in (EN, RU):
                panel = hand_panel(view, 1, 1, tr=tr, order=HandOrder.SUIT)
                [menu] = [i.item for i in panel.children if isinstance(i, MoveSelect)
                          and i.action == "discard"]
                for option in menu.options:
                    card = Card.parse(str(option.value).split()[1])
                    assert option.description == card_words(card, tr), option
            seen += 1
        session.apply(GreedyPlayer().choose(view), session.to_act)
    assert seen


def test_lists_are_plain_list_items() -> None:
    for tr in (EN, RU):
        for _title, text in pages(tr):
            assert "•" not in text and "▸" not in text, text
        assert any("\n- " in text for _title, text in pages(tr))
        for e in hands_ended(1, RuleSet.english())[:2]:
            said = describe(e, ("ada", "ben"), tr=tr)
            accounts = said.split("\n")[1:]
            assert len(accounts) == 2 and all(a.startswith("- ") for a in accounts), said
    assert "•" not in review_text(EN, (1, 1), [])


def test_the_stats_say_what_each_count_counts() -> None:
    rec = PlayerRecord("ada", PlayerStats(sessions_won=3, sessions_lost=2, games_won=7,
                                          games_lost=5, hands_won=30, hands_lost=28, points=340,
                                          best_hand=21, marriages=1, went_out=2, forfeits=1),
                       PlayerStats(), None)
    english, russian = record_text(rec, EN), record_text(rec, RU)
    for said in (english, russian):
        assert not DASHED.search(said), said
    assert "games: won 7, lost 5 · hands: won 30, lost 28" in english, english
    assert "best hand: 21 points" in english and "went out: 2 times" in english, english
    assert "партии: выиграно 7, проиграно 5 · раздачи: выиграно 30, проиграно 28" in russian
    assert "лучшая раздача: 21 очко" in russian and "выход из раздачи: 2 раза" in russian, \
        russian


async def test_head_to_head_says_sessions_won(world: World) -> None:
    from tests.discord_helpers import play_out
    from tests.test_records_discord import text_of

    live = await start_match(world)
    await play_out(world, live)
    world.clock.advance(60)
    stats = text_of(await world.carol.slash(world.channel, "umtali stats", member=world.alice,
                                            versus=world.bob))
    ada_won = int(live.session.winner == live.player_ids.index(world.alice.user.id))
    assert f"Sessions won: ada {ada_won}, ben {1 - ada_won}" in stats, stats


def test_the_fingerprint_is_named_short_and_given_whole_on_its_own_line() -> None:
    commitment = "0123456789abcdef" * 4
    session = Session(RuleSet.english(), 3)
    while not session.over:
        session.apply(GreedyPlayer().choose(session.view(session.to_act)), session.to_act)
    for tr in (EN, RU):
        for said in (sealed_line(commitment, tr),
                     reveal_line(session, "ff" * 16, commitment, tr)):
            *sentences, last = said.split("\n")
            assert last == f"`{commitment}`", said
            assert "01234567" in sentences[0] and commitment not in "\n".join(sentences), said


async def test_display_on_a_text_only_server_says_the_true_thing_first(world: World) -> None:
    admin = world.guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[admin])
    await boss.slash(world.channel, "umtali-admin settings", pictures=False)
    result = await world.alice.slash(world.channel, "umtali display", four_colour=True)
    said = str(result.response.content or "")
    assert said.startswith("On this server your hand is shown as text alone"), said
    assert said.index("text alone") < said.index("a picture in a four-colour deck"), said


def test_a_wait_and_the_clocks_are_in_words() -> None:
    error = app_commands.CommandOnCooldown(app_commands.Cooldown(1, 10.0), 4.2)
    assert message_for(error, EN) == "Slow down: try again in 5 seconds."
    assert message_for(error, RU) == "Не так быстро: попробуйте снова через 5 секунд."
    names = [str(c.name) for c in TIME_CONTROLS]
    assert "Blitz: 30 seconds a turn + 2 minutes reserve" in names, names
    assert RU(names[0]) == "Блиц: 30 секунд на ход + 2 минуты запаса"
    assert not any(re.search(r"\d s\b", RU(n)) or re.search(r"\d с\b", RU(n)) for n in names)


async def test_practice_asked_too_soon_says_seconds_in_words(
        world: World, db_path: Path, locales: dict[int, str]) -> None:
    for _ in range(OFFERS):
        assert not (await _ask_and_cancel(world)).ephemeral
    refused = await _ask_and_cancel(world)
    assert re.fullmatch(r"Slow down: you can start another practice session in \d+ "
                        r"seconds?\.", refused.response.content), refused.response.content


async def test_end_match_says_it_asks_first() -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    group = UmtaliAdminCog(bot).app_command
    assert group is not None
    payload = await group.get_translated_payload(bot.tree, UmtaliTranslator())
    end = next(o for o in payload["options"] if o["name"] == "end-match")
    assert "(asks you first)" in end["description"] and len(end["description"]) <= 100
    ru = end["description_localizations"]["ru"]
    assert "сначала спросит" in ru and len(ru) <= 100, ru
