"""Deals anyone can check: the commitment posted when a session starts, the reveal when it ends,
and the replay file that ``python -m umtali verify`` checks against both.

The seed alone decides every shuffle of a session. Before any card is dealt the channel gets
the SHA-256 of the seed and a secret salt (``umtali.fairness.commit``); when the session is
over, the seed and the salt themselves. A member with the replay file can then check that
every deal and stock rebuild came from the seed that was fixed before play began.
"""

from __future__ import annotations

import json

from umtali.fairness import commit
from umtali.i18n import Tr
from umtali.replay import from_session
from umtali.session import Session


def sealed_line(commitment: str, tr: Tr) -> str:
    return tr("Deals sealed: `{commitment}`, a fingerprint of this session's shuffles, fixed "
              "before any card is dealt. The seed behind it is shown when the session ends, "
              "so that anyone can check every deal.", commitment=commitment)


def reveal_line(session: Session, salt: str, commitment: str, tr: Tr) -> str:
    """Said only once the session is over: the seed foretells every deal."""
    assert session.over, "the seed of a session in play stays secret"
    return tr("Deals revealed: seed `{seed}`, salt `{salt}`, sealed as `{commitment}`. Check "
              "them with the session's replay file (`{history}`) and `python -m umtali "
              "verify`.", seed=session.seed, salt=salt, commitment=commitment,
              history="/umtali " + tr.ctx("command", "history"))


def verify_file(session: Session, names: tuple[str, str], salt: str) -> bytes:
    """The replay file with its commitment and reveal, for a finished session."""
    data = from_session(session, names, commit(session.seed, salt), salt)
    return json.dumps(data, ensure_ascii=False, indent=1).encode()


def verify_filename(match_id: int) -> str:
    return f"umtali-{match_id}-deals.json"
