"""The other /umtali commands: resign, table, rules, settings, timers, autocomplete, errors."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import assert_error

from cogs.umtali.clock import WARN_BEFORE
from cogs.umtali.clock_state import LATE
from cogs.umtali.rules_text import PAGES
from tests.discord_helpers import (
    World,
    custom_ids,
    flush,
    play_out,
    player,
    start_match,
    table_message,
    thread_of,
)


def _content(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


async def test_resign_asks_to_confirm_then_gives_the_session_away(world: World) -> None:
    live = await start_match(world)
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert ask.ephemeral and "Resign the session?" in _content(ask)
    assert not live.over
    done = await world.alice.click(ask.response,
                                   custom_id=f"umtali:m:{live.id}:{live.version}:loss:resign")
    assert done.acknowledged
    await flush(world)
    assert live.over and live.session.winner == 1
    store = world.bot.matches.store if world.bot.matches else None
    assert store is not None
    [result] = await store.session_results(world.guild.id)
    assert result["how"] == "resigned" and result["winner_seat"] == 1
    assert "ada resigned" in thread_of(world, live).history()[-1].content
    # Both hands' DM panels show the end, with nothing left to press.
    for member in (world.alice, world.bob):
        dm = member.user.dm_channel.last_message
        assert custom_ids(dm) == [] and "wins" in (dm.embeds[0].description or "")
    # Both are free to play again (once the cooldown between challenges has passed).
    world.clock.advance(60)
    again = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert not again.ephemeral
    # The confirmation lost its button once used.
    assert custom_ids(ask.response) == []


async def test_resign_without_a_match(world: World) -> None:
    r = await world.carol.slash(world.channel, "umtali resign")
    assert r.ephemeral and "not playing" in _content(r)


async def test_table_is_posted_again_and_becomes_the_live_one(world: World) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    old = live.table_message_id
    # Someone outside the match gets a private snapshot: the live table stays where it was.
    peek = await world.carol.slash(thread, "umtali table")
    assert peek.ephemeral and peek.response is not None
    assert "snapshot" in (peek.response.embeds[0].description or "")
    # Its link is masked: a screen reader says its words, not the link's digits.
    url = f"https://discord.com/channels/{world.guild.id}/{thread.id}"
    assert f"[the live table]({url}/{old})." in (peek.response.embeds[0].description or "")
    assert custom_ids(peek.response) == []
    # It has no My hand button, so its footer sends nobody to one.
    assert peek.response.embeds[0].footer.text == f"Match {live.id}"
    assert live.table_message_id == old
    # A player in the match's thread moves the live table down to the new message ...
    r = await world.alice.slash(thread, "umtali table")
    assert not r.ephemeral and r.response is not None
    assert r.response.embeds[0].title.startswith("Umtali")
    assert "My hand" in (r.response.embeds[0].footer.text or "")
    assert live.table_message_id == r.response.id != old
    await flush(world)
    # ... and the old one loses its buttons and says where the live one is.
    [replaced] = [m for m in thread.history() if m.id == old]
    assert custom_ids(replaced) == []
    assert "moved" in (replaced.embeds[0].description or "")
    assert f"[the live table]({url}/{r.response.id})." in (replaced.embeds[0].description or "")
    before = replaced.embeds[0].to_dict()
    await play_out(world, live, moves=3)
    [new] = [m for m in thread.history() if m.id == live.table_message_id]
    assert custom_ids(new) and "Turn ends" in (new.embeds[0].description or "")
    assert next(m for m in thread.history() if m.id == old).embeds[0].to_dict() == before
    # A player asking elsewhere gets a snapshot too; the live table does not leave its thread.
    elsewhere = await world.alice.slash(world.channel, "umtali table")
    assert elsewhere.ephemeral and live.table_message_id == r.response.id
    nowhere = await world.carol.slash(world.channel, "umtali table")
    assert nowhere.ephemeral


async def test_rules_come_in_pages(world: World) -> None:
    first = await world.carol.slash(world.channel, "umtali rules")
    assert first.ephemeral and first.response is not None
    assert "Page 1 of" in first.response.embeds[0].footer.text
    last = await world.carol.slash(world.channel, "umtali rules", page=len(PAGES))
    assert last.response is not None and PAGES[-1][0] in last.response.embeds[0].title


async def test_settings_need_manage_server(world: World) -> None:
    # Without Manage Server, members do not see the command (tests/test_admin_commands.py).
    admin_role = world.guild.create_role("admin", permissions=__import__("discord").Permissions(
        manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[admin_role])
    ok = await boss.slash(world.channel, "umtali-admin settings", threads=False, turn_timer=0,
                          variant="russian")
    assert ok.ephemeral and "- Rules: Russian" in _content(ok) and "- Clock: off" in _content(ok)
    live = await start_match(world)
    assert live.session.rules.name == "russian" and live.deadline is None
    assert world.channel.threads == []  # threads are off: the match plays in the channel
    assert live.channel_id == world.channel.id


async def test_turn_timer_warns_then_forfeits(world: World) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    seat = live.session.to_act
    await svc.check_timers(now=live.deadline - WARN_BEFORE - 1)
    assert not live.warned
    await svc.check_timers(now=live.deadline - 30)
    await flush(world)
    thread = thread_of(world, live)
    assert "seconds left for your turn" in thread.history()[-1].content
    await svc.check_timers(now=live.deadline - 20)
    await flush(world)
    warnings = [m for m in thread.history() if "seconds left" in m.content]
    assert len(warnings) == 1
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    assert live.over and live.session.winner == 1 - seat
    [result] = await svc.store.session_results(world.guild.id)
    assert result["how"] == "timed out"
    assert "timed out" in thread.history()[-1].content


async def test_a_move_resets_the_turn_deadline(world: World) -> None:
    live = await start_match(world, turn_timer=1)
    first = live.deadline
    assert first is not None
    await play_out(world, live, moves=6)
    assert live.deadline is not None and live.deadline >= first


async def test_timers_resume_after_a_restart(world: World, make_bot: Any) -> None:
    live = await start_match(world, turn_timer=3)
    deadline = live.deadline
    new = make_bot()
    await world.env.restart_bot(new)
    restored = new.matches.matches[live.id]
    assert restored.deadline == deadline
    assert deadline is not None
    await new.matches.check_timers(now=deadline + LATE + 1)
    await new.matches.flush()
    assert restored.over
    results = await new.matches.store.session_results(world.guild.id)
    assert [r["how"] for r in results] == ["timed out"]


async def test_play_autocompletes_the_players_legal_moves(world: World) -> None:
    live = await start_match(world)
    seat = live.session.to_act
    actor = player(world, seat)
    thread = thread_of(world, live)
    choices = await actor.autocomplete(thread, "umtali play", "move", "")
    legal = [str(m) for m in live.session.legal_moves()]
    assert [c["value"] for c in choices] == legal[:25]
    some = await actor.autocomplete(thread, "umtali play", "move", "disc")
    assert all(c["value"].startswith("discard") for c in some)
    other = await player(world, 1 - seat).autocomplete(thread, "umtali play", "move", "")
    assert other == []


async def test_a_bug_gets_an_apology_and_a_logged_traceback(world: World,
                                                            caplog: pytest.LogCaptureFixture,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(svc.store, "record_move", broken)
    seat = live.session.to_act
    version = live.version
    legal = live.session.legal_moves()
    r = await player(world, seat).slash(thread_of(world, live), "umtali play", move=str(legal[0]))
    assert r.ephemeral and "Sorry, something went wrong" in _content(r)
    assert_error(world.env, contains="disk on fire")
    # The move was not kept: the match is as the database holds it.
    assert live.version == version and live.session.legal_moves() == legal
    for record in caplog.records:
        if "disk on fire" in str(record.exc_info) or "unhandled" in record.getMessage():
            record.expected = True
    assert any(custom_ids(m) for m in thread_of(world, live).history())


async def test_a_server_can_turn_pictures_off_for_all_its_matches(
        world: World, make_bot: Any) -> None:
    import discord

    admin_role = world.guild.create_role("admin", permissions=discord.Permissions(
        manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[admin_role])
    live = await start_match(world)
    table = await table_message(world, live)
    assert [a.filename for a in table.attachments] == ["table.png"]
    ok = await boss.slash(world.channel, "umtali-admin settings", pictures=False)
    assert ok.ephemeral and "- Pictures: off" in _content(ok)
    # The running match loses its pictures at the next turn's edit: the text stays.
    await play_out(world, live, moves=8)
    table = next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)
    assert table.attachments == [] and table.embeds[0].fields
    for member in (world.alice, world.bob):
        assert member.user.dm_channel.last_message.attachments == []
    # And it stays off after a restart.
    new = make_bot()
    await world.env.restart_bot(new)
    assert new.matches is not None and world.guild.id in new.matches.prefs.plain_guilds
