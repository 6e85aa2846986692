"""A practice session waiting for its cut can be cancelled by its player (**Cancel**, beside
**Cut the deck**), as a challenger withdraws a challenge: nothing was dealt, its seed goes, and
the player may ask for another at once (a level chosen by mistake no longer holds them for
the ten minutes until it expires). Anyone else's click cancels nothing."""

from __future__ import annotations

from tests.discord_helpers import World, custom_ids, flush
from tests.test_fair_cut import description


async def test_its_player_cancels_a_practice_waiting_for_its_cut(world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    offered = await world.alice.slash(world.channel, "umtali practice", level="hard")
    message = offered.response
    ids = custom_ids(message)
    [cut] = [c for c in ids if c.startswith("umtali:cut:") and not c.endswith(":cancel")]
    assert f"{cut}:cancel" in ids
    challenge_id = int(cut.split(":")[2])
    ch = await svc.store.challenge(challenge_id)
    assert ch is not None and ch.seed

    # Not someone else's to cancel: told so privately, the session still waits.
    other = await world.bob.click(message, custom_id=f"{cut}:cancel")
    assert other.ephemeral and "Only <@" in (other.response.content or "")
    still = await svc.store.challenge(challenge_id)
    assert still is not None and still.status == "open"

    cancelling = await world.alice.click(message, custom_id=f"{cut}:cancel")
    assert cancelling.acknowledged and not cancelling.ephemeral
    await flush(world)
    closed = await svc.store.challenge(challenge_id)
    assert closed is not None and closed.status == "cancelled"
    assert (closed.seed, closed.salt) == ("", "")  # nothing was dealt from it
    now = next(m for m in world.channel.history() if m.id == message.id)
    assert "cancelled this practice session" in description(now) and not custom_ids(now)

    assert svc.matches == {}
    # Another practice is offered at once, at the level now chosen.
    again = await world.alice.slash(world.channel, "umtali practice", level="easy")
    assert not again.ephemeral and custom_ids(again.response)
    fresh = [c for c in await svc.store.open_challenges() if c.computer_level is not None]
    assert [c.computer_level for c in fresh] == ["easy"]
