"""What a hand's result is worth: the chance of winning the game, not the points themselves.

A game is won on the total over its hands, so ten points matter little in a hand the player
leads by fifty, and decide everything in a last hand lost by five. The search scores a playout
by the rough chance that its result wins the game: a normal curve over the final lead, as wide
as the hands still to come may swing it.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from umtali.view import PlayerView

#: How far one hand moves the score difference (standard deviation, measured in self-play).
HAND_SWING = 20.0
#: The width left in the last hand: a nearly sharp line between winning and losing.
LAST_HAND_SWING = 4.0


class Stakes(NamedTuple):
    #: The player's game total minus the opponent's, over the hands already finished.
    lead: int
    #: Hands still to come after this one (0 in the last hand, and in hands after a tie).
    hands_after: int

    @staticmethod
    def of(view: PlayerView, hands_per_game: int) -> Stakes:
        mine, theirs = view.game_scores[view.seat], view.game_scores[1 - view.seat]
        return Stakes(mine - theirs, max(0, hands_per_game - view.hand_no))

    def value(self, hand_lead: float) -> float:
        """The chance of winning the game if this hand ends with the player ``hand_lead`` ahead."""
        spread = HAND_SWING * math.sqrt(self.hands_after) if self.hands_after else LAST_HAND_SWING
        return 0.5 * (1.0 + math.erf((self.lead + hand_lead) / (spread * math.sqrt(2.0))))
