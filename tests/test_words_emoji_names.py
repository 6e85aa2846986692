"""A zero-width joiner inside an emoji sequence (👨‍👩‍👧, 👨🏽‍💻, ❤️‍🔥) is part of the emoji: a
name keeps it, or the family shows as three people. Anywhere else it could only hide text, and
goes with the other invisible characters."""

from __future__ import annotations

import pytest

from cogs.umtali.names import clean_name, echo, safe_name
from tests.discord_helpers import World, custom_ids, flush, submit_cut, table_message, the_match

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"


@pytest.mark.parametrize("name", [
    FAMILY,
    "\U0001f468\U0001f3fd\u200d\U0001f4bb dev",  # a skin tone before the joiner
    "\u2764\ufe0f\u200d\U0001f525",  # the emoji presentation selector before it
    "\U0001f3c3\u200d\u2640\ufe0f runner",
])
def test_an_emoji_sequence_keeps_its_joiners(name: str) -> None:
    assert clean_name(name) == name
    assert safe_name(name) == name
    assert echo(name) == name


@pytest.mark.parametrize("name, shown", [
    ("a\u200db", "ab"),  # between letters
    ("\U0001f468\u200d\u200d\U0001f469", "\U0001f468\U0001f469"),  # a run
    ("\U0001f468\u200b\u200d\U0001f469", "\U0001f468\U0001f469"),  # beside a hidden one
    ("\u200dada\u200d", "ada"),  # at either end
    ("ada\u200d\U0001f468", "ada\U0001f468"),  # after a letter
    ("\u200d" * 40, "Player"),
])
def test_a_joiner_anywhere_else_goes(name: str, shown: str) -> None:
    assert clean_name(name) == shown


def test_a_joiner_left_last_by_the_cut_goes() -> None:
    assert clean_name("x" * 31 + FAMILY) == "x" * 31 + "\U0001f468"


async def test_the_table_shows_a_family_as_one_emoji(world: World) -> None:
    dee = world.guild.add_member(world.env.create_user(FAMILY + " dee"))
    result = await dee.slash(world.channel, "umtali challenge", opponent=world.bob)
    accept = next(c for c in custom_ids(result.response) if c.endswith(":accept"))
    await submit_cut(world.bob, await world.bob.click(result.response, custom_id=accept))
    await flush(world)
    live = the_match(world)
    table = await table_message(world, live)
    assert table.embeds[0].title == f"Umtali · {FAMILY} dee vs ben"
