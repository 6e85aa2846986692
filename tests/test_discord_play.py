"""Whole sessions on Discord: played to a recorded result, refusals, DMs, restarts, secrecy."""

from __future__ import annotations

import asyncio
import json
import re
import string
from collections.abc import Callable
from functools import cache
from typing import Any

from bot import UmtaliBot
from tests.discord_helpers import (
    World,
    custom_ids,
    end_turn_on_dm,
    flush,
    play,
    play_out,
    player,
    start_match,
    table_message,
    thread_of,
)
from umtali.cards import CARDS, iter_cards
from umtali.hand import HandState
from umtali.i18n import languages, tr_for
from umtali.moves import Move
from umtali.players import GreedyPlayer
from umtali.text import ACCOUNT


async def test_a_full_session_is_played_and_recorded(world: World) -> None:
    live = await start_match(world)
    await play_out(world, live)
    assert live.over
    store = world.bot.matches.store if world.bot.matches else None
    assert store is not None
    [result] = await store.session_results(world.guild.id)
    assert result["winner_seat"] == live.session.winner
    assert result["how"] == "played out"
    assert (result["games_won0"], result["games_won1"]) == tuple(live.session.games_won)
    assert await store.moves(live.id) == [str(m) for m in live.session.moves]
    # The end is announced, and the table shows the result and, under it, the final card.
    thread = thread_of(world, live)
    assert "wins the session" in thread.history()[-1].content
    table = next(m for m in thread.history() if m.id == live.table_message_id)
    assert "wins" in (table.embeds[0].description or "")
    card = table.embeds[1].to_dict()
    w = live.session.winner
    won = live.session.games_won
    assert card.get("title") == f"Session over: {live.names[w]} wins {won[w]}-{won[1 - w]}"
    fields = {f["name"]: f["value"] for f in card.get("fields", [])}
    hands = await store.records.hands(live.id)
    games = fields["Games and hands (ada – ben)"].splitlines()
    assert len(games) == len({h.game for h in hands}) and " · ".join(
        f"{h.scores[0]}–{h.scores[1]}" for h in hands if h.game == 1) in games[0]
    # Ratings before and after, as the server's board shows them: the winner's went up.
    changes = await store.records.rating_changes(live.id)
    before, after = changes[w]
    assert after > before and f"{live.names[w]}: {round(before, 1)} → {round(after, 1)}" in \
        fields["Ratings"]
    # The seed and salt said once, in the last announcement (review164); the card says where.
    last = thread.history()[-1].content
    assert live.commitment in last and live.salt in last
    assert "the session's last announcement" in fields["Fair deals"]
    # Its buttons: a rematch and the replay file (the hand panel's button is gone).
    assert custom_ids(table) == [f"umtali:rm:{live.id}", f"umtali:rf:{world.guild.id}:{live.id}"]
    replay = await world.carol.click(table, custom_id=custom_ids(table)[1])
    assert replay.ephemeral and len(replay.response.attachments) == 2


async def test_refusals_change_nothing(world: World) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    seat = live.session.to_act
    actor, other = player(world, seat), player(world, 1 - seat)
    before = json.dumps(live.session.view(seat).legal_moves, default=str)
    version = live.version

    async def refused(result: Any, text: str) -> None:
        assert result.acknowledged and result.ephemeral
        assert result.response is not None and text in (result.response.content or "")
        assert live.version == version
        assert json.dumps(live.session.view(seat).legal_moves, default=str) == before

    await refused(await other.slash(thread, "umtali play", move="draw"), "not your turn")
    await refused(await actor.slash(thread, "umtali play", move="meld 2x 3d"), "not a card")
    await refused(await actor.slash(thread, "umtali play", move="jump"), "not a move")
    await refused(await world.carol.slash(thread, "umtali play", move="draw"),
                  "not playing a match")
    illegal = next(t for t in ("discard 2C", "discard KH", "discard 9S")
                   if Move.parse(t) not in live.session.legal_moves())
    await refused(await actor.slash(thread, "umtali play", move=illegal), "")
    table = await table_message(world, live)
    await refused(await world.carol.click(table, custom_id=f"umtali:m:{live.id}:hand"),
                  "not your match")


async def test_a_stale_dm_panel_is_brought_up_to_date(world: World) -> None:
    # Russian deal: the first turn starts with a draw, offered on the DM panel.
    live = await start_match(world, variant="russian")
    seat = live.session.to_act
    actor = player(world, seat)
    dm = actor.user.dm_channel.last_message
    draw = f"umtali:m:{live.id}:0:draw"
    assert draw in custom_ids(dm)
    # The match moves on without this panel hearing of it (as a move saved by another
    # process would): the panels are kept in step only by the bot's own answers.
    svc = world.bot.matches
    assert svc is not None
    assert (await svc.act(live, actor.id, Move.draw(), 0)).ok
    assert live.version == 1
    stale = await actor.user.click(dm, custom_id=draw)
    assert stale.ephemeral and stale.response is not None
    assert "moved on" in str(stale.response.content), stale.response.content
    assert live.version == 1
    # The DM panel itself is brought up to date (not a second panel sent beside it), and
    # works (review153).
    await flush(world)
    panel = next(m for m in actor.user.dm_channel.history() if m.id == dm.id)
    fresh = [c for c in custom_ids(panel) if c.startswith(f"umtali:m:{live.id}:1:")]
    assert fresh


async def test_a_turn_on_the_dm_panel_costs_three_calls_besides_the_answers(
        world: World) -> None:
    """Discord hears of a turn once it ends: its announcement, the table, and the opponent's
    panel. The mover's panel was updated by the answers to its own clicks."""
    live = await start_match(world, variant="russian")
    seat = live.session.to_act
    actor, other = player(world, seat), player(world, 1 - seat)
    dm = actor.user.dm_channel.last_message
    await flush(world)
    before = len(world.env.http_requests)
    drew = await actor.user.click(dm, custom_id=f"umtali:m:{live.id}:0:draw")
    assert drew.acknowledged and live.version == 1
    await flush(world)
    mid_turn = [(r.method, r.path) for r in world.env.http_requests[before:]
                if not r.path.startswith("/interactions")]
    assert mid_turn == []  # the middle of a turn: nothing

    await end_turn_on_dm(world, live, seat)  # melds (the rules may demand them), the discard
    await flush(world)
    calls = [(r.method, r.path) for r in world.env.http_requests[before:]
             if not r.path.startswith("/interactions")]
    thread, table = live.channel_id, live.table_message_id
    assert sorted(calls) == sorted([
        ("POST", f"/channels/{thread}/messages"),
        ("PATCH", f"/channels/{thread}/messages/{table}"),
        ("PATCH", f"/channels/{other.user.dm_channel.id}/messages/{live.dm_message_ids[1 - seat]}"),
    ]), calls
    # Both panels show the turn's end: the mover waits (only the layout menu), the opponent
    # may draw.
    assert custom_ids(actor.user.dm_channel.last_message) == [f"umtali:m:{live.id}:order"]
    assert f"umtali:m:{live.id}:{live.version}:draw" in custom_ids(
        other.user.dm_channel.last_message)


async def test_racing_clicks_apply_once(world: World) -> None:
    # SimCord lets one member click once at a time, so two clicks of the same button are raced
    # at the service that every click goes through.
    live = await start_match(world, variant="russian")
    svc = world.bot.matches
    assert svc is not None
    user = player(world, live.session.to_act).id
    first, second = await asyncio.gather(svc.act(live, user, Move.draw(), 0),
                                         svc.act(live, user, Move.draw(), 0))
    assert [first.ok, second.ok].count(True) == 1
    assert (first if not first.ok else second).stale
    assert live.version == 1
    assert await svc.store.moves(live.id) == ["draw"]
    await flush(world)


async def test_a_refused_dm_is_said_once_and_the_button_still_works(world: World) -> None:
    world.env.inject_error("POST", f"/channels/{world.bob.user.dm_channel.id}/messages",
                           status=403, code=50007, message="Cannot send messages to this user",
                           times=None)
    live = await start_match(world)
    seat_bob = live.seat_of(world.bob.id)
    assert seat_bob is not None and live.dm_refused[seat_bob]
    thread = thread_of(world, live)
    notices = [m for m in thread.history() if "can't send you direct messages" in m.content]
    assert len(notices) == 1
    await play_out(world, live, moves=12)
    notices = [m for m in thread.history() if "can't send you direct messages" in m.content]
    assert len(notices) == 1
    table = await table_message(world, live)
    panel = await world.bob.click(table, custom_id=f"umtali:m:{live.id}:hand")
    assert panel.ephemeral and panel.response.embeds[0].title.startswith("Your hand")


async def test_a_restart_mid_hand_loses_nothing(world: World,
                                                make_bot: Callable[[], UmtaliBot]) -> None:
    live = await start_match(world)
    await play_out(world, live, moves=15)
    state = live.session.view(0), live.session.view(1)
    old = world.bot
    new = make_bot()
    await world.env.restart_bot(new)
    assert world.bot is new and new.matches is not None
    restored = new.matches.matches[live.id]
    assert (restored.session.view(0), restored.session.view(1)) == state
    assert restored.table_message_id == live.table_message_id
    # Old panels and the table's button work on the new bot.
    table = await table_message(world, restored)
    seat = restored.session.to_act
    panel = await player(world, seat).click(table, custom_id=f"umtali:m:{restored.id}:hand")
    assert panel.ephemeral and panel.response.embeds
    await play_out(world, restored)
    assert restored.over
    results = await new.matches.store.session_results(world.guild.id)
    assert len(results) == 1
    del old




def _shape(template: str, **fields: str) -> str:
    """A message's pattern: its words as they are, each field the pattern given for it."""
    return "".join(re.escape(words) + ("" if name is None else fields[name])
                   for words, name, _, _ in string.Formatter().parse(template))


@cache
def _hand_end_shapes() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The hand-ended line (``text._hand_ended``) and an account under it
    (``text._hand_account``), in every language the bot speaks."""
    heads, accounts = [], []
    for tr in map(tr_for, languages()):
        some, number = ".+?", r"-?\d+"
        heads.append(_shape(tr("Hand {hand} over: {how}. Hand: {first}: {a} – {second}: {b}. "
                               "Game: {first}: {game_a} – {second}: {game_b}."),
                            hand=number, how=some, first=some, second=some, a=number,
                            b=number, game_a=number, game_b=number))
        held = "|".join([re.escape(tr("holds nothing")),
                         _shape(tr("holds {cards}"), cards=r"\S+(?: \S+)*")])
        accounts.append(re.escape(ACCOUNT) + _shape(tr("{name}: {points}; {held}."),
                                                    name=some, points=some, held=f"(?:{held})"))
    return re.compile("|".join(heads)), re.compile("|".join(accounts))


def without_accounts(body: Any) -> Any:
    """A message's body without the lines that show the hands of a hand just over: the
    accounts (at most one a seat) right under the hand-ended line, in their exact shape. Any
    other line is kept, an ordinary list item ("- ", as an account starts) too, so that a card
    shown on it is seen (before fix173 every "- " line was dropped)."""
    if not (isinstance(body, dict) and isinstance(body.get("content"), str)):
        return body
    head, account = _hand_end_shapes()
    kept: list[str] = []
    under = 0  # accounts still expected under the last hand-ended line
    for line in body["content"].split("\n"):
        if under and account.fullmatch(line):
            under -= 1
            continue
        under = 2 if head.fullmatch(line) else 0
        kept.append(line)
    return {**body, "content": "\n".join(kept)}


CARD_TEXT = re.compile(r"(10|[2-9AJQK])[♠♥♦♣]")


def _public_texts(message: Any) -> list[str]:
    texts = [message.content or ""]
    for e in message.embeds:
        texts += [e.title or "", e.description or "", (e.footer.text if e.footer else "") or ""]
        texts += [f"{f.name} {f.value}" for f in e.fields]
    for row in message.components:
        for c in row.children:
            texts.append(str(getattr(c, "label", "") or ""))
    return texts


async def test_no_public_message_names_a_card_in_a_hand(world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    # The draw for first dealer names two cards: it must be shown before any card is dealt
    # to a player (their hand sent by DM) or shown on a table.
    live = await start_match(world)
    requests = world.env.http_requests
    shown_at = [i for i, r in enumerate(requests)
                if "Draw for first dealer" in json.dumps(r.json or {}, ensure_ascii=False)]
    dealt_at = [i for i, r in enumerate(requests)
                if (r.method == "POST" and r.path == "/users/@me/channels")
                or ("Match " in json.dumps(r.json or {}, ensure_ascii=False)
                and r.method == "POST" and r.path.endswith("/messages"))]
    assert shown_at and dealt_at and shown_at[0] < dealt_at[0]
    public = {world.channel.id, live.channel_id}
    checked = len(world.env.http_requests)

    def scan(hand: HandState) -> int:
        """Check what the bot posted or edited publicly since the last scan; count it."""
        nonlocal checked
        in_hands = {str(CARDS[c]) for seat in (0, 1) for c in iter_cards(hand.hands[seat])}
        entries = world.env.http_requests[checked:]
        checked += len(entries)
        count = 0
        for r in entries:
            body = r.json or {}
            parts = r.path.strip("/").split("/")
            to_channel = (r.method in ("POST", "PATCH") and parts[0] == "channels"
                          and int(parts[1]) in public and "messages" in parts)
            # A public answer to a command (panel updates and ephemeral answers are private).
            data = body.get("data") or {} if isinstance(body, dict) else {}
            public_reply = (parts[0] == "interactions" and body.get("type") == 4
                            and not int(data.get("flags") or 0) & 64)
            if not (to_channel or public_reply):
                continue
            count += 1
            # A hand just over shows what each player held (the "▸" lines): it no
            # longer matters. Nothing else may.
            text = json.dumps(without_accounts(body), ensure_ascii=False)
            leaked = {x.group(0) for x in CARD_TEXT.finditer(text)} & in_hands
            assert not leaked, f"{sorted(leaked)} in public message: {text}"
        return count

    seen = scan(live.session.hand)
    while not live.over:
        # A move that ends a hand is announced with that hand's end: judge its messages by the
        # cards held when that hand ended (the next deal, made at once, is not what they show).
        # The live session is replaced, not changed, by a move: play it on a copy first.
        move = GreedyPlayer().choose(live.session.view(live.session.to_act))
        probe = live.session.copy()
        hand = probe.hand
        probe.apply(move)
        await play(world, live, move)
        await flush(world)
        seen += scan(hand)
    # A session's worth of turns: each posts an announcement and edits the table.
    assert seen > 120


async def test_private_panels_are_not_kept_after_they_are_sent(world: World) -> None:
    """Every ephemeral panel is answered by DynamicItems: discord.py must not keep its View
    (it would, with a timer, for 15 minutes: memory and collection time under load)."""
    import gc

    import discord

    def views() -> int:
        gc.collect()
        return sum(isinstance(o, discord.ui.View) for o in gc.get_objects())

    live = await start_match(world)
    before = views()
    await play_out(world, live, moves=30)
    # play() discards from an ephemeral "My hand" panel and melds with /umtali play.
    assert views() - before < 3
