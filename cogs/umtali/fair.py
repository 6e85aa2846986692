"""Deals anyone can check: the commitment posted when a session starts, the reveal when it ends,
and the deals file that ``python3 -m umtali verify`` checks against both.

The seed decides every shuffle of a session. Before any card is dealt the channel gets the
SHA-256 of the seed and a secret salt (``umtali.fairness.commit``): a challenge carries it from
the moment it is made, and the click that accepts it **cuts the deck** (its id, made by Discord,
which nobody can foresee, is played with the seed: ``umtali.seeds``), so that a seed tried
before committing could not be kept for favouring a seat (the cut posted being the click's:
players can check only its time, docs/FAIR_DEALS.md). When the
match is over,
the seed and the salt themselves: played out, resigned, timed out, and also abandoned or
cancelled part-way, for its hands were dealt all the same (``revealed``). A member with the
deals file can then check that every deal and stock rebuild came from the seed that was fixed
before play began.
"""

from __future__ import annotations

import json
from typing import Any

import discord

from cogs.umtali.names import defuse_links, defuse_mentions
from umtali.fairness import NO_RESULT, commit, hand_check
from umtali.i18n import Tr
from umtali.replay import from_session
from umtali.seeds import clicked, uncut
from umtali.session import Session

#: How many of a fingerprint's 64 hex digits a sentence says: enough to tell it from another,
#: few enough to hear (a screen reader spells all 64 out).
SHORT = 8


def short_form(commitment: str) -> str:
    """A fingerprint as a sentence names it: its first ``SHORT`` digits."""
    return commitment[:SHORT]


def in_full(commitment: str, tr: Tr) -> str:
    """A fingerprint whole, for checking, after the sentences that name it by its short form:
    on a line of its own, where a listener may skip it (and an eye copies it)."""
    return tr("The fingerprint in full:") + f"\n`{commitment}`"


def sealed_line(commitment: str, tr: Tr) -> str:
    return tr("Deals sealed: a fingerprint of this session's shuffles, beginning {short}, fixed "
              "before any card is dealt. The seed behind it is shown when the session ends, "
              "so that anyone can check every deal.", short=short_form(commitment)
              ) + " " + in_full(commitment, tr)


def sealed_above_line(commitment: str, tr: Tr) -> str:
    """``sealed_line`` said under an offer that carries the fingerprint whole already: named by
    its first digits, not given whole a second time in one message (review164)."""
    return tr("Deals sealed: the fingerprint above, beginning {short}. The seed behind it is "
              "shown when the session ends.", short=short_form(commitment))


def sealed_offer_line(commitment: str, tr: Tr) -> str:
    """On a challenge, from the moment it is made: the seed is fixed before the member who
    accepts cuts the deck (typing their cut, or with nothing typed, their click). To be copied:
    the message is edited at accept, so its "(edited)" mark proves nothing of this line. The
    fingerprint stands on a line of its own, where a listener may skip it (an eye copies it)."""
    fingerprint = f"`{commitment}`"
    return tr("Deals sealed: the fingerprint of this session's seed, fixed now (copy it: "
              "accepting edits this message):\n{fingerprint}\nAccepting cuts the deck: the "
              "cards come from the seed and what the accepting member types (or their click). "
              "The seed is shown at the end, so anyone can check every deal.",
              fingerprint=fingerprint)


def seats_line(first: int, second: int, tr: Tr) -> str:
    """On a challenge, before the deck is cut: the seats (``first``, ``second``: member ids),
    which the deals file lists by name. Said up front because the seats are the file's word:
    swapped once the seed and cut were known, the deals would still verify."""
    # In verify's words (docs/FAIR_DEALS.md), to hold one against the other; the file's order
    # is explained there, not in a newcomer's first message.
    return tr("Seats: <@{first}> seat 0 (draws first for dealer), <@{second}> seat 1.",
              first=first, second=second)


def practice_seats_line(tr: Tr) -> str:
    """``seats_line`` on a practice session: its player always takes seat 0."""
    return tr("Seats: you seat 0 (you draw first for dealer), the computer seat 1.")


def sealed_cut_line(commitment: str, tr: Tr) -> str:
    """On a practice session waiting for its player's cut (the fingerprint on its own line, as
    ``sealed_offer_line`` gives it)."""
    fingerprint = f"`{commitment}`"
    return tr("Deals sealed: the fingerprint of this session's seed, fixed now (copy it: this "
              "message changes when you cut the deck):\n{fingerprint}\nThe cards come from the "
              "seed and what you type at **{button}** (nothing typed: your click). The seed is "
              "shown at the end, so anyone can check every deal.",
              fingerprint=fingerprint, button=tr.ctx("button", "Cut the deck"))


def cut_line(name: str, cut: str, tr: Tr) -> str:
    """Said when the deck is cut: who cut it, and the cut: the text they typed (theirs, which
    they can hold against the file), or, with nothing typed, their click's id (the bot's
    word: Discord shows nobody that id)."""
    if not clicked(cut):
        return tr("{name} cut the deck: {cut}. The cards come from the sealed seed and this "
                  "cut, which they typed.", name=name, cut=shown_cut(cut))
    return tr("{name} cut the deck typing nothing: cut `{cut}`, their click's id as the bot "
              "received it. The cards come from the sealed seed and this cut.",
              name=name, cut=cut)


def shown_cut(cut: str) -> str:
    """A cut in a message: as code, shown as typed, markdown and mentions inert; a typed one
    holding a backtick (which would end the code) escaped instead. Escaped only: not made
    ``safe_text``'s ``visible``, which would collapse a run of spaces and draw a blank letter
    as a space, posting another cut than the one typed (``typed_cut`` let nothing hidden in)."""
    if "`" not in cut:
        return f"`{cut}`"
    return defuse_mentions(discord.utils.escape_markdown(defuse_links(cut)))


def revealed(commitment: str, over: bool, ended: str = "", dealt: bool = True) -> bool:
    """Whether a match's seed is shown: it was sealed, and the match is over (``over``: played
    to a result; ``ended``: ``abandoned`` or ``cancelled`` with no result) with cards dealt.

    A match cancelled before its table was posted (``dealt`` false) dealt no card anyone saw:
    there is nothing to check, and its seed, used for nothing else, stays unsaid."""
    if not commitment:
        return False  # a match from before deals were sealed
    return over or (ended in NO_RESULT and dealt)


def reveal_line(session: Session, salt: str, commitment: str, tr: Tr, ended: str = "",
                cut: str = "") -> str:
    """Said only once the match is over (``ended``: with no result, abandoned or cancelled):
    the seed foretells every deal. With the ``cut`` the session was played from, and the line
    that checks the seed against the commitment with nothing but standard tools (the project,
    which ``verify`` needs, is not everyone's to run)."""
    assert session.over or ended in NO_RESULT, "the seed of a session in play stays secret"
    history = "/umtali " + tr.ctx("command", "history")
    return _revealed(session, salt, commitment, tr, cut, history) + " " + tr(
        "Without the project, check the seed with standard tools: `{line}` prints the "
        "commitment.",
        line=hand_check(uncut(session.seed, cut), salt)) + " " + in_full(commitment, tr)


def _revealed(session: Session, salt: str, commitment: str, tr: Tr, cut: str,
              history: str) -> str:
    """The seed, salt, commitment and cut, and the check of every deal with the deals file."""
    if cut:
        return tr("Deals revealed: seed `{seed}`, salt `{salt}`, sealed as the fingerprint "
                  "beginning {short}, cut {cut}. Check them with the session's deals file "
                  "(`{history}`) and `python3 -m umtali verify`.",
                  seed=uncut(session.seed, cut), salt=salt, short=short_form(commitment),
                  cut=shown_cut(cut), history=history)
    return tr("Deals revealed: seed `{seed}`, salt `{salt}`, sealed as the fingerprint beginning "
              "{short}. Check them with the session's deals file (`{history}`) and `python3 -m "
              "umtali verify`.", seed=session.seed, salt=salt, short=short_form(commitment),
              history=history)


def verify_file(session: Session, names: tuple[str, str], salt: str, ended: str = "",
                cut: str = "") -> bytes:
    """The deals file with its commitment, reveal and ``cut``, for a finished session, or one
    that ended with no result (``ended``): its hands as far as they were played, and
    ``result`` saying how it ended, with no winner."""
    data: dict[str, Any]
    seed = uncut(session.seed, cut)
    if session.over:
        data = from_session(session, names, commit(seed, salt), salt, cut)
    else:
        assert ended in NO_RESULT, "the seed of a session in play stays secret"
        # The engine's file refuses a reveal for a session not over: the match is, though.
        data = from_session(session, names, commit(seed, salt), cut=cut)
        data["reveal"] = {"seed": seed, "salt": salt}
        data["result"] = {"winner": -1, "games_won": list(session.games_won), "how": ended}
    return json.dumps(data, ensure_ascii=False, indent=1).encode()


def verify_filename(match_id: int) -> str:
    return f"umtali-{match_id}-deals.json"
