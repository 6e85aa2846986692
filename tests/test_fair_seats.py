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
    # In verify's words (review164: the file's order is explained in docs/FAIR_DEALS.md).
    return f"Seats: <@{first}> seat 0 (draws first for dealer), <@{second}> seat 1."


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
    assert "Seats: you seat 0 (you draw first for dealer), the computer seat 1." in said
    await cut(world, offered)
    assert the_match(world).player_ids[0] == world.alice.id


async def test_in_russian_too(world: World) -> None:
    await manager(world).slash(world.channel, "umtali-admin settings", language="ru")
    world.clock.advance(60)
    offered = await challenge(world, world.alice, world.bob)
    # Worded as verify words them, to be read side by side.
    assert (f"Места: место 0 — <@{world.alice.id}>, место 1 — <@{world.bob.id}> (жребий "
            "тянут, начиная с места 0).") in _said(offered.response)


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
    offered = await challenge(world, world.alice, world.bob)
    assert "(copy it: accepting edits this message):\n`" in _said(offered.response)
    # A practice session's player cuts the deck: said to them so.
    practice = await world.carol.slash(world.channel, "umtali practice")
    assert ("(copy it: this message changes when you cut the deck):\n`"
            in _said(practice.response))
    await manager(world).slash(world.channel, "umtali-admin settings", language="ru")
    world.clock.advance(60)
    offered = await challenge(world, world.bob, world.carol)
    assert ("(скопируйте его: при принятии вызова сообщение изменится):\n`"
            in _said(offered.response))
    world.clock.advance(60)
    practice = await world.alice.slash(world.channel, "umtali practice")
    assert ("(скопируйте его: когда вы снимете колоду, это сообщение изменится):\n`"
            in _said(practice.response))
