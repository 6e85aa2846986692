"""Russian scores written one way: a score between the two players (a session's games, a
game's points, a hand's points, head-to-head) with a colon, «2:1», «ada 45:30 ben», as
Russian sport writes a score; a range («на 2–5 очков») and a member's own tally of won and
lost (stats: «партии 12–8») with an en dash (the rule is in ru.po's header). Before, the
session's result read «2:0» beside its hands' «24–0», the table's «45 – 30» and «1 – 0», and
history's «2–0». English is as it was. SimCord, a real SQLite file."""

from __future__ import annotations

import re

import discord

from cogs.umtali.arrange import HandOrder
from cogs.umtali.final_card import final_embed
from cogs.umtali.records import session_text
from cogs.umtali.render import hand_embed, table_embed
from tests.discord_helpers import World, play_out, start_match
from tests.test_records_discord import text_of
from umtali import RuleSet, Session
from umtali.i18n import EN, tr_for
from umtali.view import SPECTATOR

RU = tr_for("ru")
#: Two numbers parted by a dash, spaced or not: a score written as a range.
DASHED = re.compile(r"\d\s?[–-]\s?\d")


def _embed_text(embed: discord.Embed) -> str:
    data = embed.to_dict()
    parts = [data.get("title", ""), data.get("description", "")]
    parts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
    return "\n".join(parts)


def test_the_table_and_a_hand_panel_write_the_score_with_a_colon() -> None:
    session = Session(RuleSet.english(), 5)
    table = _embed_text(table_embed(session.view(SPECTATOR), ("ada", "ben"), 7, tr=RU))
    assert "Партия: ada 0:0 ben" in table and "Выиграно партий: ada 0:0 ben" in table, table
    hand = _embed_text(hand_embed(session.view(0), ("ada", "ben"), 7, tr=RU,
                                  order=HandOrder.SUIT))
    assert "ada 0:0 ben" in hand, hand
    english = _embed_text(table_embed(session.view(SPECTATOR), ("ada", "ben"), 7, tr=EN))
    assert "Game: ada 0 – 0 ben" in english and "Games won: ada 0 – 0 ben" in english, english


async def test_a_sessions_scores_read_alike_in_russian(world: World) -> None:
    live = await start_match(world)
    await play_out(world, live)
    assert live.over
    svc = world.bot.matches
    assert svc is not None
    card = _embed_text(await final_embed(svc, live, RU))
    hands = await svc.store.records.hands(live.id)
    w, won = live.session.winner, live.session.games_won
    assert f"побеждает {won[w]}:{won[1 - w]}" in card, card
    assert "Партии и раздачи (ada — ben)" in card, card
    assert " · ".join(f"{h.scores[0]}:{h.scores[1]}" for h in hands if h.game == 1) in card, \
        card
    assert not DASHED.search(card), card
    english = _embed_text(await final_embed(svc, live, EN))
    assert " · ".join(f"{h.scores[0]}–{h.scores[1]}" for h in hands if h.game == 1) in \
        english, english

    [line] = await svc.store.records.recent(world.guild.id, world.alice.user.id)
    mine = won[live.player_ids.index(world.alice.user.id)]
    said = session_text(line, world.alice.user.id, RU)
    assert f"{mine}:{won[0] + won[1] - mine}" in said and not DASHED.search(said), said
    assert f"{mine}–{won[0] + won[1] - mine}" in session_text(line, world.alice.user.id, EN)

    world.clock.advance(60)
    stats = text_of(await world.carol.slash(world.channel, "umtali stats", member=world.alice,
                                            versus=world.bob))
    ada_won = int(w == live.player_ids.index(world.alice.user.id))
    # Head-to-head in words (fix158: "ada 1 – 0 ben" was read as two bare numbers).
    assert f"Sessions won: ada {ada_won}, ben {1 - ada_won}" in stats, stats
