"""The flags of a region's subdivision (England 🏴󠁧󠁢󠁥󠁮󠁧󠁿, Scotland, Wales) are written with tag
characters: the black flag, the subdivision's code in tags, a cancel tag. A name keeps such a
flag whole (it was cut down to 🏴); tag characters anywhere else are invisible, could only
hide text, and go with the other hidden characters, however many there are."""

from __future__ import annotations

import time

import pytest

from cogs.umtali.names import MAX_NAME, clean_name, echo, safe_name, visible
from tests.discord_helpers import World, custom_ids, flush, submit_cut, table_message, the_match

BLACK_FLAG = "\U0001f3f4"
CANCEL = "\U000e007f"


def tags(text: str) -> str:
    """``text`` (ASCII) in tag characters."""
    return "".join(chr(0xE0000 + ord(c)) for c in text)


def flag(code: str) -> str:
    return BLACK_FLAG + tags(code) + CANCEL


ENGLAND, SCOTLAND, WALES = flag("gbeng"), flag("gbsct"), flag("gbwls")


@pytest.mark.parametrize("name", [
    ENGLAND, f"{ENGLAND} ada", f"ben {SCOTLAND}{WALES}", f"{WALES}x",
    flag("usca"), flag("fr75c"),  # any subdivision code, as CLDR writes them
])
def test_a_subdivision_flag_is_kept_whole(name: str) -> None:
    assert clean_name(name) == name
    assert safe_name(name) == name
    assert echo(name) == name
    assert visible(f"meld 8D {ENGLAND}") == f"meld 8D {ENGLAND}"


@pytest.mark.parametrize("name, shown", [
    ("ada" + tags("evil"), "ada"),  # tag letters after a letter hide text
    ("a" + tags("xx") + "da", "ada"),
    ("ada" + CANCEL, "ada"),
    ("x" + tags("gbeng") + CANCEL, "x"),  # no black flag before them
    (BLACK_FLAG + tags("gbeng"), BLACK_FLAG),  # never cancelled
    (BLACK_FLAG + tags("gbeng") + " ada" + CANCEL, BLACK_FLAG + " ada"),
    (BLACK_FLAG + CANCEL, BLACK_FLAG),  # no code
    (BLACK_FLAG + tags("gb") + CANCEL, BLACK_FLAG),  # too short for a subdivision
    (BLACK_FLAG + tags("gbengland") + CANCEL, BLACK_FLAG),  # too long for one
    (BLACK_FLAG + tags("GBENG") + CANCEL, BLACK_FLAG),  # capitals: not a subdivision code
    (BLACK_FLAG + tags("gb-eng") + CANCEL, BLACK_FLAG),
    (BLACK_FLAG + "\U000e0001" + tags("gbeng") + CANCEL, BLACK_FLAG),  # the language tag
    (BLACK_FLAG + "\u200b" + tags("gbeng") + CANCEL, BLACK_FLAG),  # split by a hidden one
    (ENGLAND + tags("sct") + CANCEL, ENGLAND),  # a second code after the cancel tag
    (tags("gbeng") + CANCEL, "Player"),
])
def test_tag_characters_anywhere_else_go(name: str, shown: str) -> None:
    assert clean_name(name) == shown
    assert safe_name(name) == shown


def test_a_flag_cut_by_the_name_limit_leaves_no_tags() -> None:
    assert clean_name("x" * (MAX_NAME - 7) + ENGLAND) == "x" * (MAX_NAME - 7) + ENGLAND
    for cut in range(1, 7):
        # The name's last characters are the flag's first: the black flag stays, alone.
        assert clean_name("x" * (MAX_NAME - cut) + ENGLAND) == "x" * (MAX_NAME - cut) + \
            BLACK_FLAG
    shown = echo("q" * 95 + ENGLAND)
    assert shown == "q" * 95 + BLACK_FLAG + "…"


@pytest.mark.parametrize("hostile, shown", [
    (tags("a") * 5000 + "x", "x"),
    (BLACK_FLAG + tags("a") * 5000 + CANCEL, BLACK_FLAG),
    ((BLACK_FLAG + tags("gb")) * 3000, BLACK_FLAG * MAX_NAME),
    (CANCEL * 5000, "Player"),
    (ENGLAND * 3000, ENGLAND * 4 + BLACK_FLAG),
])
def test_hostile_tag_runs_are_handled_quickly(hostile: str, shown: str) -> None:
    start = time.perf_counter()
    assert clean_name(hostile) == shown
    assert safe_name(hostile) == shown
    echo(hostile)
    assert time.perf_counter() - start < 1.0


async def test_the_table_and_the_record_keep_the_flag(world: World) -> None:
    dee = world.guild.add_member(world.env.create_user(f"{ENGLAND} dee" + tags("hidden")))
    result = await dee.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert result.acknowledged and not result.ephemeral
    accept = next(c for c in custom_ids(result.response) if c.endswith(":accept"))
    await submit_cut(world.bob, await world.bob.click(result.response, custom_id=accept))
    await flush(world)
    live = the_match(world)
    assert live.names[0] == f"{ENGLAND} dee"
    table = await table_message(world, live)
    assert table.embeds[0].title == f"Umtali · {ENGLAND} dee vs ben"
    assert world.bot.matches is not None
    saved = await world.bot.matches.store.match(live.id)
    assert saved is not None and saved.names[0] == f"{ENGLAND} dee"
