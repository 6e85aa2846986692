"""review55: a newcomer's first session, read as they read it: where the rules are, what the
first page of them says before its words are used, and which hand their DM panel shows."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.rules_text import command, pages
from tests.discord_helpers import World, challenge, flush, play, start_match
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged
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
        # The game's score labelled, beside this hand's (review164).
        assert fields.get("Game 1 · hand 2") == ("This hand, laid so far: ada 0 – 0 ben\n"
                                                 f"Game, earlier hands: ada {a} – {b} ben"), fields


def _buttons(message: Any) -> dict[str, tuple[str, bool]]:
    """A message's buttons: label → (custom id, disabled)."""
    out: dict[str, tuple[str, bool]] = {}
    for row in message.components:
        for c in (row.get("components", []) if isinstance(row, dict) else row.children):
            item = c if isinstance(c, dict) else c.to_dict()
            out[item.get("label") or ""] = (item["custom_id"], bool(item.get("disabled")))
    return out


async def test_the_rules_turn_their_pages_with_buttons(world: World,
                                                       locales: dict[int, str]) -> None:
    """Six pages, and no way on but to type '/umtali rules page:2', then 3, ... on a phone:
    each page now has the page before and after as buttons, turned in place, privately."""
    first = await world.bob.slash(world.channel, "umtali rules")
    assert first.ephemeral
    message = first.response
    buttons = _buttons(message)
    assert set(buttons) == {"Previous page", "Next page"}, buttons
    assert buttons["Previous page"][1] and not buttons["Next page"][1], buttons
    seen = [message.embeds[0].title]
    for page in range(2, len(pages(EN)) + 1):
        turned = await world.bob.click(message, custom_id=_buttons(message)["Next page"][0])
        assert turned.acknowledged and turned.response.ephemeral  # the page, edited in place
        assert turned.response.id == first.response.id
        message = turned.response
        assert message.embeds[0].title == f"Umtali rules · {pages(EN)[page - 1][0]}"
        assert message.embeds[0].description == pages(EN)[page - 1][1]
        seen.append(message.embeds[0].title)
    assert len(set(seen)) == len(pages(EN))
    assert _buttons(message)["Next page"][1] and not _buttons(message)["Previous page"][1]
    back = await world.bob.click(message, custom_id=_buttons(message)["Previous page"][0])
    assert back.response.embeds[0].title == f"Umtali rules · {pages(EN)[-2][0]}"

    # In the clicker's language.
    locales[world.carol.id] = "ru"
    ru = tr_for("ru")
    shown = await world.carol.slash(world.channel, "umtali rules")
    label = "Следующая страница"  # (words a screen reader says, no arrow read out)
    assert label in _buttons(shown.response) and "Предыдущая страница" in _buttons(shown.response)
    turned = await world.carol.click(shown.response, custom_id=_buttons(shown.response)[label][0])
    assert turned.response.embeds[0].description == pages(ru)[1][1]


async def test_a_forged_rules_page_is_answered_privately(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3"):
        member = server.add_member("ada")
        for page in ("0", "7", "99999999999999999999"):
            message = forged(server, f"umtali:rules:{page}")
            before = copy.deepcopy(message)
            answer = await server.click(member, message, f"umtali:rules:{page}")
            assert answer.callback_type == 4 and answer.ephemeral, answer.text()
            assert "There are 6 pages" in answer.callback["content"]
            assert message == before
        message = forged(server, "umtali:rules:3")
        turned = await server.click(member, message, "umtali:rules:3")
        assert turned.callback_type == 7, turned.text()
        assert turned.callback["embeds"][0]["description"] == pages(EN)[2][1]


def test_a_practice_names_its_rules_in_english_words() -> None:
    """'level normal (english, optional melding rules)': the rules' option words were put
    before 'rules', which read as broken English once the house rule was on."""
    from cogs.umtali.practice import practice_embed
    from umtali.rules import RuleSet

    for optional, words in ((False, "(rules: English)"),
                            (True, "(rules: English, optional melding)")):
        rules = RuleSet.named("english", optional_melding=optional)
        text = practice_embed(1, "normal", rules, EN).description or ""
        assert words in text and "melding rules" not in text, text


async def test_the_final_card_names_its_rules_in_english_words(world: World) -> None:
    """The session's final card read 'english, optional melding rules · played out'."""
    from tests.discord_helpers import flush, thread_of

    live = await start_match(world, optional_melding=True)
    svc = world.bot.matches
    assert svc is not None
    # Resigned at once: the same final card as a session played out, in a tenth of the time.
    assert await svc.resign(live, 0)
    await flush(world)
    assert live.over
    table = next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)
    card = table.embeds[1].description or ""
    assert card.startswith("Rules: English, optional melding · "), card
