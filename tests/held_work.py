"""Work for the thinking pool's workers that lasts until the test says (a file appears): a
worker kept busy for exactly as long as a test needs, however slow the machine."""

from __future__ import annotations

import time
from pathlib import Path


def until_released(release: str, limit: float = 30.0) -> None:
    """In a worker: wait until the file ``release`` exists (``limit`` seconds at most)."""
    ends = time.monotonic() + limit
    while not Path(release).exists() and time.monotonic() < ends:
        time.sleep(0.01)
