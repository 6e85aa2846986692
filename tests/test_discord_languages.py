"""Each reader in their language, over the real discord.py path: a member's DM panel, My hand
panel and ephemeral answers in their client's language; the table, announcements and warnings
in the server's.

SimCord sends every interaction as ``en-US``; ``locales`` lets a test say which members' clients
are Russian (the ``locale`` Discord puts in each interaction). A server's language is its
preferred locale, as Discord gives it to the bot.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from simcord import Env

from cogs.umtali.commands import MAX_MOVE
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import (
    Clock,
    World,
    custom_ids,
    flush,
    play,
    player,
    start_match,
    table_message,
    thread_of,
)
from umtali.catalogue import extract
from umtali.moves import Move
from umtali.players import GreedyPlayer

ROOT = Path(__file__).resolve().parent.parent
#: The files whose messages these tests look for: the play path, and the engine's texts.
PLAY_PATH = ("umtali/", *(f"cogs/umtali/{name}" for name in (
    "actions.py", "play_panel.py", "hand_panels.py", "private.py", "panels.py", "delivery.py",
    "posting.py", "in_dms.py", "reminders.py",
    "clock.py", "computer.py", "live.py", "service.py", "showing.py", "render.py", "arrange.py",
    "pictures/", "outbox.py", "mentions.py", "saved.py")))
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


#: The typed moves' keywords: the one notation of both languages.
NOTATION = {"draw", "take", "meld", "extend", "discard", "down"}


def _english_phrases() -> list[re.Pattern[str]]:
    """Every English phrase of the play path's messages: the words between placeholders."""
    found: set[str] = set()
    for m in extract(ROOT):
        if not m.where.startswith(PLAY_PATH):
            continue
        for text in (m.id, m.plural or ""):
            for piece in re.split(r"\{[a-z_]+\}", text):
                piece = piece.strip(" .,:;!?()+·—-*`“”\n")
                # A phrase, or a word long enough not to be a card or a name by chance.
                # (a move's keyword alone is the notation, the same in every language)
                if piece in NOTATION:
                    continue
                if re.search(r"[A-Za-z]{3,} [A-Za-z]", piece) or re.fullmatch(r"[A-Za-z]{5,}",
                                                                               piece):
                    found.add(piece)
    return [re.compile(r"(?<![A-Za-z])" + re.escape(p) + r"(?![A-Za-z])") for p in found]


PHRASES = _english_phrases()


def english_in(texts: list[str]) -> list[str]:
    """The play path's English phrases found in ``texts``."""
    return sorted({p.pattern for t in texts for p in PHRASES if p.search(t)})


def russian_in(texts: list[str]) -> list[str]:
    return [t for t in texts if CYRILLIC.search(t)]


def texts_of(message: Any) -> list[str]:
    """Everything a member reads in a message: its text, embeds and components."""
    if message is None:
        return []
    out = [message.content or ""]
    for e in message.embeds:
        out += [e.title or "", e.description or "", e.footer.text or "" if e.footer else ""]
        out += [t for f in e.fields for t in (f.name or "", f.value or "")]
    for row in getattr(message, "components", []) or []:
        for c in (row.get("components", []) if isinstance(row, dict) else row.children):
            item = c if isinstance(c, dict) else c.to_dict()
            out += [item.get("label") or "", item.get("placeholder") or ""]
            out += [t for o in item.get("options", []) for t in (o.get("label", ""),
                                                                  o.get("description") or "")]
    return [t for t in out if t]


def history_texts(channel: Any) -> list[str]:
    return [t for m in channel.history() for t in texts_of(m)]


def _world(env: Env, clock: Clock, locale: str | None) -> World:
    guild = env.create_guild("Railway Club", preferred_locale=locale)
    channel = guild.create_text_channel("games")
    return World(env, guild, channel, guild.add_member(env.create_user("ada")),
                 guild.add_member(env.create_user("ben")),
                 guild.add_member(env.create_user("cy")), clock)


async def play_a_while(world: World, member: Any) -> tuple[LiveMatch, list[str], list[str]]:
    """Play a few turns of a timed match, with the answers ``member`` gets on the way (moves,
    a stale panel, a move out of turn, bad input): the match, what ``member`` read privately,
    and what a member outside the match was told when they asked for a hand."""
    live = await start_match(world, turn_timer=2)
    seat = live.seat_of(member.id)
    assert seat is not None
    thread = thread_of(world, live)
    svc = world.bot.matches
    assert svc is not None
    private: list[str] = []
    stale: list[str] = []
    turns = 0
    # Until it is the member's turn again: the turn warning below is theirs.
    while (turns < 8 or live.session.to_act != seat) and not live.over:
        acting = live.session.to_act
        if acting != seat:
            # Out of turn, and input that is not a move: short answers, nothing changes.
            for text in ("draw", "meld 5Z", "x" * MAX_MOVE):
                answer = await member.slash(thread, "umtali play", move=text)
                assert answer.ephemeral
                private += texts_of(answer.response)
        if acting == seat and not stale and live.session.view(seat).phase == "draw":
            # A click on a panel the match has moved on from (as a move saved by another
            # process would): the hand as it is now, with a note.
            dm = member.user.dm_channel.last_message
            draw = f"umtali:m:{live.id}:{live.version}:draw"
            assert draw in custom_ids(dm)
            assert (await svc.act(live, member.id, Move.draw(), live.version)).ok
            answer = await member.user.click(dm, custom_id=draw)
            assert answer.ephemeral
            stale = texts_of(answer.response)
            private += stale
        while live.session.to_act == acting and not live.over:
            if acting == seat:
                # The DM panel as it offers each move (it is edited as the turn goes).
                private += texts_of(member.user.dm_channel.last_message)
            result = await play(world, live, GreedyPlayer().choose(live.session.view(acting)))
            if acting == seat:
                private += texts_of(result.response)
            await flush(world)
        turns += 1
    assert stale
    # The My hand panel, the DM panel (every version of it sent), and the turn warning.
    table = await table_message(world, live)
    panel = await member.click(table, custom_id=f"umtali:m:{live.id}:hand")
    assert panel.ephemeral
    private += texts_of(panel.response)
    private += history_texts(member.user.dm_channel)
    assert live.deadline is not None
    await svc.check_timers(now=live.deadline - 30)
    await flush(world)
    assert f"<@{member.id}>" in thread.history()[-1].content  # the warning came
    # Someone else's hands are not theirs to see.
    other = await world.carol.click(table, custom_id=f"umtali:m:{live.id}:hand")
    assert other.ephemeral
    return live, private, texts_of(other.response)


async def test_a_russian_member_in_an_english_server(simcord_env: Env, clock: Clock,
                                                     locales: dict[int, str]) -> None:
    world = _world(simcord_env, clock, None)
    locales[world.bob.id] = "ru"
    locales[world.carol.id] = "ru"
    live, private, carol = await play_a_while(world, world.bob)
    thread = thread_of(world, live)

    assert private and not english_in(private), english_in(private)
    assert carol and not english_in(carol) and russian_in(carol) == carol
    # The table and the announcements: the server's English, whoever reads them.
    public = history_texts(thread)
    assert public and not russian_in(public), russian_in(public)
    assert english_in(public)  # the check above can see English
    # Ada's own panels stay English.
    ada = history_texts(player(world, live.seat_of(world.alice.id) or 0).user.dm_channel)
    assert ada and not russian_in(ada) and english_in(ada)


async def test_an_english_member_in_a_russian_server(simcord_env: Env, clock: Clock,
                                                     locales: dict[int, str]) -> None:
    world = _world(simcord_env, clock, "ru")
    locales[world.alice.id] = "ru"
    live, private, carol = await play_a_while(world, world.bob)
    thread = thread_of(world, live)

    assert private and not russian_in(private), russian_in(private)
    assert carol and not russian_in(carol)
    assert english_in(private)
    public = history_texts(thread)
    assert public and not english_in(public), english_in(public)
    assert russian_in(public)
    ada = history_texts(world.alice.user.dm_channel)
    assert ada and not english_in(ada), english_in(ada)
