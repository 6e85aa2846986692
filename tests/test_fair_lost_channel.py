"""A session that ends with a result while it is played in DMs (its channel lost) reveals its
deals where its players are: on their DM panels, with the replay file a click away, as a match
that ends with no result does there. The reveal is otherwise said in the channel, on the
final card under the table, which such a match no longer has (docs/FAIR_DEALS.md)."""

from __future__ import annotations

from tests.discord_helpers import World, dm_panel, flush, player
from tests.time_control_helpers import played_in_dms


def _said(panel: object) -> str:
    return "\n".join(f"{e.description} {' '.join(str(f.value) for f in e.fields)}"
                     for e in getattr(panel, "embeds", []))


def _buttons(panel: object) -> list[str]:
    return [str(getattr(c, "label", "")) for row in getattr(panel, "components", [])
            for c in getattr(row, "children", [])]


async def test_a_session_ended_in_dms_reveals_its_deals_on_both_panels(world: World) -> None:
    live = await played_in_dms(world)
    svc = world.bot.matches
    assert svc is not None and live.commitment and live.salt
    await svc.resign(live, 0)
    await flush(world)
    assert live.over and not live.abandoned
    for seat in (0, 1):
        panel = dm_panel(player(world, seat), live, seat)
        said = _said(panel)
        assert "Deals revealed" in said and live.salt in said, (seat, said)
        assert _buttons(panel) == ["Session files"], seat


async def test_a_session_ended_in_dms_shows_the_ratings_on_both_panels(world: World) -> None:
    """The final card under the table says each player's rating before and after; a session
    played in DMs has no table: its panels say them."""
    live = await played_in_dms(world)
    svc = world.bot.matches
    assert svc is not None
    await svc.resign(live, 0)
    await flush(world)
    changes = await svc.store.records.rating_changes(live.id)
    assert sorted(changes) == [0, 1]
    for seat in (0, 1):
        said = _said(dm_panel(player(world, seat), live, seat))
        assert "Ratings" in said, (seat, said)
        for other, (before, after) in changes.items():
            # (a negative rating with a true minus sign)
            assert f"{live.names[other]}: {before:.1f} → {after:.1f}".replace("-", "\u2212") \
                in said, (seat, said)
