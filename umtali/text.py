"""Plain-words rendering of events and views, shared by the terminal and the logs."""

from __future__ import annotations

from collections.abc import Sequence

from umtali.cards import Card
from umtali.events import (
    DealerChosen,
    Discarded,
    DrewFromStock,
    Event,
    Extended,
    GameEnded,
    HandEnd,
    HandEnded,
    HandStarted,
    Melded,
    NoDraw,
    SessionEnded,
    StockReshuffled,
    TookDiscard,
    WentOut,
)
from umtali.melds import PlayKind
from umtali.view import PlayerView

_ARTICLE = {
    PlayKind.SEQUENCE: "a sequence",
    PlayKind.GROUP: "a group",
    PlayKind.MARRIAGE: "a marriage",
    PlayKind.JACK: "a lone jack",
    PlayKind.PAIR: "a pair",
}


def cards_text(cards: Sequence[Card | None]) -> str:
    return " ".join("🂠" if c is None else str(c) for c in cards)


def describe(event: Event, names: Sequence[str]) -> str:
    """One line for an event; give it ``event.for_seat(seat)`` when a seat will read it."""
    if isinstance(event, DealerChosen):
        rounds = "; ".join(f"{names[0]} {a}, {names[1]} {b}" for a, b in event.draws)
        return f"Draw for first dealer: {rounds}. {names[event.dealer]} deals first."
    if isinstance(event, HandStarted):
        extra = " (tie-break)" if event.tie_break else ""
        up = f"; {event.upcard} is turned up" if event.upcard is not None else ""
        return (
            f"Game {event.game}, hand {event.hand}{extra}: {names[event.dealer]} deals{up}."
        )
    if isinstance(event, DrewFromStock):
        seen = f" ({event.card})" if event.card is not None else ""
        return f"{names[event.player]} draws from the stock{seen}."
    if isinstance(event, TookDiscard):
        if not event.cards:
            what = "the top two discards" if event.count == 2 else "the top discard"
            return f"{names[event.player]} takes {what}."
        return f"{names[event.player]} takes {cards_text(event.cards)} from the discard pile."
    if isinstance(event, Melded):
        return (
            f"{names[event.player]} melds {cards_text(event.cards)}, "
            f"{_ARTICLE[event.kind]}, +{event.points}."
        )
    if isinstance(event, Extended):
        return (
            f"{names[event.player]} lays {event.card} on the meld with {event.target}, "
            f"+{event.points}."
        )
    if isinstance(event, Discarded):
        if event.face_down:
            shown = f" ({event.card})" if event.card is not None else ""
            return f"{names[event.player]} discards face down{shown}."
        return f"{names[event.player]} discards {event.card}."
    if isinstance(event, WentOut):
        return f"{names[event.player]} goes out! {names[1 - event.player]} has one last turn."
    if isinstance(event, StockReshuffled):
        return f"The stock is empty: {event.cards} cards of the discard pile become the new stock."
    if isinstance(event, NoDraw):
        return f"The stock is empty: {names[event.player]} plays the last turn without a draw."
    if isinstance(event, HandEnded):
        return _hand_ended(event, names)
    if isinstance(event, GameEnded):
        a, b = event.scores
        return (
            f"Game {event.game} to {names[event.winner]}, {a}-{b}. "
            f"Games: {names[0]} {event.games_won[0]}, {names[1]} {event.games_won[1]}."
        )
    if isinstance(event, SessionEnded):
        w = event.winner
        how = "" if event.how == "played out" else f" ({names[1 - w]} {event.how})"
        return (
            f"{names[w]} wins the session {event.games_won[w]}-{event.games_won[1 - w]}{how}."
        )
    return event.type


def _hand_ended(e: HandEnded, names: Sequence[str]) -> str:
    if e.reason is HandEnd.WENT_OUT:
        assert e.went_out is not None
        how = f"{names[e.went_out]} went out"
        if e.leftover:
            how += f" and scores {e.leftover} for cards left in {names[1 - e.went_out]}'s hand"
    elif e.reason is HandEnd.STOCK_EXHAUSTED:
        how = "the stock ran out a second time"
    else:
        how = "twelve turns passed with no progress"
    a, b = e.scores
    ga, gb = e.game_scores
    return (
        f"Hand {e.hand} over: {how}. Hand: {names[0]} {a}, {names[1]} {b}. "
        f"Game: {names[0]} {ga}, {names[1]} {gb}."
    )


def render_view(view: PlayerView, names: Sequence[str]) -> str:
    """The table as one seat sees it, for a terminal."""
    me, them = view.seat, 1 - view.seat
    lines = [
        f"Game {view.game}, hand {view.hand_no} ({view.rules}). Dealer: {names[view.dealer]}. "
        f"Games won: {names[0]} {view.games_won[0]}, {names[1]} {view.games_won[1]}.",
        f"Game score: {names[0]} {view.game_scores[0]}, {names[1]} {view.game_scores[1]}. "
        f"This hand: {names[0]} {view.hand_points[0]}, {names[1]} {view.hand_points[1]}.",
    ]
    for seat in (them, me):
        plays = [p for p in view.plays if p.player == seat]
        laid = "  ".join(f"[{cards_text(p.cards)}]" for p in plays) or "nothing yet"
        lines.append(f"{names[seat]}'s melds: {laid}")
    top = "empty"
    if view.discard_pile:
        top = "face down" if view.top_face_down else str(view.top_discard)
        if len(view.discard_pile) > 1 and not view.top_face_down:
            top += f" (then {view.discard_pile[-2]}; {len(view.discard_pile)} cards)"
    lines.append(
        f"Stock: {view.stock_size} cards. Discard pile: {top}. "
        f"{names[them]} holds {view.opponent_hand_size} cards."
    )
    lines.append(f"Your hand: {cards_text(view.hand)}")
    if view.went_out >= 0 and view.went_out != me:
        lines.append(f"{names[view.went_out]} went out: this is your last turn.")
    if view.must_meld:
        lines.append(f"You took two: meld {cards_text(view.must_meld)} this turn.")
    return "\n".join(lines)
