"""fix168: the last clipped words. ``/umtali-admin end-match``'s suggestions and question say
how long ago a match started with its unit in words and its plural form ("started 3 hours
ago", «начат 3 часа назад»), not "3 h" (read as the letter); a suggestion's label of two long
names cuts the names, never the match's number nor its start. A move's label and a lay
option's description are cut at a word, never inside a card ("10♥") or a mention, within the
limit whatever the text. SimCord, a real SQLite file, where the bot answers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogs.umtali.admin_ending import LABEL, _ago, choice_label
from cogs.umtali.card_words import MOST, cards_words, fitted
from cogs.umtali.names import FSI, PDI, label_name
from cogs.umtali.play_panel import _MAX_LABEL
from cogs.umtali.text_cuts import ELLIPSIS, head
from tests.discord_helpers import World, manager, start_match
from umtali.cards import CARDS
from umtali.i18n import EN, Tr, tr_for

RU = tr_for("ru")
#: A number and a bare unit letter (or "min"/«мин», «дн.»), as a screen reader misreads it.
BARE = re.compile(r"\d\s?(s|min|h|d|с|мин|ч|дн)\b")
#: What the callers cut to: a choice's label and an option's description (100), a lay
#: label (80), an embed's field (1,024), a message (2,000), an embed's description (4,096).
LIMITS = (MOST, _MAX_LABEL, 100, 1024, 2000, 4096)


def _hostile(world: World, name: str) -> World:
    """A world whose two players have ``name`` and ``name`` again, told apart by a digit."""
    guild = world.env.create_guild("Hostile Club")
    return World(world.env, guild, guild.create_text_channel("games"),
                 guild.add_member(world.env.create_user(name + "1")),
                 guild.add_member(world.env.create_user(name + "2")),
                 guild.add_member(world.env.create_user("cy")), world.clock)


async def test_a_suggestion_says_how_long_ago_in_words(world: World,
                                                       locales: dict[int, str]) -> None:
    boss = manager(world)
    live = await start_match(world)
    world.clock.advance(3 * 3600 + 60)
    offered = await boss.autocomplete(world.channel, "umtali-admin end-match", "match", "")
    assert [c["name"] for c in offered] == [f"#{live.id} · ada vs ben · started 3 hours ago"]
    locales[boss.id] = "ru"
    offered = await boss.autocomplete(world.channel, "umtali-admin end-match", "match", "")
    assert [c["name"] for c in offered] == [f"#{live.id} · ada — ben · начат 3 часа назад"]
    ask = await boss.slash(world.channel, "umtali-admin end-match", match=str(live.id))
    said = str(ask.response.content)
    assert said.startswith(f"Матч #{live.id} · ada — ben · рейтинговый · начат 3 часа "
                           "назад: "), said


@pytest.mark.parametrize(("seconds", "english", "russian"), [
    (0, "started less than a minute ago", "начат меньше минуты назад"),
    (59, "started less than a minute ago", "начат меньше минуты назад"),
    (60, "started 1 minute ago", "начат 1 минуту назад"),
    (21 * 60, "started 21 minutes ago", "начат 21 минуту назад"),
    (22 * 60 + 59, "started 22 minutes ago", "начат 22 минуты назад"),
    (59 * 60, "started 59 minutes ago", "начат 59 минут назад"),
    (3600, "started 1 hour ago", "начат 1 час назад"),
    (21 * 3600, "started 21 hours ago", "начат 21 час назад"),
    (47 * 3600 + 3599, "started 47 hours ago", "начат 47 часов назад"),
    (48 * 3600, "started 2 days ago", "начат 2 дня назад"),
    (21 * 86400, "started 21 days ago", "начат 21 день назад"),
    (400 * 86400, "started 400 days ago", "начат 400 дней назад"),
])
def test_how_long_ago_has_its_unit_in_words(seconds: int, english: str, russian: str) -> None:
    assert (_ago(EN, seconds), _ago(RU, seconds)) == (english, russian)
    assert not BARE.search(english) and not BARE.search(russian)


# A member's 32 characters made longer by what defuses their mentions (a zero-width space after
# each "<" and "@"), one right to left (isolated).
@pytest.mark.parametrize("name", ["<@" * 15 + "<", "א@" * 15 + "א"], ids=["mentions", "rtl"])
async def test_long_names_are_cut_never_the_number(world: World, locales: dict[int, str],
                                                   name: str) -> None:
    there = _hostile(world, name)
    boss = manager(there)
    live = await start_match(there)
    world.clock.advance(25 * 3600)
    for locale, started in (("en-US", " · started 25 hours ago"),
                            ("ru", " · начат 25 часов назад")):
        locales[boss.id] = locale
        [offered] = await boss.autocomplete(there.channel, "umtali-admin end-match", "match", "")
        label = offered["name"]
        # The names cut, the number and how long ago it started whole, within 100 characters.
        assert len(label) <= LABEL and offered["value"] == str(live.id), label
        assert label.startswith(f"#{live.id} · ") and label.endswith(started), label
        assert label.count(ELLIPSIS) == 2 and label.count(FSI) == label.count(PDI), label


@given(st.text(min_size=0, max_size=150), st.text(min_size=0, max_size=150),
       st.integers(1, 10 ** 18), st.integers(0, 10 ** 9), st.sampled_from([EN, RU]))
def test_a_label_always_fits_with_its_number_and_start(a: str, b: str, match: int,
                                                      seconds: int, tr: Tr) -> None:
    started = _ago(tr, seconds)
    label = choice_label(tr, match, label_name(a), label_name(b), started)
    assert len(label) <= LABEL, label
    assert label.startswith(f"#{match} · ") and label.endswith(f" · {started}"), label


@pytest.mark.parametrize("tr", [EN, RU], ids=["en", "ru"])
def test_a_description_is_cut_between_words(tr: Tr) -> None:
    # Every card but one suit's (no run: each card said whole, "queen of diamonds"), from
    # each first card on: the cut falls anywhere in a word.
    cards = [c for c in CARDS if c.suit != 0]
    for first in range(len(cards) - 14):  # two suits left at least: no run
        text = tr("an extension: {cards}", cards=cards_words(cards[first:], tr))
        cut = fitted(text)
        assert len(cut) <= MOST and cut.endswith(ELLIPSIS), cut
        kept = cut.removesuffix(ELLIPSIS)
        assert text.startswith(kept) and text[len(kept)] in " ," and kept[-1] != " ", cut


def test_a_move_label_keeps_whole_cards_and_mentions() -> None:
    text = "lay " + " ".join(["10♥"] * 40) + " on <@123456789012345678>"
    for limit in range(5, 200):
        cut = head(text, limit)
        kept = cut.removesuffix(ELLIPSIS)
        assert len(cut) <= limit and text.startswith(kept), (limit, cut)
        if cut != text:
            assert text[len(kept)] == " " and "<" not in kept, (limit, cut)


WORDS = st.lists(st.text(st.sampled_from("ab10♥♠JQ@:,.\u00a0é"),
                         min_size=1, max_size=12), min_size=1, max_size=60)


@given(st.text(max_size=300), st.sampled_from(LIMITS))
def test_any_text_is_cut_within_its_limit_to_a_prefix(text: str, limit: int) -> None:
    cut = head(text, limit)
    assert len(cut) <= limit
    if cut != text:
        # The ellipsis, then only the markdown or isolates it closes; before it, the text's
        # start (its line break kept when the cut ends a line).
        at = cut.rindex(ELLIPSIS)
        assert text.startswith(cut[:at]), (text, cut)
        assert set(cut[at + 1:]) <= set("*_~|`" + PDI), cut
    assert fitted(text) == head(text, MOST)


@given(WORDS, st.sampled_from(LIMITS))
def test_words_are_cut_at_a_space(words: list[str], limit: int) -> None:
    text = " ".join(w.replace(" ", "") for w in words)
    kept = head(text, limit).removesuffix(ELLIPSIS)
    room = text[:limit - 2]
    if len(text) > limit and " " in room:
        assert text[len(kept)] == " ", (text, kept)



def test_the_readme_says_its_times_in_words() -> None:
    """What a player or a server's admin reads (the README up to the operator's scale figures,
    its Russian half, and the promises of docs/RELIABILITY.md it links players to): no "10 s"
    nor «3 с». Measured figures (ms, p50) further on are left as measured."""
    root = Path(__file__).parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    english = readme[:readme.index("### Running at scale")]
    russian = readme[readme.index("## Как играть"):readme.index("## Development")]
    promises = (root / "docs" / "RELIABILITY.md").read_text(encoding="utf-8")
    bare = [m.group(0) for m in BARE.finditer(english + russian + promises)]
    assert not bare, bare
