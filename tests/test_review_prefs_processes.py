"""A member's own choices saved through one process reach the matches another process holds
(a DM's click goes to shard 0's process, and a match is held by whichever process saved its
last move): their DM panels are drawn the new way within a renewal of the leases, as they are
in the process that saved the choice (docs/processes.md)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.pictures import HAND_FILE
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import greedy_via, main_of, row, settle
from tests.test_faults_owners import _fail_once
from umtali.moves import MoveKind


def _dm(actor: Any) -> Any:
    return actor.user.dm_channel.last_message


def _hand_field(message: Any) -> tuple[str, str]:
    field = next(f for f in message.embeds[0].fields if " · " in (f.name or ""))
    return field.name or "", field.value or ""


async def _turn_via(world: World, svc: MatchService, match_id: int) -> None:
    """One turn, drawn and discarded through ``svc``'s process (which then holds the match
    and draws both players' DM panels)."""
    while (await greedy_via(world, svc, match_id)).kind is not MoveKind.DISCARD:
        await settle(world, main_of(world), svc)
    await settle(world, main_of(world), svc)


async def _renewal(world: World, *services: MatchService) -> None:
    world.clock.advance(RENEW_EVERY)
    for svc in services:
        await svc.check_timers()


async def test_a_display_choice_saved_in_one_process_reaches_the_panels_another_draws(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await _turn_via(world, other, live.id)
    assert (await row(world, live.id))["owner"] == "p2"
    alice = world.alice
    assert [a.filename for a in _dm(alice).attachments] == [HAND_FILE]
    # Alice's command reaches the bot's own process, not the one holding her match.
    said = await alice.slash(world.channel, "umtali display", pictures=False)
    assert said.ephemeral and "text alone" in str(said.response.content), said.response.content
    await _renewal(world, main, other)
    for _ in range(2):  # both players' turns: each draws both DM panels anew
        await _turn_via(world, other, live.id)
        assert (await row(world, live.id))["owner"] == "p2"
        panel = _dm(alice)
        assert panel.attachments == [], "drawn by p2 with the picture Alice turned off"
        assert _hand_field(panel)[1], "the text stays"
    # Bob's panel keeps its picture.
    assert [a.filename for a in _dm(world.bob).attachments] == [HAND_FILE]


async def test_hand_order_and_language_seen_in_one_process_reach_another(
        world: World, other: MatchService, locales: dict[int, str]) -> None:
    live = await start_match(world)
    main = main_of(world)
    await _turn_via(world, other, live.id)
    alice = world.alice
    assert _hand_field(_dm(alice))[0].endswith("by suit")
    # Alice lays her hand out by rank from her DM panel, her client now in Russian: both
    # reach the bot's own process (shard 0 gets every DM).
    locales[alice.id] = "ru"
    chose = await alice.user.select(_dm(alice), ["rank"], custom_id=f"umtali:m:{live.id}:order")
    assert chose.acknowledged
    await settle(world, main, other)
    await _renewal(world, main, other)
    await _turn_via(world, other, live.id)
    assert (await row(world, live.id))["owner"] == "p2"
    name, _ = _hand_field(_dm(alice))
    assert name.endswith("по достоинству"), "drawn by p2 by rank, in Russian: " + name


async def test_a_failed_read_again_is_tried_at_the_next_renewal_with_a_warning(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world)
    main = main_of(world)
    await _turn_via(world, other, live.id)
    alice = world.alice
    said = await alice.slash(world.channel, "umtali display", pictures=False)
    assert said.ephemeral
    # The database fails p2's read once (busy, say): the leases are renewed all the same.
    _fail_once(monkeypatch, other.store, "prefs_changed_since")
    with caplog.at_level(logging.INFO):
        await _renewal(world, main, other)
        assert other.prefs.of(alice.id).pictures, "not read yet"
        await _renewal(world, main, other)
    assert not other.prefs.of(alice.id).pictures, "read at the next renewal"
    warned = [r for r in caplog.records if "could not be read again" in r.getMessage()]
    assert [r.levelno for r in warned] == [logging.WARNING]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await _turn_via(world, other, live.id)
    assert (await row(world, live.id))["owner"] == "p2"
    assert _dm(alice).attachments == []
