"""fix137: ``/umtali-admin end-match match:`` on each backend: two admins ending the same match
at once through two processes (one ends it, the other finds it over), and the suggestions of
the server's matches in play (PostgreSQL's LIKE and casts too). SimCord, SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio

from cogs.umtali.admin_end import Ended, end_match
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, accept, challenge, flush, manager, start_match, the_match
from tests.processes.helpers import main_of, row, via


async def test_two_admins_at_once_through_two_processes(world: World,
                                                        other: MatchService) -> None:
    boss, chief = manager(world, "boss", "boss"), manager(world, "chief", "chief")
    live = await start_match(world)
    main = main_of(world)
    results = await asyncio.gather(
        end_match(main, world.guild.id, boss.user.id, match_id=live.id),
        end_match(other, world.guild.id, chief.user.id, match_id=live.id))
    ended = [r for r in results if isinstance(r, Ended)]
    assert len(ended) == 1 and results.count("over") == 1, results
    saved = await row(world, live.id)
    winner = boss.user.id if isinstance(results[0], Ended) else chief.user.id
    assert (saved["status"], saved["how"], saved["ended_by"]) == ("finished", "abandoned",
                                                                  winner)


async def test_the_suggestions_on_each_backend(world: World, other: MatchService) -> None:
    boss = manager(world, "boss", "boss")
    live = await start_match(world)
    with via(world, other):
        for typed, found in (("", [str(live.id)]), (f"#{live.id}", [str(live.id)]),
                             ("ADA", [str(live.id)]), ("%", []), ("_", []), ("\\", []),
                             ("9" * 40, []), ("-1", [])):
            offered = await boss.autocomplete(world.channel, "umtali-admin end-match",
                                              "match", typed)
            assert [c["value"] for c in offered] == found, (typed, offered)
    assert await other.store.in_play_in(world.guild.id + 1) == []


async def test_suggestions_for_hostile_text_and_cyrillic_names(world: World,
                                                               other: MatchService) -> None:
    """review124: a lone surrogate or a NUL typed failed the read (an ERROR, no answer: SQLite
    and PostgreSQL cannot take them); a Cyrillic name was found only in its stored case (the
    databases' LOWER lowers ASCII alone)."""
    boss = manager(world, "boss", "boss")
    boris = world.guild.add_member(world.env.create_user("Борис"))
    offered = await challenge(world, boris, world.bob)
    await accept(world.bob, offered.response)
    await flush(world)
    live = the_match(world)
    for typed in ("\ud800", "a\x00b", "\x00", "\ud800Бор"):
        found = await other.store.in_play_in(world.guild.id, typed)
        assert [m.match_id for m in found] in ([], [live.id]), typed
    with via(world, other):
        for typed in ("борис", "Борис", "БОРИС", "орис", "BEN"):
            offered = await boss.autocomplete(world.channel, "umtali-admin end-match",
                                              "match", typed)
            assert [c["value"] for c in offered] == [str(live.id)], (typed, offered)
