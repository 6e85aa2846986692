"""The turn clock's soak (tests/test_clock_soak.py): its steps of time passing, up to and past
deadlines, through gateway outages, restarts and the bot standing still, and Discord failing
calls meanwhile."""

from __future__ import annotations

from cogs.umtali.clock import GRACE, gateway_back, gateway_lost
from cogs.umtali.clock_state import CONNECTING, LATE, worth_telling
from cogs.umtali.standing_still import judge_stood
from cogs.umtali.time_control import DAY, HOUR
from tests.clock_soak import Soak
from tests.discord_helpers import flush, thread_of


class TimeSteps(Soak):
    async def wait(self) -> None:
        """Time passes, up to the warning, the deadline, past it, or far past it."""
        live = self.current()
        now, deadline = self.world.clock.now, live.deadline
        # Past the deadline less often where that ends the session.
        ends = not live.asks_when_late()
        kind = self.rng.choices(["some", "warning", "deadline", "late", "far"],
                                [4, 2, 2, 0.4 if ends else 1, 0.2 if ends else 0.6])[0]
        if deadline is None or kind == "some":
            seconds = self.rng.uniform(1, 40)
        elif kind == "warning":
            seconds = deadline - live.control.warn_before - now + self.rng.uniform(-3, 3)
        elif kind == "deadline":
            seconds = deadline - now + self.rng.choice([-1, 0, 1, LATE - 0.5, LATE, LATE + 1])
        elif kind == "late":
            seconds = deadline - now + LATE + self.rng.uniform(0, 90)
        else:
            seconds = self.rng.uniform(0.5, 3) * (DAY if live.control.turn >= DAY else HOUR)
        seconds = max(0.5, seconds)
        self.say(f"wait {seconds:.1f} s ({kind})")
        self.advance(seconds)
        await self.tick()

    async def outage(self) -> None:
        """The gateway drops and comes back (or the bot is restarted meanwhile)."""
        length = self.rng.choice([self.rng.uniform(0.5, 4.5), self.rng.uniform(6, 200),
                                  self.rng.uniform(200, 3 * HOUR), self.rng.uniform(1, 3) * DAY])
        self.say(f"outage of {length:.1f} s")
        gateway_lost(self.svc, None)
        self.up = False
        ticks = sorted(self.rng.uniform(0, length) for _ in range(self.rng.randint(0, 2)))
        passed = 0.0
        for at in ticks:
            self.advance(at - passed)
            passed = at
            await self.tick()
        self.advance(length - passed)
        if self.rng.random() < 0.2:
            await self.restart()
            return
        await gateway_back(self.svc, None)
        self.up = True
        if length < CONNECTING:
            self.account.played += length  # a blip is not given back
        await flush(self.world)
        await self.tick()

    async def restart(self) -> None:
        """The bot stops (cleanly, or killed) and starts again after some time offline; its
        first check once it is connected, which may take a while."""
        live = self.current()
        offline = self.rng.choice([self.rng.uniform(0, 25), self.rng.uniform(30, 900),
                                   self.rng.uniform(1, 30) * HOUR])
        clean = self.rng.random() < 0.5
        connecting = self.rng.choice([0.0, 0.0, 2.0, 12.0])
        self.say(f"restart ({'clean' if clean else 'killed'}) after {offline:.1f} s offline, "
                 f"{connecting:.0f} s connecting")
        if self.timed():
            # At least a minute, or its own time if shorter, and (killed) what it had when
            # the bot was last noted alive.
            a = self.account
            a.grace = max(a.grace, a.played + min(GRACE, float(live.turn_timer)) - a.owed)
            if not clean:
                a.grace += self.since_alive()
        running = self.timed()
        if self.step_no <= self.faulty_until:
            # (a retry waiting, with no fault to come, is saved: ``matches.resend``)
            self.lost_edit = True
        # A deadline that would move by under a second is not saved again (a quick restart,
        # not worth a save): that second is the player's loss.
        quick = offline + (0.0 if clean else self.world.clock.now - self.last_alive[0]) < 1
        if clean:
            await self.svc.close()
        self.advance(offline, played=quick)
        seen = {m.id for m in thread_of(self.world, live).history()}
        again = self.make_bot()
        await self.world.env.restart_bot(again)
        self.up = True
        self.advance(connecting, played=connecting < CONNECTING)
        await self.tick()
        live = self.current()
        if running and worth_telling(offline, live) and not live.channel_lost and not live.over \
                and self.step_no > self.faulty_until:
            new = [m.content for m in thread_of(self.world, live).history()
                   if m.id not in seen]
            self.check(any("I was offline" in (t or "") for t in new),
                       f"{offline:.0f} s offline, not said: {new}")

    async def pause(self) -> None:
        """The bot stands still (its process paused, its loop blocked): the timers' loop
        wakes late, and its tick gives the time back first (``startup.run_timers``)."""
        length = self.rng.choice([self.rng.uniform(1, 4.5), self.rng.uniform(6, 600),
                                  self.rng.uniform(1, 30) * HOUR])
        self.say(f"the bot stands still {length:.1f} s")
        since = self.world.clock.now
        self.advance(length, played=length < CONNECTING)  # a blip is not given back
        state = self.svc.clock_state
        state.stood.append((since, self.world.clock.now))
        async with state.judging:
            await judge_stood(self.svc)
        await self.tick()

    def fault(self) -> None:
        """Discord fails the next posts (or edits) with a 5xx."""
        method, path = self.rng.choice([("POST", "/channels/*/messages"),
                                        ("PATCH", "/channels/*/messages/*"),
                                        ("POST", "/interactions/*/callback")])
        times = self.rng.choice([1, 1, 1, 2, 4])
        self.say(f"Discord fails the next {times} {method} {path}")
        self.faulty_until, self.failing_at = self.step_no + 1, self.step_no
        self.world.env.inject_error(method, path, status=503, times=times)
