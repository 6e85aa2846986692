"""What a new player reads on Discord (review164): the hand panel's scores labelled (this
hand's points beside the game's), the rules' extension as the table shows it, the fairness
said once, the turn clock's consequence, a stalled hand's meaning, and plainer wordings."""

from __future__ import annotations

import discord

from cogs.umtali.arrange import HandOrder
from cogs.umtali.final_card import CAUTIOUS
from cogs.umtali.pictures.scene import table_scene
from cogs.umtali.records import RATING_NOTE
from cogs.umtali.render import hand_embed, table_embed
from tests.discord_helpers import (
    World,
    accept,
    challenge,
    flush,
    start_match,
    the_match,
    thread_of,
)
from tests.helpers import position
from tests.test_records_discord import resign
from umtali import RuleSet, Session
from umtali.cards import Card
from umtali.events import HandEnd, HandEnded
from umtali.i18n import EN, tr_for
from umtali.players import GreedyPlayer
from umtali.text import describe
from umtali.view import SPECTATOR, PlayerView

RU = tr_for("ru")
#: A hostile name: 32 characters, every one escaped on Discord.
HOSTILE = "*_`~|>" * 5 + "**"


def _fields(embed: discord.Embed) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed.to_dict().get("fields", [])}


def _laid(seed: int = 3) -> PlayerView:
    """Seat 0's view in a hand still played in which both have points laid."""
    session = Session(RuleSet.english(), seed)
    player = GreedyPlayer()
    while True:
        view = session.view(0)
        if view.hand_points[0] > 0 and view.hand_points[1] > 0 and view.winner < 0 \
                and not view.hand_scores:
            return view
        session.apply(player.choose(session.view(session.to_act)), session.to_act)


def test_the_hand_panel_says_this_hands_points_and_the_games() -> None:
    view = _laid()
    a, b = view.hand_points
    fields = _fields(hand_embed(view, ("ada", "ben"), 1, tr=EN, order=HandOrder.SUIT))
    said = fields[f"Game 1 · hand {view.hand_no}"]
    assert said == (f"This hand, laid so far: ada {a} – {b} ben\n"
                    "Game, earlier hands: ada 0 – 0 ben"), said
    ru = _fields(hand_embed(view, ("ada", "ben"), 1, tr=RU, order=HandOrder.SUIT))
    said = ru[f"Партия 1 · раздача {view.hand_no}"]
    assert f"ada {a}:{b} ben" in said and "ada 0:0 ben" in said, said
    for tr in (EN, RU):
        embed = hand_embed(view, (HOSTILE, HOSTILE), 1, tr=tr, order=HandOrder.SUIT)
        assert len(embed) <= 6000
        for name, value in _fields(embed).items():
            assert len(name) <= 256 and len(value) <= 1024, (name, value)


async def test_an_accepted_challenge_gives_the_fingerprint_whole_once(world: World) -> None:
    offered = await challenge(world, world.alice, world.bob)
    assert (await accept(world.bob, offered.response)).acknowledged
    await flush(world)
    live = the_match(world)
    shown = next(m for m in world.channel.history() if m.id == offered.response.id)
    said = shown.embeds[0].description or ""
    assert said.count(live.commitment) == 1, said
    assert f"Deals sealed: the fingerprint above, beginning {live.commitment[:8]}." in said, said


def test_the_table_says_which_discard_is_on_top() -> None:
    session = Session(RuleSet.english(), 1)
    session.hand = position(hands=("2C 5S", "3C 3D 9H KD"), stock="2S 3S", discard="KC 10S")
    table = table_embed(session.view(SPECTATOR), ("ada", "ben"), 1, tr=EN)
    assert _fields(table)["Discard pile"] == "10♠ on top, K♣ under it (2 cards)"
    ru = table_embed(session.view(SPECTATOR), ("ada", "ben"), 1, tr=RU)
    assert _fields(ru)["Сброс"] == "10♠ сверху, под ней K♣ (2 карты)"
    # The hand's panel in the same words; the whole pile listed under it.
    panel = hand_embed(session.view(0), ("ada", "ben"), 1, tr=EN, order=HandOrder.SUIT)
    assert _fields(panel)["Discard pile"] == "10♠ on top"


def test_the_picture_counts_cards_in_words_after_the_name() -> None:
    session = Session(RuleSet.english(), 3)
    for tr, words in ((EN, " · 11 cards"), (RU, " · 11 карт")):
        scene = table_scene(session.view(SPECTATOR), ("ada", "Computer (easy)"), tr)
        seat = scene.seats[session.to_act]
        assert seat.tags.startswith(words), seat.tags


def test_a_computer_named_with_its_level_nests_no_brackets_nor_colons() -> None:
    went = HandEnded(game=1, hand=2, reason=HandEnd.WENT_OUT, went_out=0, melded=(20, 9),
                     leftover=10, scores=(30, 9), game_scores=(30, 9),
                     left_in_hand=((), (Card.parse("KS"),)))
    names = ("ada", "Компьютер (лёгкий)")
    said = describe(went, names, RU).splitlines()[0]
    assert "((" not in said and "))" not in said, said
    assert "оставшиеся на руке у соперника — Компьютер (лёгкий)." in said, said
    english = describe(went, ("ada", "Computer (easy)"), EN).splitlines()[0]
    assert "for the cards Computer (easy) still holds." in english, english
    panel = hand_embed(Session(RuleSet.english(), 3).view(0), names, 1, tr=RU,
                       order=HandOrder.SUIT)
    assert "Компьютер (лёгкий) · на руке" in _fields(panel), list(_fields(panel))


def test_an_empty_hand_is_said_once() -> None:
    for seed in range(30):
        session = Session(RuleSet.english(), seed)
        player = GreedyPlayer()
        while not session.over:
            session.apply(player.choose(session.view(session.to_act)), session.to_act)
        empty = [s for s in (0, 1) if not session.view(s).hand]
        if empty:
            break
    fields = _fields(hand_embed(session.view(empty[0]), ("ada", "ben"), 1, tr=EN,
                                order=HandOrder.SUIT))
    assert fields.get("Your hand") == "no cards", fields
    assert not [n for n in fields if n.startswith("0 cards")], fields


async def test_the_practice_offer_says_results_are_kept_and_ratings_do_not_change(
        world: World) -> None:
    offered = await world.alice.slash(world.channel, "umtali practice", turn_timer=2)
    said = offered.response.embeds[0].description or ""
    assert "Results are kept; ratings do not change." in said, said
    assert "Clock for your turns: 2 minutes; run out of time and you lose the session." in said


async def test_the_final_card_explains_ratings_and_the_seed_is_said_once(world: World) -> None:
    live = await start_match(world)
    await resign(world, world.bob, live)
    thread = thread_of(world, live)
    table = next(m for m in thread.history() if m.id == live.table_message_id)
    fields = {f["name"]: f["value"] for f in table.embeds[1].to_dict().get("fields", [])}
    assert fields["Ratings"].splitlines()[-1] == EN(CAUTIOUS), fields["Ratings"]
    assert "cautious estimate of skill" in EN(RATING_NOTE)  # the board's own words
    # The seed, salt and fingerprint said once: in the last announcement, not on the card.
    said = [m.content for m in thread.history() if m.content and live.salt in m.content]
    assert len(said) == 1 and "sha256sum" in said[0], said
    fair = fields["Fair deals"]
    assert live.salt not in fair and live.commitment not in fair, fair
    assert "**Session files** below" in fair, fair
