"""``hard`` plays the last hand of a game for the game: the same position, behind or ahead,
calls for another draw; a decided game, or an earlier hand, is played for points."""

from __future__ import annotations

from umtali import MoveKind, RuleSet, Session
from umtali.ai import stakes
from umtali.ai.coach import hint
from umtali.ai.hard import HardPlayer
from umtali.ai.normal import NormalPlayer
from umtali.ai.resume import player_seed, resumed
from umtali.i18n import EN, tr_for
from umtali.moves import Move
from umtali.players import Player


def last_hand(seed: int, moves: int) -> Session:
    """Session ``seed`` after ``moves`` moves: its first three hands played by ``normal`` in
    both seats, then the last by ``hard`` (playing for points) in seat 0 against ``normal``."""
    session = Session(RuleSet.english(), seed)
    players: list[Player] = [NormalPlayer(), NormalPlayer()]
    while session.hand_no < session.rules.hands_per_game:
        seat = session.to_act
        session.apply(players[seat].choose(session.view(seat)))
    players[0] = HardPlayer(player_seed(session, 0), for_the_game=False)
    while len(session.moves) < moves:
        seat = session.to_act
        session.apply(players[seat].choose(session.view(seat)))
    return session


def with_lead(session: Session, lead: int) -> None:
    """Seat 0 leads the game by ``lead`` before the hand in play."""
    session.hand_scores = [(lead, 0)] + [(0, 0)] * (len(session.hand_scores) - 1)
    session.hand._heading = None  # the views show the new scores


def choice(session: Session, for_the_game: bool = True) -> Move:
    """Seat 0's move, by a ``hard`` picked up now (knowing what it saw this hand)."""
    player = resumed(lambda seed: HardPlayer(seed, for_the_game=for_the_game), session, 0)
    return player.choose(session.view(0))


def test_behind_it_draws_where_ahead_it_takes_as_for_points() -> None:
    session = last_hand(27, 110)
    mine, theirs = session.game_scores()
    assert mine - theirs == -9
    view = session.view(0)
    assert view.hand_no == 4 and view.hand_points == (8, 26)
    assert {m.kind for m in view.legal_moves} == {MoveKind.DRAW, MoveKind.TAKE}
    # For points (and as ``hard`` plays every earlier hand), the top discard is taken.
    assert choice(session, for_the_game=False).kind is MoveKind.TAKE
    # Nine points behind in the game, and far behind in the hand: a card from the stock gives
    # a better chance of catching up.
    assert choice(session).kind is MoveKind.DRAW
    assert choice(session) == choice(session)  # restart-safe: the same view, the same move
    # Nine points ahead, the points' choice wins the game as often.
    with_lead(session, 9)
    assert choice(session).kind is MoveKind.TAKE
    # A game decided either way is played for points.
    for lead in (-stakes.OPEN_LEAD - 1, stakes.OPEN_LEAD + 20):
        with_lead(session, lead)
        assert choice(session).kind is MoveKind.TAKE
    with_lead(session, -9)
    assert choice(session).kind is MoveKind.DRAW


def test_a_game_is_won_on_its_total_and_a_tie_plays_on() -> None:
    assert [stakes.win_value(t) for t in (-3, 0, 1)] == [0.0, 0.5, 1.0]


def hard_now(session: Session) -> HardPlayer:
    """Seat 0's ``hard`` player picked up now, as the coach is given it."""
    player = resumed(lambda seed: HardPlayer(seed), session, 0)
    assert isinstance(player, HardPlayer)
    return player


def test_the_coach_says_a_move_is_for_the_game() -> None:
    session = last_hand(27, 110)
    view = session.view(0)
    advice = hint(view, hard_now(session))
    assert advice.move.kind is MoveKind.DRAW
    top = view.discard_pile[-1]
    assert top is not None
    # 9 behind before the hand, 8 to 26 in it: 27 behind as the game stands (review30: the
    # line said "you trail by 9 points", the panel's game score without this hand's melds).
    assert view.hand_points == (8, 26)
    assert EN(advice.reason) == (
        f"draw from the stock rather than take {top}: with this hand's melds so far you trail "
        "by 27 points, and this is the game's last hand: this wins the game more often")
    assert tr_for("ru")(advice.reason).startswith(
        f"возьмите карту из колоды, а не {top} из сброса: с учётом выложенного в этой раздаче "
        "вы отстаёте на 27 очков")
    # Ahead, the move is the one for points, and so is its reason.
    with_lead(session, 9)
    advice = hint(session.view(0), hard_now(session))
    assert advice.move.kind is MoveKind.TAKE
    assert "game" not in EN(advice.reason)
