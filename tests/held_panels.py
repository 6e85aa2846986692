"""DM panels (or ephemeral ones) whose drawing is held: a panel drawn while the match moves on
or ends, to test what its late edit does (``tests/test_ending_panel_*``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from cogs.umtali.service import MatchService
from cogs.umtali.showing import Shown

#: The longest a panel's drawing is held, in seconds.
HOLD_AT_MOST = 60.0


class HeldPanels:
    """Each DM panel (or ``maker``'s) made from now on waits, when drawn, until ``release``:
    all of them until ``stop`` (the ones drawn after go through), or with ``first_only`` the
    first alone."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, first_only: bool = False,
                 maker: str = "dm_panel") -> None:
        """``maker``: the service's method whose panels are held (``hand_shown``: the
        ephemeral panels)."""
        self.held: list[Shown] = []
        self._gate = asyncio.Event()
        self._holding = True
        panels: set[int] = set()
        real_drawn = Shown.drawn
        real_panel: Callable[..., Shown] = getattr(MatchService, maker)

        def dm_panel(svc: MatchService, *args: Any, **kwargs: Any) -> Shown:
            shown = real_panel(svc, *args, **kwargs)
            panels.add(id(shown))
            return shown

        async def held_drawn(shown: Shown) -> Shown:
            if self._holding and id(shown) in panels and not (first_only and self.held):
                self.held.append(shown)
                # Bounded: a test that fails before its release fails, it does not hang.
                await asyncio.wait_for(self._gate.wait(), HOLD_AT_MOST)
            return await real_drawn(shown)

        monkeypatch.setattr(MatchService, maker, dm_panel)
        monkeypatch.setattr(Shown, "drawn", held_drawn)

    def stop(self) -> None:
        """Panels made from now on are drawn at once; the held ones still wait."""
        self._holding = False

    def release(self) -> None:
        self._gate.set()
