"""review55: a newcomer's first session, read as they read it: where the rules are, what the
first page of them says before its words are used, and which hand their DM panel shows."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.rules_text import command, pages
from tests.discord_helpers import World, challenge, flush, play, start_match
from umtali.i18n import EN, tr_for
from umtali.players import GreedyPlayer

#: What a rummy turn is, in the words page 3 onwards take for granted, bold where first said.
GIST = {
    "en": ("**draw**", "**melds**", "**discard**", "**goes out**", "(a **marriage**)"),
    "ru": ("**берёте**", "**комбинации**", "**сбрасываете**", "**выходит**", "(**марьяж**)"),
}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_first_rules_page_says_what_a_turn_is_before_scoring_with_it(language: str) -> None:
    """Page 1 scored 'the cards you lay', 'the player who goes out' and 'the K and Q of a
    marriage' to a reader told neither what a meld is nor what going out is (page 3 and 5)."""
    first = pages(tr_for(language))[0][1]
    for words in GIST[language]:
        assert words in first, words
    # The turn is told before the scores that speak of it.
    assert first.index(GIST[language][1]) < first.index(GIST[language][3]) < \
        first.index("**" + ("session" if language == "en" else "Матч"))


async def test_an_open_challenge_tells_a_newcomer_where_the_rules_are(world: World) -> None:
    """A member challenged by a friend saw Accept and Decline, the rules' name ('english')
    and a clock, and no word of where to learn the game."""
    posted = await challenge(world, world.alice, world.bob)
    text = posted.response.embeds[0].description or ""
    assert f"`{command(EN, ('umtali', 'rules'))}`" in text, text
    ru = tr_for("ru")
    said = ru("New to Umtali? `{rules}` explains the game, privately.",
              rules=command(ru, ("umtali", "rules")))
    assert "Умтали" in said and command(ru, ("umtali", "rules")) in said


def _fields(message: Any) -> dict[str, str]:
    return {f.name: f.value for f in message.embeds[0].fields}


async def test_the_dm_panel_says_which_hand_it_shows_and_the_games_score(world: World) -> None:
    """As a hand ended, the DM panel was edited to the next deal: every card changed, and
    nothing on it said that a new hand had begun, nor the score it left."""
    live = await start_match(world)
    while live.session.view(0).hand_no == 1:
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    view = live.session.view(0)
    a, b = view.game_scores
    assert (view.game, view.hand_no) == (1, 2) and a + b > 0
    for seat, actor in enumerate((world.alice, world.bob)):
        panel = next(m for m in actor.user.dm_channel.history()
                     if m.id == live.dm_message_ids[seat])
        fields = _fields(panel)
        assert fields.get("Game 1 · hand 2") == f"ada {a} – {b} ben", fields
