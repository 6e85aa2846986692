"""The coach in the terminal (``umtali.cli``): ``hint`` for the seat to act, and after each hand
against the computer a short review of the player's costliest moves, as ``hard`` judges them.

Both read only the player's own views of the hand, as on Discord. The terminal thinks in its
own process: the player waits for it (a few tenths of a second for a hint, some seconds for a
review).
"""

from __future__ import annotations

from collections.abc import Sequence

from umtali.ai.coach import REVIEW_BUDGET, hint, review
from umtali.ai.hard import HardPlayer
from umtali.ai.resume import dealt_view, player_seed, seat_history
from umtali.ai.review_words import review_words, turn_of
from umtali.cli_moves import move_text
from umtali.i18n import N_, Tr, sentence
from umtali.moves import Move
from umtali.session import Session
from umtali.view import PlayerView

#: After the in-game help: the coach's command (in English in every language, in Russian too).
COACH_HELP = N_("Type 'hint' for the move the hard computer would make, and why. Against the "
                "computer, at a terminal, each hand ends with a short review of your costliest "
                "moves.")


def hint_line(session: Session, seat: int, tr: Tr) -> str:
    """``hard``'s move for ``seat`` on its turn and why, ``hard`` having seen what the seat saw
    of the hand so far."""
    player = HardPlayer(player_seed(session, seat))
    # The pile as dealt too: the opponent may have taken its upcard before the seat's turn.
    dealt = dealt_view(session, seat)
    if dealt is not None:
        player.memory.saw(dealt)
    for view, move in seat_history(session, seat):
        player.memory.witness(view, move)
    view = session.view(seat)
    advice = hint(view, player)
    # As the player would type it (the terminal's ``discard KS`` of a last card is face down).
    return (tr("Hint: {move} (the hard computer's move).",
               move=move_text(advice.move, view.legal_moves, view, tr))
            + " " + sentence(tr(advice.reason)))


def review_lines(record: Sequence[tuple[PlayerView, Move]], game: int, hand: int, seed: str,
                 tr: Tr, budget: int = REVIEW_BUDGET, dealt: PlayerView | None = None,
                 ) -> list[str]:
    """The review of one hand: ``record`` holds the views the player acted on, with their
    moves; ``dealt``, the player's view of the hand as dealt (``resume.dealt_view``)."""
    found = review(record, seed, budget=budget, dealt=dealt)
    if not found:
        return [tr("Review of hand {hand} (game {game}): the hard computer finds no costly "
                   "mistake.", hand=hand, game=game)]
    lines = [tr("Review of hand {hand} (game {game}): the moves that cost you most, as the "
                "hard computer judges them:", hand=hand, game=game)]
    for line in review_words([(turn_of(record, m.at), m) for m in found]):
        lines.append("  " + " ".join(sentence(tr(t)) for t in line))
    return lines
