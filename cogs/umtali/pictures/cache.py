"""A bounded LRU of finished PNGs, keyed by the scene they show.

A scene is exactly what a picture shows, so two equal scenes make the same bytes: a player
waiting for the opponent sees the same hand turn after turn, and panels are shown again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable


class PictureCache:
    def __init__(self, size: int = 512) -> None:
        self.size = size
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()
        # Pictures may be drawn in a thread as well as on the event loop.
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return found
            self.misses += 1
        made = make()
        with self._lock:
            self._items[key] = made
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return made

    def __len__(self) -> int:
        return len(self._items)

    @property
    def hit_rate(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0
