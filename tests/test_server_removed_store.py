"""The store's side of a server that removed the bot, on both backends: what it has in play,
and its ending, seen the same by a second process's store."""

from __future__ import annotations

from data.store import Store


async def _match(store: Store, guild_id: int, players: tuple[int, int]) -> int:
    return await store.create_match(
        guild_id=guild_id, channel_id=guild_id + 1, players=((players[0], "ada"),
                                                             (players[1], "ben")),
        variant="classic", turn_timer=300, state="{}", deadline=1000.0, now=100.0)


async def test_a_servers_matches_and_challenges_are_found_and_ended_once(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    kicked, kept = 10, 20
    first = await _match(one, kicked, (1, 2))
    await _match(one, kept, (1, 2))
    await one.create_challenge(guild_id=kicked, channel_id=11, challenger=(3, "cy"),
                               opponent=(4, "di"), variant="classic", optional_melding=False,
                               turn_timer=300, ttl=600, now=100.0)
    await one.create_challenge(guild_id=kept, channel_id=21, challenger=(3, "cy"),
                               opponent=(4, "di"), variant="classic", optional_melding=False,
                               turn_timer=300, ttl=600, now=100.0)
    assert await two.servers_in_play() == {kicked, kept}
    assert await two.active_matches_in(kicked) == [first]
    assert await one.withdraw_challenges_in(kicked) == 1
    assert await one.withdraw_challenges_in(kicked) == 0
    assert await one.abandon_match(first, "abandoned", 200.0, channel_lost=True) == []
    assert await two.abandon_match(first, "abandoned", 201.0, channel_lost=True) is None
    row = await two.match(first)
    assert row is not None and row.status == "finished" and row.channel_lost
    assert await two.active_match_of(kicked, 1) is None
    assert await two.active_matches_in(kicked) == []
    assert await two.servers_in_play() == {kept}
    assert [c.status for c in await two.open_challenges()] == ["open"]


async def test_an_ending_saved_with_its_panels_owed(stores: tuple[Store, Store]) -> None:
    """With its channel lost, nothing is left to announce: the redraw of its panels, saved
    with the ending, is what brings the match back to a process starting (``LIVE``)."""
    one, two = stores
    ended = await _match(one, 10, (1, 2))
    owed = '{"announce":false,"table":false,"hands":[0,1],"question":false}'
    assert await one.abandon_match(ended, "abandoned", 200.0, owner="a", lease_until=300.0,
                                   channel_lost=True, resend=owed) == []
    row = await two.match(ended)
    assert row is not None and row.status == "finished" and row.resend == owed
    assert row.channel_lost
    # Owed by its holder alone: sent, the holder clears it.
    assert await two.set_resend(ended, "", "a")
    row = await one.match(ended)
    assert row is not None and row.resend == ""
