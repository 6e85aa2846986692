"""A session's replay file and deals file name a member whose name shows nothing as the records
do ("Player …4821", «Игрок …4821»: tests/test_unnamed_in_records.py), in the reader's words,
and so does ``python -m umtali verify`` reading the deals file. Before, the replay's header read
"Player 1 (seat 0): Player 1" and the deals file the stored English "Player" ("Player (seat 1)
giving it up", in Russian too). SimCord, a real SQLite file."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from simcord import Env

from tests.discord_helpers import Clock, flush, start_match
from tests.test_records_discord import resign
from tests.test_unnamed_in_records import _word, blank_world
from umtali import cli


async def _files(world: Any, actor: Any, match_id: int) -> tuple[str, str, dict[str, Any]]:
    """What ``actor`` gets choosing the session in their history: the answer, the replay
    file's text and the deals file's data."""
    history = await actor.slash(world.channel, "umtali history")
    chosen = await actor.select(history.response, [str(match_id)],
                                custom_id=f"umtali:rp:{world.guild.id}")
    assert chosen.acknowledged and chosen.ephemeral
    replay, deals = chosen.response.attachments
    return (str(chosen.response.content), (await replay.read()).decode(),
            json.loads((await deals.read()).decode()))


def _verify(tmp_path: Path, deals: dict[str, Any], lang: str) -> str:
    path = tmp_path / f"deals-{lang}.json"
    path.write_text(json.dumps(deals, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    assert cli.main(["verify", "--lang", lang, str(path)], io.StringIO(), out) == 0
    return out.getvalue()


async def test_the_replay_and_deals_files_name_such_members_as_the_records_do(
        simcord_env: Env, clock: Clock, locales: dict[int, str], tmp_path: Path) -> None:
    world = blank_world(simcord_env, clock)
    locales[world.bob.user.id] = "ru"
    live = await start_match(world)
    assert live.salt
    seats = [world.alice.user.id if live.player_ids[s] == world.alice.user.id
             else world.bob.user.id for s in (0, 1)]
    await resign(world, world.alice, live)
    await flush(world)
    ada_seat = seats.index(world.alice.user.id)
    for actor, lang in ((world.alice, "en"), (world.bob, "ru")):
        said, text, deals = await _files(world, actor, live.id)
        names = [_word(seats[s], lang) for s in (0, 1)]
        assert f"{names[0]} vs {names[1]}" in said or f"{names[0]} — {names[1]}" in said, said
        header = [line for line in text.splitlines() if line.startswith("#")]
        first, second = ("Player 1 (seat 0)", "Player 2 (seat 1)") if lang == "en" else (
            "Игрок 1 (место 0)", "Игрок 2 (место 1)")
        assert f"# {first}: {names[0]}" in header and f"# {second}: {names[1]}" in header, \
            header
        assert deals["players"] == names, deals["players"]
        verdict = _verify(tmp_path, deals, lang)
        assert f"{names[ada_seat]} ({'seat' if lang == 'en' else 'место'} {ada_seat})" in \
            verdict, verdict
        for shown in (said, text, json.dumps(deals, ensure_ascii=False), verdict):
            assert "Player" not in shown.replace(names[0], "").replace(names[1], "")\
                .replace(first, "").replace(second, ""), shown
