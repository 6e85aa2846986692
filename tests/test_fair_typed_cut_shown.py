"""A typed cut holding backticks cannot end the code it is shown in where the session's deals
are revealed (its last announcement: the final card names it, review164): a link or markdown of
the player's would be shown under the bot's name."""

from __future__ import annotations

import pytest

from cogs.umtali.fair import shown_cut
from tests.discord_helpers import World, flush, thread_of
from tests.test_fair_cut import accepted, offered, real_cuts  # noqa: F401  (a fixture)
from tests.test_records_discord import resign


@pytest.mark.usefixtures("real_cuts")
async def test_backticks_in_a_cut_cannot_end_the_code_on_the_final_card(world: World) -> None:
    typed = "x` [check](https://e.vl) `y"
    message, challenge_id = await offered(world)
    live, _ = await accepted(world, message, challenge_id, typed=typed)
    assert live.cut == typed
    await resign(world, world.bob, live)
    await flush(world)
    [fair] = [m.content for m in thread_of(world, live).history()
              if m.content and "Deals revealed" in m.content]
    assert live.commitment in fair
    assert f"`{typed}`" not in fair, fair  # its backticks would end the code: a live link
    assert f"cut {shown_cut(typed)}." in fair, fair
