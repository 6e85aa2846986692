"""The rating model every ladder uses: openskill's Plackett-Luce.

``tau`` adds a little uncertainty before every rating, so a long-time player's rating keeps
moving with their results instead of freezing once the model is sure of them (openskill's
default, written here because the ladder depends on it).
"""

from __future__ import annotations

from typing import Final

from openskill.models import PlackettLuce

MODEL: Final = PlackettLuce(tau=25 / 300)
