"""Replay files reviewed: the header's result reads as every other result does."""

from __future__ import annotations

import io
import json
import shlex
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.umtali.history import replay_text
from data.store import Store
from tests.discord_helpers import World, accept, challenge, flush, play_out, the_match
from tests.test_records import played
from tests.test_records_discord import resign
from umtali import cli
from umtali.i18n import tr_for
from umtali.seeds import uncut


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def test_the_replay_header_gives_the_winners_games_first(store: Store) -> None:
    # Seed 2: greedy play gives the second seat the session, 2 games to 0.
    match_id, session = await played(store, 2, ((1, "Ada"), (2, "Ben")))
    assert session.winner == 1 and session.games_won == [0, 2]
    match, line = await store.match(match_id), await store.records.session(match_id)
    assert match is not None and line is not None
    moves = await store.moves(match_id)
    text = replay_text(match, line, moves)
    # As the session's own announcement and its final card say it: "Ben wins 2-0".
    assert "# Result: Ben wins 2-0 in games, played out" in text.splitlines()
    russian = replay_text(match, line, moves, tr_for("ru"))
    assert "# Итог: побеждает Ben, 2:0 по партиям, доигран до конца" in russian.splitlines()


HOSTILE_CUT = "x; echo pwned $(id) `id` 'q\" >"


async def test_the_replay_command_is_safe_to_paste_whatever_the_cut(world: World) -> None:
    # The cut is typed by the accepting member, and the other player may paste the file's
    # command into a shell: the seed is one quoted word, nothing of it runs.
    result = await challenge(world, world.alice, world.bob)
    await accept(world.bob, result.response, typed=HOSTILE_CUT)
    await flush(world)
    live = the_match(world)
    assert live.cut == HOSTILE_CUT
    await play_out(world, live, moves=4)
    moves = [str(m) for m in live.session.moves]
    await resign(world, world.bob, live)
    history = await world.alice.slash(world.channel, "umtali history")
    chosen = await world.alice.select(history.response, [str(live.id)],
                                      custom_id=f"umtali:rp:{world.guild.id}")
    text = (await chosen.response.attachments[0].read()).decode()
    header = [line for line in text.splitlines() if line.startswith("#")]
    # The seed and the cut each on their own line, as the reveal names them.
    assert f"# Seed: {uncut(live.session.seed, live.cut)}" in header
    assert f"# Cut: {HOSTILE_CUT}" in header
    command = next(h for h in header if h.startswith("# Replay: ")).removeprefix("# Replay: ")
    words = shlex.split(command)
    assert words[:5] == ["python3", "-m", "umtali", "script", "--seed"]
    assert words[5] == live.session.seed and words[-2:] == ["<", f"umtali-{live.id}-replay.txt"]
    out = io.StringIO()
    assert cli.main([*words[3:-2], "--json"], stdin=io.StringIO(text), stdout=out) == 0
    assert json.loads(out.getvalue())["state"]["moves"] == moves


async def test_a_russian_replay_file_replays_in_russian(store: Store) -> None:
    # The file's comments are in its reader's language; its command gives the replay's answers
    # in that language too, whatever the terminal's (the default) is.
    match_id, _ = await played(store, 2, ((1, "Ada"), (2, "Ben")))
    match, line = await store.match(match_id), await store.records.session(match_id)
    assert match is not None and line is not None
    moves = await store.moves(match_id)
    header = [h for h in replay_text(match, line, moves, tr_for("ru")).splitlines()
              if h.startswith("#")]
    command = next(h for h in header if "python3 -m umtali script" in h)
    words = shlex.split(command.split(": ", 1)[1])
    assert words[-4:-2] == ["--lang", "ru"]
    english = [h for h in replay_text(match, line, moves).splitlines() if "umtali script" in h]
    assert shlex.split(english[0].split(": ", 1)[1])[-4:-2] == ["--lang", "en"]
    out = io.StringIO()
    text = replay_text(match, line, moves, tr_for("ru"))
    assert cli.main([*words[3:-2]], stdin=io.StringIO(text), stdout=out) == 0
    said = out.getvalue()
    assert said and all(word not in said for word in ("Hand ", "Score", "wins"))
