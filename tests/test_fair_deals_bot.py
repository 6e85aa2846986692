"""Deals anyone can check, through the bot: the commitment is posted before any card is dealt,
the seed and salt stay secret while the session is played, are revealed when it ends, and the
replay file from /umtali history verifies against them (and fails if one card is changed)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from cogs.umtali.saved import saved_state
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, play_out, start_match, start_practice, thread_of
from tests.test_records_discord import resign
from umtali.fairness import commit, verify
from umtali.replay import from_json
from umtali.rules import RuleSet
from umtali.session import Session

#: The bot's own seed source, before the tests' fixed seeds replace it.
REAL_NEW_SEED = MatchService.new_seed


def test_a_seed_is_128_secret_bits_that_a_session_can_save() -> None:
    seeds = {REAL_NEW_SEED(MatchService.__new__(MatchService)) for _ in range(50)}
    assert len(seeds) == 50
    assert all(re.fullmatch(r"[0-9a-f]{32}", s) for s in seeds)
    session = Session(RuleSet.english(), next(iter(seeds)))
    assert json.loads(saved_state(session))["seed"] == session.seed


def everything_said(world: World) -> str:
    """Every message anyone can read, public or private, as the members' clients hold it."""
    said = []
    for channel in [world.channel, *world.channel.threads,
                    *(m.user.dm_channel for m in (world.alice, world.bob, world.carol)
                      if m.user.dm_channel is not None)]:
        for message in channel.history():
            said.append(message.content or "")
            said += [json.dumps(e.to_dict(), ensure_ascii=False) for e in message.embeds]
    return "\n".join(said)


@pytest.fixture
def secret_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MatchService, "new_seed", REAL_NEW_SEED)


@pytest.mark.usefixtures("secret_seeds")
async def test_a_session_is_sealed_at_its_start_and_revealed_at_its_end(world: World) -> None:
    live = await start_match(world)
    seed, salt = live.session.seed, live.salt
    assert live.commitment == commit(seed, salt)
    saved = await world.bot.matches.store.match(live.id)  # type: ignore[union-attr]
    assert saved is not None and (saved.commitment, saved.salt) == (live.commitment, salt)
    # Sealed on the accepted challenge, before any card reached a player...
    challenge = next(m for m in world.channel.history() if m.embeds and
                     live.commitment in json.dumps(m.embeds[0].to_dict()))
    assert challenge is not None
    await play_out(world, live, moves=8)
    # ...and nothing anyone can read tells the seed or the salt while the session is on.
    during = everything_said(world)
    assert str(seed) not in during and salt not in during
    await resign(world, world.bob, live)
    revealed = [m.content for m in thread_of(world, live).history()
                if m.content and str(seed) in m.content]
    assert len(revealed) == 1 and salt in revealed[0] and live.commitment in revealed[0]

    # The replay file from the history checks out against the commitment and the reveal.
    history = await world.alice.slash(world.channel, "umtali history")
    chosen = await world.alice.select(history.response, [str(live.id)],
                                      custom_id=f"umtali:rp:{world.guild.id}")
    files = {a.filename: await a.read() for a in chosen.response.attachments}
    data: dict[str, Any] = json.loads(files[f"umtali-{live.id}-deals.json"])
    verdict = verify(live.commitment, seed, salt, from_json(data))
    assert verdict.fair and verdict.deals >= 1, verdict
    # One card of one deal changed (a card of the first hand swapped with the stock's top),
    # and the check says so.
    tampered = json.loads(json.dumps(data))
    deal = tampered["hands"][0]["deal"]
    deal["hands"][0][0], deal["stock"][0] = deal["stock"][0], deal["hands"][0][0]
    assert not verify(live.commitment, seed, salt, from_json(tampered)).fair


@pytest.mark.usefixtures("secret_seeds")
async def test_a_practice_session_is_sealed_too(world: World) -> None:
    live = await start_practice(world)
    assert live.commitment == commit(live.session.seed, live.salt)
    said = everything_said(world)
    assert live.commitment in said
    assert str(live.session.seed) not in said and live.salt not in said
