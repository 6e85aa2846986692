"""A practice session is cut too: ``/umtali practice`` posts the commitment to its seed with a
**Cut the deck** button and deals nothing; its player's click is the cut and starts the
session (the draw for first dealer, then the table); anyone else's click is refused privately,
a second click starts nothing more (``test_fair_cut_race``), and an uncut practice expires
after ten minutes, freeing its player for another."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogs.umtali.challenge_expiry import expire_challenges
from cogs.umtali.challenges import CHALLENGE_TTL
from data.store import Limits
from tests.discord_helpers import World, custom_ids, flush, submit_cut
from tests.test_fair_cut import description, real_cuts  # noqa: F401  (a fixture)
from tests.test_fair_deals_bot import everything_said
from umtali.cards import CARDS
from umtali.fairness import commit


async def offered(world: World) -> tuple[Any, int, str]:
    """ada asks for a practice session: its message, its challenge id, its button."""
    r = await world.alice.slash(world.channel, "umtali practice", level="easy")
    assert r.acknowledged and not r.ephemeral
    [button] = [c for c in custom_ids(r.response)
                if c.startswith("umtali:cut:") and not c.endswith(":cancel")]
    return r.response, int(button.split(":")[2]), button


@pytest.mark.usefixtures("real_cuts")
async def test_a_practice_is_sealed_first_and_cut_by_its_player_alone(world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    message, challenge_id, button = await offered(world)
    ch = await svc.store.challenge(challenge_id)
    assert ch is not None and ch.computer_level == "easy"
    assert ch.commitment == commit(ch.seed, ch.salt)
    # Sealed on the message; nothing dealt, nobody playing yet; the seed nowhere.
    assert f"`{ch.commitment}`" in description(message)
    assert svc.matches == {} and await svc.store.active_match_of(world.guild.id,
                                                                 world.alice.id) is None
    said = everything_said(world)
    assert ch.seed not in said and ch.salt not in said

    # Someone else's click cuts nothing: told so, privately.
    other = await submit_cut(world.bob, await world.bob.click(message, custom_id=button))
    assert other.ephemeral and "Only <@" in (other.response.content or "")
    await flush(world)
    assert svc.matches == {}

    cutting = await submit_cut(world.alice, await world.alice.click(message, custom_id=button))
    assert cutting.acknowledged and not cutting.ephemeral
    await flush(world)
    [live] = svc.matches.values()
    click = cutting._interaction.id
    assert live.cut == str(click) and live.session.seed == f"{ch.seed}/{click}"
    assert live.commitment == ch.commitment and live.computer_level == "easy"
    saved = await svc.store.match(live.id)
    assert saved is not None and saved.cut == str(click)
    shown = description(next(m for m in world.channel.history() if m.id == message.id))
    assert f"cut `{click}`" in shown and ch.commitment in shown
    first = live.session.dealer_draws[0]
    assert f"ada {CARDS[first[0]]}, Computer (easy) {CARDS[first[1]]}" in shown
    assert live.table_message_id is not None
    said = everything_said(world)
    assert ch.seed not in said and ch.salt not in said
    assert not custom_ids(next(m for m in world.channel.history() if m.id == message.id))


async def test_an_uncut_practice_expires_and_frees_its_player(world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    message, challenge_id, _ = await offered(world)
    # One practice waits for its cut at a time.
    busy = await world.alice.slash(world.channel, "umtali practice")
    assert busy.ephemeral and "waiting for you to cut" in (busy.response.content or "")
    world.clock.advance(CHALLENGE_TTL + 1)
    await expire_challenges(world.bot)
    await flush(world)
    ch = await svc.store.challenge(challenge_id)
    assert ch is not None and ch.status == "expired" and (ch.seed, ch.salt) == ("", "")
    now = next(m for m in world.channel.history() if m.id == message.id)
    assert "expired: its deck was never cut" in description(now) and not custom_ids(now)
    assert svc.matches == {}
    # Free again: a new practice is offered, with a seal of its own.
    world.clock.advance(Limits().practice_cooldown)
    fresh = await world.alice.slash(world.channel, "umtali practice")
    assert not fresh.ephemeral and custom_ids(fresh.response)
    assert json.dumps(fresh.response.embeds[0].to_dict()) != json.dumps(
        message.embeds[0].to_dict())
