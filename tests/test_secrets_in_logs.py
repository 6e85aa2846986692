"""The seeds stay out of the log, at any level: with ``UMTALI_LOG_LEVEL=DEBUG`` the log holds
neither an open challenge's nor a waiting practice's seed and salt, nor the seed a session in
play is dealt from (the database driver's DEBUG lines carried every statement's parameters)."""

from __future__ import annotations

import logging

import pytest

from tests.discord_helpers import World, challenge, custom_ids, flush, play_out
from tests.test_fair_cut import accepted, offered, real_cuts  # noqa: F401  (a fixture)


@pytest.mark.usefixtures("real_cuts")
async def test_no_seed_or_salt_is_logged_even_at_debug(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    svc = world.bot.matches
    assert svc is not None
    # carol's practice waits for its cut, her challenge to ada for an answer...
    practice = await world.carol.slash(world.channel, "umtali practice", level="easy")
    cut = next(c for c in custom_ids(practice.response) if c.startswith("umtali:cut:"))
    posted = await challenge(world, world.carol, world.alice)
    [answer] = [c for c in custom_ids(posted.response) if c.endswith(":accept")]
    # ...and ada plays ben, his click the cut.
    message, challenge_id = await offered(world)
    live, _ = await accepted(world, message, challenge_id)
    await play_out(world, live, moves=6)
    await flush(world)
    assert not live.over
    secrets = [str(live.session.seed), live.salt]
    for ch_id in (int(cut.split(":")[2]), int(answer.split(":")[2])):
        ch = await svc.store.challenge(ch_id)
        assert ch is not None and ch.status == "open" and ch.seed
        secrets += [ch.seed, ch.salt]
    assert any(r.levelno == logging.DEBUG for r in caplog.records)  # DEBUG is on
    logged = [r.getMessage() for r in caplog.records]
    assert not [(secret, line[:200]) for line in logged for secret in secrets
                if secret in line]
