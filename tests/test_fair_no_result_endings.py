"""The endings with no result that docs/FAIR_DEALS.md step 2 lists, followed as a player would:
a match ended by a server admin (``/umtali-admin end-match``) and a match whose server removed
the bot are revealed once dealt; the deals file (from ``/umtali history``, or, with the server
gone, from the Session files button of the player's DM panel) says ``abandoned`` with no winner,
and ``verify`` finds it FAIR, saying it ended with no result."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from tests.discord_helpers import (
    World,
    custom_ids,
    end_match_as,
    flush,
    manager,
    play_out,
    start_match,
)
from umtali.cli import main

NO_RESULT = ("The match ended with no result (abandoned): nobody won it, and its last hand "
             "stops where play stopped.")


def verified(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "umtali-deals.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    assert main(["verify", str(path)], io.StringIO(), out) == 0, out.getvalue()
    return out.getvalue()


async def _files(actor: Any, message: Any, custom_id: str, match_id: int) -> dict[str, Any]:
    chosen = await actor.user.click(message, custom_id=custom_id)  # in their DMs
    files = {a.filename: await a.read() for a in chosen.response.attachments}
    data: dict[str, Any] = json.loads(files[f"umtali-{match_id}-deals.json"])
    return data


async def test_a_match_ended_by_an_admin_is_revealed_and_verifies(world: World,
                                                                   tmp_path: Path) -> None:
    live = await start_match(world)
    await play_out(world, live, moves=6)
    ended = await end_match_as(world, manager(world), match=str(live.id))
    assert ended.acknowledged
    await flush(world)
    for actor in (world.alice, world.bob):
        history = await actor.slash(world.channel, "umtali history")
        chosen = await actor.select(history.response, [str(live.id)],
                                    custom_id=f"umtali:rp:{world.guild.id}")
        files = {a.filename: await a.read() for a in chosen.response.attachments}
        data = json.loads(files[f"umtali-{live.id}-deals.json"])
        assert data["result"]["how"] == "abandoned" and data["result"]["winner"] == -1
        out = verified(tmp_path, data)
        assert NO_RESULT in out and out.rstrip().endswith(
            "FAIR: the cards came from the seed committed to before play."), out


async def test_a_match_whose_server_removed_the_bot_is_revealed_on_the_dm_panels(
        world: World, tmp_path: Path) -> None:
    live = await start_match(world)
    await play_out(world, live, moves=6)
    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()
    await flush(world)
    button = f"umtali:rf:{world.guild.id}:{live.id}"
    for actor in (world.alice, world.bob):
        panel = next(m for m in actor.user.dm_channel.history()
                     if m.embeds and m.embeds[0].footer.text == f"Match {live.id}")
        said = json.dumps([e.to_dict() for e in panel.embeds], ensure_ascii=False)
        assert "Deals revealed" in said and live.commitment in said
        assert button in custom_ids(panel)
        data = await _files(actor, panel, button, live.id)
        assert data["result"]["how"] == "abandoned" and data["result"]["winner"] == -1
        assert NO_RESULT in verified(tmp_path, data)
