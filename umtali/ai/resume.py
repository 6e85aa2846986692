"""A computer player picked up in the middle of a session, knowing what it knew before.

``normal`` and ``hard`` remember what the discard pile told them between their turns. A player
created anew (after a restart, or for each turn) would forget it and play another game than the
one it was playing; ``resumed`` shows the new player, in order, the views its seat was shown in
the hand in play and the moves it made, so it chooses exactly as an uninterrupted one would.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator

from umtali.ai.memory import Memory
from umtali.moves import Move
from umtali.players import Player
from umtali.session import Session
from umtali.view import PlayerView


def player_seed(session: Session, seat: int) -> str:
    """The seed of the computer in ``seat``: fixed for the session, so its game replays, and
    one-way: the session's seed would tell every deal, so the computer is given a hash of it
    and cannot know the cards it does not see, by construction."""
    text = f"umtali-computer-v1:{session.seed}:{seat}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def seat_history(session: Session, seat: int) -> Iterator[tuple[PlayerView, Move]]:
    """Each view ``seat`` acted on in the hand in play, with the move it made, oldest first.

    The session is replayed from its seed on a copy; only ``seat``'s views come out."""
    replica = Session(session.rules, session.seed, session.first_deal)
    current = (session.game, session.hand_no)
    for move in session.moves:
        mover = replica.to_act
        if mover == seat and (replica.game, replica.hand_no) == current:
            yield replica.view(seat), move
        replica.apply(move, mover)


def dealt_view(
    session: Session, seat: int, hand: tuple[int, int] | None = None
) -> PlayerView | None:
    """``seat``'s view of ``hand`` (game, hand number; the hand in play if not given) as dealt,
    when the opponent plays first and the pile shows a card they may take (a Russian deal's
    upcard): None otherwise. The seat saw that card before its first turn; its
    ``Memory.saw`` of this view tells it the opponent took it."""
    replica = Session(session.rules, session.seed, session.first_deal)
    current = (session.game, session.hand_no) if hand is None else hand
    for move in session.moves:
        if (replica.game, replica.hand_no) == current:
            break
        replica.apply(move, replica.to_act)
    if (replica.game, replica.hand_no) != current or replica.to_act == seat:
        return None
    view = replica.view(seat)
    return view if view.discard_pile else None


def resumed(make: Callable[[str], Player], session: Session, seat: int) -> Player:
    """A player from ``make`` (a level of ``LEVELS``) for ``seat``, caught up on the hand in
    play."""
    player = make(player_seed(session, seat))
    # Levels with a memory (``normal``, ``hard``) keep it in ``memory``; ``easy`` has none.
    memory = getattr(player, "memory", None)
    if isinstance(memory, Memory):
        for view, move in seat_history(session, seat):
            memory.witness(view, move)
    return player
