"""A stopping bot sends nothing new: what is unsent stays saved for the next start."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

from cogs.umtali.delivery import Delivery
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.service import MatchService


async def test_nothing_is_queued_once_delivery_is_closed() -> None:
    delivery = Delivery(cast(MatchService, SimpleNamespace(client=None)))
    await delivery.close()
    live = cast(LiveMatch, SimpleNamespace(id=7))
    delivery.enqueue(live, Batch(announce=True, table=True, hands={0, 1}))
    assert not delivery.tracked(7)
