"""The seats are announced before the deck is cut, on every challenge and practice offer: a
bot changed to cheat could otherwise swap them once it knew the seed and the cut (the file's
``players`` swapped still verifies), and nobody could tell. The announced order is the one the
match is played in and the one its deals file lists."""

from __future__ import annotations

import json
from typing import Any

from cogs.umtali.rules_text import PAGES, pages
from data.store import Limits
from tests.discord_helpers import (
    World,
    accept,
    challenge,
    cut,
    flush,
    manager,
    the_match,
    thread_of,
)
from tests.test_records_discord import resign
from umtali.fairness import verify
from umtali.i18n import tr_for
from umtali.replay import from_json


def _said(message: Any) -> str:
    return message.embeds[0].description or ""


async def _deals_file(world: World, actor: Any, match_id: int) -> dict[str, Any]:
    history = await actor.slash(world.channel, "umtali history")
    chosen = await actor.select(history.response, [str(match_id)],
                                custom_id=f"umtali:rp:{world.guild.id}")
    files = {a.filename: await a.read() for a in chosen.response.attachments}
    data: dict[str, Any] = json.loads(files[f"umtali-{match_id}-deals.json"])
    return data


def seats_line(first: int, second: int) -> str:
    return (f"<@{first}> draws first for dealer and takes seat 0, <@{second}> seat 1 (the "
            "order of the players in the deals file).")


async def test_a_challenge_announces_the_seats_the_match_and_its_file_keep(world: World) -> None:
    offered = await challenge(world, world.alice, world.bob)
    assert seats_line(world.alice.id, world.bob.id) in _said(offered.response)
    answer = await accept(world.bob, offered.response, "k3v9q")
    assert answer.acknowledged
    await flush(world)
    live = the_match(world)
    assert live.player_ids == (world.alice.id, world.bob.id)
    await resign(world, world.bob, live)
    data = await _deals_file(world, world.bob, live.id)
    assert data["players"] == ["ada", "ben"]  # as the challenge seated them
    reveal = data["reveal"]
    assert verify(live.commitment, reveal["seed"], reveal["salt"], from_json(data)).fair

    # A rematch turns the seats round, and says so the same way.
    world.clock.advance(Limits().challenge_cooldown)
    table = next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)
    asked = await world.alice.click(table, custom_id=f"umtali:rm:{live.id}")
    said = _said(asked.response)
    assert f"A rematch of session #{live.id}: the seats are turned round." in said
    assert seats_line(world.bob.id, world.alice.id) in said
    taken = await accept(world.bob, asked.response)
    assert taken.acknowledged
    await flush(world)
    assert the_match(world).player_ids == (world.bob.id, world.alice.id)


async def test_a_practice_offer_announces_the_seats(world: World) -> None:
    offered = await world.alice.slash(world.channel, "umtali practice")
    said = _said(offered.response)
    assert ("You draw first for dealer and take seat 0, the computer seat 1 (the order of the "
            "players in the deals file).") in said
    await cut(world, offered)
    assert the_match(world).player_ids[0] == world.alice.id


async def test_in_russian_too(world: World) -> None:
    await manager(world).slash(world.channel, "umtali-admin settings", language="ru")
    world.clock.advance(60)
    offered = await challenge(world, world.alice, world.bob)
    assert (f"При выборе сдающего карту сначала тянет <@{world.alice.id}>, место 0; "
            f"<@{world.bob.id}> — место 1 (в этом порядке игроки названы в файле раздач)."
            ) in _said(offered.response)


async def test_the_rules_page_says_to_copy_the_commitment_before_the_cut(world: World) -> None:
    # A player who only remembers where the commitment is cannot tell it was changed: the
    # challenge's message is edited at accept anyway.
    last = await world.carol.slash(world.channel, "umtali rules", page=len(PAGES))
    said = last.response.embeds[0].description or ""
    assert ("on its challenge before anyone accepts (copy it then: the message is edited when "
            "the challenge is accepted)") in said, said
    # In Russian, as a member whose client speaks it reads the page.
    said = pages(tr_for("ru"))[-1][1]
    assert "(скопируйте его сразу: когда вызов принимают, сообщение правится)" in said, said


async def test_the_offer_itself_says_to_copy_the_commitment(world: World) -> None:
    copy = "Copy it: this message is edited when the deck is cut."
    offered = await challenge(world, world.alice, world.bob)
    assert copy in _said(offered.response)
    practice = await world.carol.slash(world.channel, "umtali practice")
    assert copy in _said(practice.response)
    await manager(world).slash(world.channel, "umtali-admin settings", language="ru")
    world.clock.advance(60)
    offered = await challenge(world, world.bob, world.carol)
    assert ("Скопируйте его: когда колоду снимут, это сообщение изменится."
            in _said(offered.response))
