"""Options shared by the player and admin commands."""

from __future__ import annotations

from discord import app_commands

VARIANTS = [
    app_commands.Choice(name="English (eleven-card deal, high card deals)", value="english"),
    app_commands.Choice(name="Russian (upcard deal, low card deals)", value="russian"),
]


def turn_seconds(minutes: int | None, default: int) -> int:
    """A turn timer option in seconds; Discord enforces 0..60, and so do we."""
    return default if minutes is None else max(0, min(60, minutes)) * 60
