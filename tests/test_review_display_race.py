"""``/umtali display`` in one process soon after the member changed their look through another
(the command reaches whichever process its shard's is): what they choose now is saved, and
the half of their look they did not name stays as the other process saved it, not as this
process last read it (it reads again only at its next lease renewal)."""

from __future__ import annotations

from cogs.umtali.service import MatchService
from tests.discord_helpers import World
from tests.processes.helpers import main_of, via


async def _look(world: World, user_id: int) -> tuple[int, int]:
    found = await main_of(world).store.db.fetchone(
        "SELECT pictures, four_colour FROM member_prefs WHERE user_id = ?", (user_id,))
    assert found is not None
    return found["pictures"], found["four_colour"]


async def test_display_here_keeps_the_half_another_process_just_changed(
        world: World, other: MatchService) -> None:
    alice = world.alice
    with via(world, other):
        said = await alice.slash(world.channel, "umtali display", four_colour=True)
    assert said.ephemeral and "four-colour" in str(said.response.content)
    assert await _look(world, alice.id) == (1, 1)
    # Before the bot's own process reads that again, Alice turns pictures off through it.
    said = await alice.slash(world.channel, "umtali display", pictures=False)
    assert said.ephemeral and "text alone" in str(said.response.content)
    assert await _look(world, alice.id) == (0, 1), "the four colours chosen through p2 kept"
    await main_of(world).prefs.catch_up()
    await other.prefs.catch_up()
    assert (main_of(world).prefs.of(alice.id).pictures,
            main_of(world).prefs.of(alice.id).four_colour) == (False, True)


async def test_a_choice_this_process_thinks_is_already_made_is_saved_all_the_same(
        world: World, other: MatchService) -> None:
    alice = world.alice
    said = await alice.slash(world.channel, "umtali display", four_colour=True)
    assert said.ephemeral
    await other.prefs.catch_up()
    # Alice goes back to two colours through p2, then to four again through the bot's own
    # process, which has not read the change yet: her last choice is the one kept.
    with via(world, other):
        await alice.slash(world.channel, "umtali display", four_colour=False)
    assert await _look(world, alice.id) == (1, 0)
    said = await alice.slash(world.channel, "umtali display", four_colour=True)
    assert said.ephemeral and "four-colour" in str(said.response.content)
    assert await _look(world, alice.id) == (1, 1), "her last choice saved"
    await main_of(world).prefs.catch_up()
    assert main_of(world).prefs.of(alice.id).four_colour


async def test_the_answer_tells_the_look_as_saved_with_the_half_changed_elsewhere(
        world: World, other: MatchService) -> None:
    alice = world.alice
    with via(world, other):
        await alice.slash(world.channel, "umtali display", pictures=False)
    # Four colours chosen through the bot's own process, which has not read that pictures
    # are off: the answer says what her panels will show, text alone.
    said = await alice.slash(world.channel, "umtali display", four_colour=True)
    assert said.ephemeral and "text alone" in str(said.response.content), said.response.content
    assert await _look(world, alice.id) == (0, 1)
    assert not main_of(world).prefs.of(alice.id).pictures, "kept as saved"
