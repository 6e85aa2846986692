"""Driving matches through SimCord as two members would."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import discord
from simcord import Env
from simcord.actors import MemberActor

from bot import UmtaliBot
from cogs.umtali.live import LiveMatch
from data.store import Limits
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer, Player


class Clock:
    """The bot's wall clock in tests: real time at first, moved on by the tests."""

    def __init__(self) -> None:
        self.now = time.time()
        #: How far the wall clock was set (``step``) apart from the steady one (``ticks``).
        self.stepped = 0.0

    def __call__(self) -> float:
        return self.now

    def ticks(self) -> float:
        """The process's steady clock (``MatchService.ticks``): time moved on, not a clock
        set."""
        return self.now - self.stepped

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def step(self, seconds: float) -> None:
        """The wall clock set forward (or back) by ``seconds``: no time passed."""
        self.now += seconds
        self.stepped += seconds


@dataclass
class World:
    env: Env
    guild: Any
    channel: Any
    alice: Any
    bob: Any
    carol: Any
    clock: Clock
    #: Table messages found so far, by id (SimCord reads a message's live state by its id).
    tables: dict[int, Any] = field(default_factory=dict)
    moves: int = 0

    @property
    def bot(self) -> UmtaliBot:
        bot = self.env.bot
        assert isinstance(bot, UmtaliBot)
        return bot


def custom_ids(message: Any) -> list[str]:
    """The custom ids of a message's components (raw dicts or discord.py objects)."""
    out: list[str] = []
    rows = getattr(message, "components", []) or []
    for row in rows:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for c in children:
            cid = c.get("custom_id") if isinstance(c, dict) else getattr(c, "custom_id", None)
            if cid:
                out.append(cid)
    return out


def the_match(world: World) -> LiveMatch:
    assert world.bot.matches is not None
    live = [m for m in world.bot.matches.matches.values()]
    assert len(live) == 1
    return live[0]



def manager(world: World, name: str = "boss", role: str = "admin") -> Any:
    """A member of the server (``name``) with Manage Server, by a role of their own."""
    made = world.guild.create_role(role, permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user(name), roles=[made])

async def end_match_as(world: World, admin: Any, channel: Any = None, **options: Any) -> Any:
    """``/umtali-admin end-match`` by ``admin`` and, when it asks first (fix154), its **End
    it** clicked: the click's result (its response: the question replaced by what became of
    the match, or a private refusal); the command's own where it answered at once (no match,
    over, the admin's own)."""
    asked = await admin.slash(channel or world.channel, "umtali-admin end-match", **options)
    end = [c for c in custom_ids(asked.response) if c.startswith("umtali:end:")
           and c.endswith(":end")] if asked.response is not None else []
    if not end:
        return asked
    return await admin.click(asked.response, custom_id=end[0])


async def challenge(world: World, challenger: MemberActor, opponent: MemberActor,
                    **options: Any) -> Any:
    # Members do not challenge at machine speed: let the cooldown between challenges pass.
    world.clock.advance(Limits().challenge_cooldown)
    result = await challenger.slash(world.channel, "umtali challenge", opponent=opponent,
                                    **options)
    assert result.acknowledged and not result.ephemeral
    return result


async def start_match(world: World, **options: Any) -> LiveMatch:
    result = await challenge(world, world.alice, world.bob, **options)
    answer = await accept(world.bob, result.response)
    assert answer.acknowledged
    await flush(world)
    return the_match(world)


async def accept(actor: Any, message: Any, typed: str = "") -> Any:
    """``actor``'s click on the challenge ``message``'s Accept, and their submit of the cut's
    modal it opens (``typed``: the cut; none, the submit's id): the submit's result, or the
    click's if it opened no modal (a refusal)."""
    button = next(c for c in custom_ids(message) if c.endswith(":accept"))
    return await submit_cut(actor, await actor.click(message, custom_id=button), typed)


async def submit_cut(actor: Any, clicked: Any, typed: str = "") -> Any:
    """The cut's modal opened by ``clicked`` (a click's result) submitted by ``actor`` with
    ``typed``; ``clicked`` itself if the click opened no modal."""
    if clicked.modal is None:
        return clicked
    return await actor.submit_modal(clicked, {"cut": typed})


async def start_practice(world: World) -> LiveMatch:
    """ada starts a practice session against the computer (and cuts its deck); the computer's
    turns done."""
    result = await world.alice.slash(world.channel, "umtali practice")
    assert result.acknowledged and not result.ephemeral
    await cut(world, result)
    return the_match(world)


async def cut(world: World, offered: Any, actor: Any = None, typed: str = "") -> Any:
    """A practice session offered (``offered``: the command's or the click's result) cut by
    its player (ada unless ``actor``), with ``typed`` in the cut's modal: the session starts;
    the submit's result (the click's, if it opened no modal)."""
    message = offered.response
    button = next(c for c in custom_ids(message)
                  if c.startswith("umtali:cut:") and not c.endswith(":cancel"))
    who = actor or world.alice
    answer = await submit_cut(who, await who.click(message, custom_id=button), typed)
    assert answer.acknowledged
    await flush(world)
    return answer


async def flush(world: World) -> None:
    assert world.bot.matches is not None
    await world.bot.matches.computer_idle()
    await world.bot.matches.flush()
    await world.env.settle()


def player(world: World, seat: int) -> Any:
    return (world.alice, world.bob)[seat]


def thread_of(world: World, live: LiveMatch) -> Any:
    for t in world.channel.threads:
        if t.id == live.channel_id:
            return t
    return world.channel


async def play(world: World, live: LiveMatch, move: Move) -> Any:
    """Make ``move`` for the seat to act the way a player would: draws from the DM panel,
    melds with ``/umtali play``, discards from the table's "My hand" panel."""
    seat = live.session.to_act
    actor = player(world, seat)
    version = live.version
    prefix = f"umtali:m:{live.id}:{version}"
    if move.kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO) and \
            not live.dm_refused[seat]:
        dm = dm_panel(actor, live, seat)
        action = {MoveKind.DRAW: "draw", MoveKind.TAKE: "take", MoveKind.TAKE_TWO: "take2"}
        result = await actor.user.click(dm, custom_id=f"{prefix}:{action[move.kind]}")
    elif move.kind is MoveKind.DISCARD:
        table = await table_message(world, live)
        panel = await actor.click(table, custom_id=f"umtali:m:{live.id}:hand")
        assert panel.ephemeral, panel
        result = await actor.select(panel.response, [str(move)], custom_id=f"{prefix}:discard")
    else:
        result = await actor.slash(thread_of(world, live), "umtali play", move=str(move))
    assert result.acknowledged, result
    assert live.version >= version + 1, (move, result.response and result.response.content)
    world.moves += 1
    if world.moves % 20 == 0:
        # discord.py gives the View it rebuilds for each component click a 180 s timeout; in
        # SimCord's virtual time those wait for ever and slow every later click: let them end.
        await world.env.advance_time(181)
    return result


def dm_panel(actor: Any, live: LiveMatch, seat: int) -> Any:
    """The seat's DM panel: the last message of the DM, unless something came after it (a
    practice hand's review)."""
    messages = actor.user.dm_channel.history()
    return next((m for m in messages if m.id == live.dm_message_ids[seat]),
                actor.user.dm_channel.last_message)


async def table_message(world: World, live: LiveMatch) -> Any:
    assert live.table_message_id is not None
    if live.table_message_id not in world.tables:
        channel = thread_of(world, live)
        world.tables[live.table_message_id] = next(
            m for m in channel.history() if m.id == live.table_message_id)
    return world.tables[live.table_message_id]


async def play_out(world: World, live: LiveMatch, moves: int | None = None) -> None:
    """Play greedy moves for both seats until the session ends (or ``moves`` were made)."""
    made = 0
    while not live.over and (moves is None or made < moves):
        seat = live.session.to_act
        move = GreedyPlayer().choose(live.session.view(seat))
        await play(world, live, move)
        await flush(world)
        made += 1
    await flush(world)


def replayed_computer(live: LiveMatch) -> Player:
    """An uninterrupted hard player on the session's seed, having chosen every move of the
    computer's seat: each must be the move the match's computer made."""
    from umtali.ai import LEVELS
    from umtali.ai.resume import player_seed
    from umtali.session import Session

    seat = live.computer_seat
    assert seat is not None
    replica = Session(live.session.rules, live.session.seed)
    computer = LEVELS["hard"](player_seed(replica, seat))
    checked = 0
    for move in live.session.moves:
        mover = replica.to_act
        if mover == seat:
            assert computer.choose(replica.view(seat)) == move, (checked, move)
            checked += 1
        replica.apply(move, mover)
    assert checked > 20
    return computer


async def end_turn_on_dm(world: World, live: LiveMatch, seat: int) -> None:
    """The rest of the seat's turn played on its DM panel: the greedy melds (the rules may
    demand them), then its discard, each acknowledged and saved."""
    actor = player(world, seat)
    while live.session.to_act == seat:
        move = GreedyPlayer().choose(live.session.view(seat))
        dm = actor.user.dm_channel.last_message
        action = {MoveKind.MELD: "meld", MoveKind.EXTEND: "extend"}.get(move.kind, "discard")
        values = [c.code for c in move.card_list] if action == "meld" else [str(move)]
        version = live.version
        done = await actor.user.select(dm, values,
                                       custom_id=f"umtali:m:{live.id}:{version}:{action}")
        assert done.acknowledged and live.version == version + 1
