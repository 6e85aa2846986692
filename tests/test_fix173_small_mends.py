"""Three small mends from review161. A practice review's "…and 2 more" is its own message: it
shared the meld list's, which Russian says «…и ещё 2 варианта» (options), not mistakes. A
practice asked for too soon says its wait rounded up, as the challenge's does: 4.2 s said "4
seconds", and asked again then, it was refused again. The secrecy scans' ``without_accounts``
drops only a hand's accounts under its hand-ended line: since "- " is the ordinary list
marker, dropping every "- " line hid a card leaked on any list line. SimCord, a real SQLite
file, where the bot answers; the helper on texts the bot makes."""

from __future__ import annotations

import json
import re

from cogs.umtali.coach_review import whole_lessons
from cogs.umtali.render import turn_message
from data.store import Limits
from tests.discord_helpers import World
from tests.test_discord_play import CARD_TEXT, without_accounts
from tests.test_review_chal_practice_flood import OFFERS, _ask_and_cancel
from umtali.cards import Card
from umtali.events import HandEnd, HandEnded
from umtali.i18n import EN, Tr, tr_for

RU = tr_for("ru")


def test_a_review_counts_the_mistakes_left_out_as_mistakes() -> None:
    lessons = ["- " + "x" * 1500, "- " + "y" * 600, "- z"]
    said = whole_lessons("**Разбор**", lessons, RU).split("\n")
    assert said[-1] == "…и ещё 2 дорогие ошибки", said[-1]
    assert whole_lessons("**Review**", lessons, EN).endswith("\n…and 2 more costly moves")
    # The meld list keeps its own words.
    assert RU.plural("…and {count} more", "…and {count} more", 2) == "…и ещё 2 варианта"


async def test_a_practice_asked_too_soon_says_a_wait_after_which_it_is_taken(
        world: World) -> None:
    for _ in range(OFFERS):
        assert not (await _ask_and_cancel(world)).ephemeral
    # 4.2 s left of the practice cooldown: said 5 (4 would be refused again).
    world.clock.advance(Limits().practice_cooldown - 4.2)
    refused = await _ask_and_cancel(world)
    assert refused.ephemeral
    said = refused.response.content
    found = re.fullmatch(r"Slow down: you can start another practice session in (\d+) "
                         r"seconds?\.", said)
    assert found is not None, said
    world.clock.advance(int(found.group(1)))
    again = await _ask_and_cancel(world)
    assert not again.ephemeral, again.response.content


def _hand_over(tr: Tr) -> str:
    """A hand-ended message as the channel is sent it: each player's cards left, listed."""
    ended = HandEnded(game=1, hand=3, reason=HandEnd.WENT_OUT, went_out=0, melded=(40, 15),
                      leftover=12, scores=(52, 15), game_scores=(90, 60),
                      left_in_hand=((), (Card.parse("KS"), Card.parse("10H"))))
    return turn_message([ended], ["ada", "ben"], tr)


def _cards(content: str) -> set[str]:
    text = json.dumps(without_accounts({"content": content}), ensure_ascii=False)
    return {x.group(0) for x in CARD_TEXT.finditer(text)}


def test_only_a_hands_accounts_are_left_out_of_the_secrecy_scan() -> None:
    for tr in (EN, RU):
        over = _hand_over(tr)
        assert "10♥" in over and over.count("\n- ") == 2, over
        # The accounts under the hand-ended line: over, nothing in them still hidden.
        assert _cards(over) == set(), over
        # A card shown on any other list line is scanned: before, every "- " line was dropped.
        leak = "ben can meld:\n- 7♥ 8♥ 9♥"
        assert _cards(leak) == {"7♥", "8♥", "9♥"}, without_accounts({"content": leak})
        # Nor does a list line shaped as an account, away from a hand-ended line, pass.
        assert _cards("- ben: 3 points melded; holds Q♣.") == {"Q♣"}
        # A third line under the hand-ended one is no account (a hand has two).
        assert _cards(over + "\n- ben: 3 points melded; holds Q♣.") == {"Q♣"}
