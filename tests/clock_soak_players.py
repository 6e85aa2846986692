"""The turn clock's soak (tests/test_clock_soak.py): its players' steps, made as members make
them (moves, whole turns, the time-up question answered or raced, resignations), each checked
against the clock's account."""

from __future__ import annotations

import asyncio
from typing import Any

from cogs.umtali.reminders import turn_of
from tests.clock_soak import SLACK
from tests.clock_soak_time import TimeSteps
from tests.discord_helpers import custom_ids, dm_panel, flush, table_message, thread_of
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer

#: The bot's answer when Discord failed the answer to an interaction.
FAILED = "Discord failed for a moment"
ACTIONS = {MoveKind.DRAW: "draw", MoveKind.TAKE: "take", MoveKind.TAKE_TWO: "take2"}


def said(result: Any) -> str:
    """What the bot answered an interaction with ('' for nothing)."""
    return str(result.response.content or "") if result.response is not None else ""


class PlayerSteps(TimeSteps):
    async def send(self, move: Move) -> Any:
        """``move`` made by the seat to act as a member makes it (``discord_helpers.play``)."""
        live = self.current()
        seat = live.session.to_act
        actor = self.actor(seat)
        prefix = f"umtali:m:{live.id}:{live.version}"
        if move.kind in ACTIONS and not live.dm_refused[seat]:
            result = await actor.user.click(dm_panel(actor, live, seat),
                                            custom_id=f"{prefix}:{ACTIONS[move.kind]}")
        elif live.channel_lost and move.kind is MoveKind.DISCARD:
            # Played in DMs: the discard on the DM panel, melds typed in another channel of
            # the server (``test_faults_channel._play_from_dms``).
            panel = dm_panel(actor, live, seat)
            self.check(f"{prefix}:discard" in custom_ids(panel),
                       f"the DM panel {panel.id} ({live.dm_message_ids}, shown "
                       f"{live.dm_shown}): {custom_ids(panel)}")
            result = await actor.user.select(panel, [str(move)],
                                             custom_id=f"{prefix}:discard")
        elif live.channel_lost:
            result = await actor.slash(self.world.channel, "umtali play", move=str(move))
        elif move.kind is MoveKind.DISCARD:
            table = await table_message(self.world, live)
            panel = await actor.click(table, custom_id=f"umtali:m:{live.id}:hand")
            for _ in range(5):
                if panel.response is not None and FAILED not in said(panel):
                    break
                # Its answer failed (a 5xx Discord was made to give): the player looks again.
                panel = await actor.click(table, custom_id=f"umtali:m:{live.id}:hand")
            self.check(panel.ephemeral and f"{prefix}:discard" in custom_ids(panel.response),
                       f"the hand panel: {said(panel)!r}")
            result = await actor.select(panel.response, [str(move)],
                                        custom_id=f"{prefix}:discard")
        else:
            result = await actor.slash(thread_of(self.world, live), "umtali play",
                                       move=str(move))
        self.world.moves += 1
        if self.world.moves % 20 == 0:
            # discord.py's views' 180 s timeouts wait in SimCord's time (``play``).
            await self.world.env.advance_time(181)
        return result

    async def move(self, whole_turn: bool) -> None:
        """The player to act makes a move (``whole_turn``: until their turn ends)."""
        live = self.current()
        seat = live.session.to_act
        if live.over or live.is_computer(seat) or not self.up:
            return
        self.lag = self.rng.choice([0.0, 0.0, 0.5, 2.5])
        self.say(f"{'turn' if whole_turn else 'move'} by seat {seat} (made {self.lag} s "
                 "before it arrives)")
        turn = turn_of(live)
        while True:
            account = self.account
            live = self.current()
            version, asking = live.version, live.deadline is None and live.asks_when_late()
            standing = [m.id for m in self.questions() if custom_ids(m)]
            move = GreedyPlayer().choose(live.session.view(seat))
            result = await self.send(move)
            await flush(self.world)
            live = self.current()
            answer = said(result)
            if live.version == version and (FAILED in answer or result.response is None):
                self.say(f"  {move}: its answer failed, not played")
                return
            if live.version == version:
                self.say(f"  {move}: refused ({answer[:60]})")
                self.check("ran out" in answer, f"the move {move} was refused: {answer!r}")
                self.fair("a move refused as late", late=0)
                return
            self.say(f"  {move}: played")
            self.check(live.asks_when_late() or self.overdue() < SLACK,
                       f"a move played {self.overdue():.1f} s past all it could be given")
            if live.over or turn_of(live) != turn:
                if live.over:
                    self.say(f"  ended: {live.session.how}")
                elif live.control.reserve > 0:
                    self.turn_ended(seat, account)
                self.observe()
                return
            if asking:
                self.afresh("back at the table")
                self.back(standing)
            if not whole_turn:
                return

    def back(self, standing: list[int]) -> None:
        """The absent player is back: the questions that stood say so, their buttons gone."""
        if self.step_no <= self.faulty_until:
            return
        for message in self.questions():
            if message.id in standing:
                self.check("is back at the table" in message.content
                           and not custom_ids(message),
                           f"the question withdrawn says {message.content!r}")

    def told(self, seat: int, since: set[int], text: str) -> None:
        """``seat`` was told ``text`` since (``since``: the ids of their DMs then), in a DM
        or, with the channel lost, on a new DM panel."""
        live = self.current()
        if self.step_no <= self.faulty_until or live.player_ids[seat] == self.closed:
            return
        new = [m for m in self.actor(seat).user.dm_channel.history() if m.id not in since]
        if live.channel_lost:
            self.check(any(m.id == live.dm_message_ids[seat] for m in new),
                       f"seat {seat} got no new panel: {[m.content for m in new]}")
        else:
            self.check(any(text in (m.content or "") for m in new),
                       f"seat {seat} was not told {text!r}: {[m.content for m in new]}")

    def dms(self, seat: int) -> set[int]:
        return {m.id for m in self.actor(seat).user.dm_channel.history()}

    async def turns(self) -> None:
        """A few turns played one after the other, a little time passing in each."""
        for _ in range(self.rng.randint(2, 6)):
            live = self.current()
            if live.over or live.deadline is None:
                return
            self.advance(self.rng.uniform(0, min(20.0, live.control.turn / 3)))
            await self.move(True)

    async def answer(self) -> None:
        """The waiting player answers the time-up question: claims, or keeps waiting; or the
        absent player tries to."""
        live = self.current()
        shown = [m for m in self.questions() if custom_ids(m)]
        if not shown or live.over:
            return
        question, absent = shown[-1], live.session.to_act
        claim = self.rng.random() < 0.5
        in_dm = question.channel.id == self.actor(1 - absent).user.dm_channel.id
        # The absent player tries too (not in the other's DMs, where they cannot).
        wrong = self.rng.random() < 0.15 and not in_dm
        who = self.actor(absent if wrong else 1 - absent)
        clicker = who.user if question.channel.id == who.user.dm_channel.id else who
        self.say(f"{'absent' if wrong else 'waiting'} player {'claims' if claim else 'waits'}")
        button = next(c for c in custom_ids(question) if c.endswith(":claim" if claim else
                                                                    ":wait"))
        before = self.dms(absent)
        result = await clicker.click(question, custom_id=button)
        await flush(self.world)
        live = self.current()
        answer = said(result)
        if wrong:
            self.check((FAILED in answer or result.response is None
                        or (result.ephemeral and "Only" in answer))
                       and not live.over,
                       f"the absent player answered: {answer!r}")
        elif claim:
            self.check(live.over and live.session.how == "timed out"
                       and live.session.winner == 1 - absent, f"the claim: {answer!r}")
            self.say("  claimed")
        else:
            self.check(not live.over and live.deadline is not None
                       and abs(live.deadline - (self.world.clock.now + live.control.turn))
                       < SLACK, f"keep waiting: {answer!r}, deadline {live.deadline}")
            self.afresh("keep waiting")
            self.told(absent, before, "keeps waiting for your move")

    async def race(self) -> None:
        """The waiting player's claim and the absent player's move at once: one wins.
        SimCord plays one click at a time: the move is run on what its click calls, the claim
        clicked (its answer edits the question)."""
        live = self.current()
        shown = [m for m in self.questions() if custom_ids(m)]
        if live.over or live.deadline is not None or not live.asks_when_late() or not shown:
            return
        absent, version = live.session.to_act, live.version
        move = GreedyPlayer().choose(live.session.view(absent))
        who = self.actor(1 - absent)
        clicker = who.user if shown[-1].channel.id == who.user.dm_channel.id else who
        claim_first = self.rng.random() < 0.5
        self.say(f"race: a claim and {move} ({'claim' if claim_first else 'move'} first)")
        button = next(c for c in custom_ids(shown[-1]) if c.endswith(":claim"))
        claim = clicker.click(shown[-1], custom_id=button)
        act = self.svc.act(live, live.player_ids[absent], move, version)
        if claim_first:
            clicked, moved = await asyncio.gather(claim, act)
        else:
            moved, clicked = await asyncio.gather(act, claim)
        await flush(self.world)
        live = self.current()
        self.say(f"  claim: {said(clicked)[:60]!r}; move: {moved.ok}")
        self.check(live.over is not moved.ok, f"claimed {live.over}, moved {moved.ok}")
        if moved.ok:
            if turn_of(live) == self.account.turn:
                self.afresh("back at the table")
            self.observe()

    async def resign(self) -> None:
        live = self.current()
        humans = [s for s in (0, 1) if not live.is_computer(s)]
        if live.over or not self.up:
            return
        seat = self.rng.choice(humans)
        self.say(f"seat {seat} resigns")
        who = self.actor(seat)
        ask = await who.slash(self.world.channel, "umtali resign")
        for _ in range(5):
            if ask.response is not None and FAILED not in said(ask):
                break
            ask = await who.slash(self.world.channel, "umtali resign")  # asks again
        yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
        await who.click(ask.response, custom_id=yes)
        await flush(self.world)
        live = self.current()
        self.check(live.over and live.session.how == "resigned"
                   and live.session.winner == 1 - seat, "the resignation")
