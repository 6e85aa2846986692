"""A review charges a mistake once: a meld that only put another meld off, which the player
could still lay in the same turn, is not a mistake of its own."""

from __future__ import annotations

from umtali import Move, RuleSet, Session
from umtali.ai.coach import REVIEW_BUDGET, review
from umtali.ai.hard import HardPlayer
from umtali.ai.resume import player_seed
from umtali.view import PlayerView

# Session "rv-553" (English, optional melding), to the end of its second hand. On the first
# turn of that hand seat 0 melds K♠ K♦ K♣, then J♠ alone, where ``hard`` lays J♠ on J♣: the
# review said so of both melds, one mistake counted twice.
MOVES = (
    "meld 8S 9S 10S; discard 7H; draw; meld JH; extend 10H JH; meld JS; extend QS JS; "
    "extend 9H 10H; discard 9D; take; extend QH JH; discard 5H; draw; discard 10D; draw; "
    "discard 9D; draw; meld 2H 2D 2C; discard 4H; draw; extend 8H 9H; discard AC; draw; "
    "meld JC; discard 7D; draw; discard AS; draw; discard 8D; draw; meld 3S 3D 3C; meld 6S 6D; "
    "discard 4S down; draw; meld 5D 5C; meld JC; discard AH; draw; meld KS KD KC; meld JS; "
    "discard 6S; take; extend KH KS; meld 6S 7S 8S; discard QD; draw; extend 10S JS; "
    "discard 10D; draw; discard 3D; draw; extend 10C JC; discard AS; draw; meld 4H 5H 6H 7H; "
    "extend 9C 10C; discard 2H down; draw; extend 8C 9C; discard QH"
)


def test_a_meld_that_only_put_the_better_one_off_is_not_charged() -> None:
    session = Session(RuleSet.english(optional_melding=True), "rv-553")
    record: list[tuple[PlayerView, Move]] = []
    for text in MOVES.split("; "):
        if (session.game, session.hand_no) == (1, 2) and session.to_act == 0:
            record.append((session.view(0), Move.parse(text)))
        session.apply_text(text)
    assert (session.game, session.hand_no) == (1, 3)
    assert [str(m) for _, m in record[1:3]] == ["meld KS KD KC", "meld JS"]
    seed = player_seed(session, 0)
    found = review(record, seed, 3, REVIEW_BUDGET, HardPlayer(seed))
    charged = {m.at: m for m in found}
    # The lone J♠ is the mistake, charged where it was laid...
    assert charged[2].better == Move.parse("extend JS JC")
    # ...not at the kings, after which J♠ could still go on J♣.
    assert Move.parse("extend JS JC") in record[2][0].legal_moves
    assert 1 not in charged
