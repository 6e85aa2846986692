"""fix119: a member's own look changed through the process that holds their match (here the
only one) redraws their panels there at once, off the interaction's path, not at the next
move: a newly seen locale, which no command of theirs answers on a panel. What the command
itself draws anew (the hand order chosen on a panel, ``/umtali display``) is drawn once, not
again beside it."""

from __future__ import annotations

from typing import Any

from tests.discord_helpers import World, accept, challenge, flush, start_match, table_message
from tests.test_review_prefs_processes import _dm, _hand_field

ENGLISH, RUSSIAN = "by suit", "по мастям"


def _edits(world: World, since: int, message: Any) -> int:
    """The bot's own edits of ``message`` (a DM panel) since request ``since``."""
    path = f"/channels/{message.channel.id}/messages/{message.id}"
    return sum(r.method == "PATCH" and r.path == path
               for r in world.env.http_requests[since:])


def _pane_edits(world: World, since: int) -> int:
    """Edits of an ephemeral panel through its interaction's token since request ``since``."""
    return sum(r.method == "PATCH" and r.path.startswith("/webhooks/")
               and r.path.endswith("/messages/@original")
               for r in world.env.http_requests[since:])


async def _my_hand(world: World, actor: Any, match_id: int) -> Any:
    live = world.bot.matches and world.bot.matches.matches[match_id]
    assert live
    opened = await actor.click(await table_message(world, live),
                               custom_id=f"umtali:m:{match_id}:hand")
    assert opened.ephemeral and opened.response is not None
    await flush(world)
    return opened.response


async def test_a_newly_seen_locale_redraws_the_panels_where_the_match_is_held(
        world: World, locales: dict[int, str]) -> None:
    live = await start_match(world)
    pane = await _my_hand(world, world.alice, live.id)
    panel = _dm(world.alice)
    assert _hand_field(panel)[0].endswith(ENGLISH)
    assert _hand_field(pane)[0].endswith(ENGLISH)
    since = len(world.env.http_requests)
    locales[world.alice.id] = "ru"
    seen = await world.alice.slash(world.channel, "umtali rules")
    assert seen.ephemeral
    await flush(world)
    assert _dm(world.alice).id == panel.id
    assert _hand_field(_dm(world.alice))[0].endswith(RUSSIAN), "the DM panel kept its look"
    assert _hand_field(pane)[0].endswith(RUSSIAN), "the open My hand panel kept its look"
    assert _edits(world, since, panel) == 1 and _pane_edits(world, since) == 1
    # Bob's own panel is left as it was.
    assert _hand_field(_dm(world.bob))[0].endswith(ENGLISH)
    # Seen again, nothing changed: nothing drawn again.
    since = len(world.env.http_requests)
    await world.alice.slash(world.channel, "umtali rules")
    await flush(world)
    assert _edits(world, since, panel) == 0 and _pane_edits(world, since) == 0


async def test_a_hand_order_chosen_on_the_dm_panel_is_drawn_once(world: World) -> None:
    live = await start_match(world)
    pane = await _my_hand(world, world.alice, live.id)
    panel = _dm(world.alice)
    since = len(world.env.http_requests)
    chose = await world.alice.user.select(panel, ["rank"], custom_id=f"umtali:m:{live.id}:order")
    assert chose.acknowledged
    await flush(world)
    assert _hand_field(_dm(world.alice))[0].endswith("by rank")
    assert _hand_field(pane)[0].endswith("by rank")
    # The DM panel by the answer to the click, the open panel by one edit: neither again.
    assert _edits(world, since, panel) == 0 and _pane_edits(world, since) == 1


async def test_a_display_choice_is_drawn_once(world: World) -> None:
    live = await start_match(world)
    await _my_hand(world, world.alice, live.id)
    panel = _dm(world.alice)
    assert panel.attachments
    since = len(world.env.http_requests)
    said = await world.alice.slash(world.channel, "umtali display", pictures=False)
    assert said.ephemeral
    await flush(world)
    assert _dm(world.alice).attachments == []
    assert _edits(world, since, panel) == 1 and _pane_edits(world, since) == 1


def _panel(actor: Any, live: Any) -> Any:
    seat = live.seat_of(actor.id)
    return next(m for m in actor.user.dm_channel.history()
                if m.id == live.dm_message_ids[seat])


async def test_a_hand_order_chosen_in_one_match_redraws_the_members_other_match(
        world: World) -> None:
    first = await start_match(world)
    # ada and ben on a second server too, another match of theirs held here.
    guild = world.env.create_guild("Chess Club")
    there = World(world.env, guild, guild.create_text_channel("games"),
                  guild.add_member(world.alice.user), guild.add_member(world.bob.user),
                  guild.add_member(world.carol.user), world.clock)
    assert world.bot.matches is not None
    result = await challenge(there, there.alice, there.bob)
    assert (await accept(there.bob, result.response)).acknowledged
    await flush(world)
    second = next(m for m in world.bot.matches.matches.values() if m.id != first.id)
    other = _panel(world.alice, second)
    assert _hand_field(other)[0].endswith("by suit")
    since = len(world.env.http_requests)
    chose = await world.alice.user.select(_panel(world.alice, first), ["rank"],
                                          custom_id=f"umtali:m:{first.id}:order")
    assert chose.acknowledged
    await flush(world)
    assert _hand_field(_panel(world.alice, first))[0].endswith("by rank")
    assert _hand_field(_panel(world.alice, second))[0].endswith("by rank"), \
        "the other match's DM panel kept its look"
    assert _edits(world, since, other) == 1
    # Bob's panels are left as they were.
    assert _hand_field(_panel(world.bob, second))[0].endswith("by suit")


async def test_a_panel_kept_remembers_the_look_it_was_drawn_in(
        world: World, monkeypatch: Any) -> None:
    """review113: the look a "My hand" panel is kept with is the one it was drawn in, not
    whatever another drawing for the seat set while it was on its way (which would make a
    later redraw in the new look think the panel shows it already)."""
    from cogs.umtali.hand_panels import panes
    from cogs.umtali.showing import Shown

    started = await start_match(world)
    assert world.bot.matches is not None
    live = world.bot.matches.matches[started.id]
    seat = live.seat_of(world.alice.id)
    assert seat is not None
    drawn_in = ("elsewhere", True, True, "rank")  # a look no drawing here gives
    real = Shown.drawn

    async def meanwhile(self: Shown) -> Shown:
        # Another drawing for the seat (a redraw beside a look change) while this one is on
        # its way: it marks the seat's look as its own.
        shown = await real(self)
        live.pane_look[seat] = drawn_in
        return shown

    monkeypatch.setattr(Shown, "drawn", meanwhile)
    await _my_hand(world, world.alice, live.id)
    monkeypatch.setattr(Shown, "drawn", real)
    pane = panes(world.bot).panes.get((live.id, seat))  # (its age read by SimCord's clock)
    assert pane is not None
    assert pane.look != drawn_in, "kept with a look it was not drawn in"
    assert pane.look == world.bot.matches.hand_seen(live, seat)
