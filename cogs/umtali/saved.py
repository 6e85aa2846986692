"""A session as the store keeps it: its state with each move, and its result at the end."""

from __future__ import annotations

import json

import orjson

from data.models import Finish
from umtali.codec import session_to_json
from umtali.session import Session


def dumps(data: object) -> str:
    # orjson: the state is saved with every move, and this is several times faster than json.
    return orjson.dumps(data).decode()


def finish_of(session: Session) -> Finish:
    games = [*session.finished_games]
    # A session that played out keeps its last game in hand_scores too: count it once.
    if session.hand_scores and not (games and games[-1] is session.hand_scores):
        games.append(session.hand_scores)
    return Finish(
        winner_seat=session.winner,
        how=session.how,
        games_won=(session.games_won[0], session.games_won[1]),
        hand_scores=json.dumps([[list(h) for h in g] for g in games]),
    )


def saved_state(session: Session) -> str:
    """The session as saved with each move."""
    return dumps(session_to_json(session))
