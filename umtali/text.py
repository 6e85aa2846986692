"""Plain-words rendering of events and views, shared by the terminal and the logs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from umtali.cards import CARDS, Card
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
from umtali.i18n import EN, N_, Tr
from umtali.melds import PlayKind
from umtali.moves import Move, MoveKind, going_out
from umtali.rules import worded
from umtali.view import PlayerView

_ARTICLE = {
    PlayKind.SEQUENCE: N_("a sequence"),
    PlayKind.GROUP: N_("a group"),
    PlayKind.MARRIAGE: N_("a marriage"),
    PlayKind.JACK: N_("a lone jack"),
    PlayKind.PAIR: N_("a pair"),
}


def cards_text(cards: Sequence[Card | None]) -> str:
    return " ".join("🂠" if c is None else str(c) for c in cards)


def describe(event: Event, names: Sequence[str], tr: Tr = EN, glue: str = " ") -> str:
    """One line for an event; give it ``event.for_seat(seat)`` when a seat will read it.
    ``glue`` joins a new meld's cards (``GLUE`` for Discord: a phone never wraps inside one;
    a space for the terminal and the logs)."""
    if isinstance(event, DealerChosen):
        rounds = "; ".join(f"{names[0]} {a}, {names[1]} {b}" for a, b in event.draws)
        return tr("Draw for first dealer: {rounds}. {name} deals first.", rounds=rounds,
                  name=names[event.dealer])
    if isinstance(event, HandStarted):
        game, hand, dealer = event.game, event.hand, names[event.dealer]
        hand_no = tr("{hand} (tie-break)", hand=hand) if event.tie_break else str(hand)
        if event.upcard is not None:
            return tr("Game {game}, hand {hand}: {name} deals; {card} is turned up.",
                      game=game, hand=hand_no, name=dealer, card=event.upcard)
        return tr("Game {game}, hand {hand}: {name} deals.", game=game, hand=hand_no,
                  name=dealer)
    who = names[getattr(event, "player", 0)]
    if isinstance(event, DrewFromStock):
        if event.card is not None:
            return tr("{name} draws from the stock ({card}).", name=who, card=event.card)
        return tr("{name} draws from the stock.", name=who)
    if isinstance(event, TookDiscard):
        if not event.cards:
            return (tr("{name} takes the top two discards.", name=who) if event.count == 2
                    else tr("{name} takes the top discard.", name=who))
        return tr("{name} takes {cards} from the discard pile.", name=who,
                  cards=cards_text(event.cards))
    if isinstance(event, Melded):
        return tr("{name} melds {cards}, {kind}, +{points}.", name=who,
                  cards=glue.join(str(c) for c in event.cards), kind=tr(_ARTICLE[event.kind]),
                  points=event.points)
    if isinstance(event, Extended):
        return tr("{name} lays {card} on the meld with {target}, +{points}.", name=who,
                  card=event.card, target=event.target, points=event.points)
    if isinstance(event, Discarded):
        if event.face_down:
            if event.card is not None:
                return tr("{name} discards face down ({card}).", name=who, card=event.card)
            return tr("{name} discards face down.", name=who)
        return tr("{name} discards {card}.", name=who, card=event.card)
    if isinstance(event, WentOut):
        if event.ends_hand:
            # The other went out first: this was the last turn, and nothing is carried over.
            return tr("{name} goes out too: the hand ends.", name=who)
        return tr("{name} goes out! {other} has one last turn.", name=who,
                  other=names[1 - event.player])
    if isinstance(event, StockReshuffled):
        return tr.plural(
            "The stock is empty: {count} card of the discard pile becomes the new stock.",
            "The stock is empty: {count} cards of the discard pile become the new stock.",
            event.cards)
    if isinstance(event, NoDraw):
        return tr("The stock is empty: {name} plays the last turn without a draw or a take.",
                  name=who)
    if isinstance(event, HandEnded):
        return _hand_ended(event, names, tr)
    if isinstance(event, GameEnded):
        # The winner's score first, as the session's line says it ("B, 105-95", not the
        # seats' order "95-105", which read as the other winning); the games in the seats'
        # order, each figure after its name and a colon, as the table shows them ("Player 1
        # 0 – 0 Player 2" ran a name's digit into its score).
        w = event.winner
        return tr("Game {game} to {name}, {a}-{b}. Games: {first}: {won_a} – {second}: {won_b}.",
                  game=event.game, name=names[w], a=event.scores[w], b=event.scores[1 - w],
                  first=names[0], won_a=event.games_won[0], second=names[1],
                  won_b=event.games_won[1])
    if isinstance(event, SessionEnded):
        w = event.winner
        # The score is the translator's to write (Russian: "2:1", as its games' scores).
        a, b = event.games_won[w], event.games_won[1 - w]
        if event.how == "played out":
            return tr("{name} wins the session {a}-{b}.", name=names[w], a=a, b=b)
        how = tr(HOW.get(event.how, event.how))
        if a <= b:
            # Ended before its winner led (a resignation at 0-0, or 0-1): no "wins 0-1".
            return tr("{name} wins the session ({other} {how}).", name=names[w],
                      other=names[1 - w], how=how)
        return tr("{name} wins the session {a}-{b} ({other} {how}).", name=names[w], a=a, b=b,
                  other=names[1 - w], how=how)
    return event.type


#: How a session ended, as the end of a sentence ("ada resigned"). Russian says it in the
#: present ("ada сдаётся"): a nickname tells no gender, and no noun goes before a name, which
#: may itself be "Игрок 1".
HOW = {"resigned": N_("resigned"), "timed out": N_("timed out"),
       "forfeited": N_("forfeited")}


def _hand_ended(e: HandEnded, names: Sequence[str], tr: Tr) -> str:
    if e.reason is HandEnd.WENT_OUT:
        assert e.went_out is not None
        if e.leftover:
            # One English for every count ("scores 11 for cards left"); Russian needs the
            # points' noun in its form for the count ("получает 11 очков за карты").
            # No possessive after a name: "Computer (easy)'s hand" (review164).
            how = tr.plural("{name} went out and scores {count} for the cards {other} still "
                            "holds",
                            "{name} went out and scores {count} for the cards {other} still "
                            "holds",
                            e.leftover, name=names[e.went_out], other=names[1 - e.went_out])
        else:
            how = tr("{name} went out", name=names[e.went_out])
    elif e.reason is HandEnd.STOCK_EXHAUSTED:
        # The stock is rebuilt once a hand, from the pile under its top card.
        how = (tr("the stock ran out a second time (it is rebuilt only once a hand)")
               if e.rebuilt else
               tr("the stock ran out and the discard pile had no card to make a new one from"))
    else:
        how = tr("twelve turns passed with no progress")
    if e.reason is not HandEnd.WENT_OUT:
        # What a stalled hand means for the score, not only the rule that stopped it
        # (review164; docs/RULES.md §7).
        how += "; " + tr("nobody went out, so each scores the points they laid, and the cards "
                         "left in hands score for nobody")
    a, b = e.scores
    ga, gb = e.game_scores
    # Each figure after its name and a colon, as the table says them: "Player 1 21 – 38
    # Player 2" ran a default name's digit into its score.
    head = tr("Hand {hand} over: {how}. Hand: {first}: {a} – {second}: {b}. "
              "Game: {first}: {game_a} – {second}: {game_b}.", hand=e.hand, how=how,
              first=names[0], a=a, second=names[1], b=b, game_a=ga, game_b=gb)
    return "\n".join([head, *(_hand_account(e, seat, names[seat], tr) for seat in (0, 1))])


#: Starts each line that shows what a player held when a hand ended (it is over: nothing in
#: it still matters), so that a reader, and a test for hidden cards, tells them apart. A plain
#: list item, which Discord shows as one and a screen reader says so (a "▸" was read by its
#: long name).
ACCOUNT = "- "


def _hand_account(e: HandEnded, seat: int, name: str, tr: Tr) -> str:
    """One player's points in a hand just over, and the cards left in their hand."""
    parts = [tr.plural("{count} point melded", "{count} points melded", e.melded[seat])]
    if e.marriages[seat]:
        parts.append(tr.plural("{count} marriage", "{count} marriages", e.marriages[seat]))
    if e.went_out == seat and e.leftover:
        parts.append(tr.plural("{count} point for cards left", "{count} points for cards left",
                               e.leftover))
    left = e.left_in_hand[seat]
    held = tr("holds {cards}", cards=cards_text(left)) if left else tr("holds nothing")
    return ACCOUNT + tr("{name}: {points}; {held}.", name=name, points=", ".join(parts),
                        held=held)


#: What the table's text puts after a marriage: it scores double, as the picture's gold "×2".
DOUBLE = "×2"
#: Joins the cards of one meld in the table's text (U+00A0, a no-break space): a phone's
#: narrow embed wraps between melds, never inside one ("[4♠ 4♥" / "4♣]").
GLUE = "\u00a0"


class TableMeld(NamedTuple):
    """A logical meld as the table shows it: its cards in sequence order, the seat that laid
    each, and whether a marriage started it (it scores double)."""

    cards: tuple[Card, ...]
    laid_by: tuple[int, ...]
    marriage: bool


def table_melds(view: PlayerView) -> tuple[tuple[TableMeld, ...], tuple[TableMeld, ...]]:
    """Each seat's melds, as the table's picture and text both lay them out: every meld whole
    on the side of the seat that started it, extensions by either seat in it."""
    laid: dict[Card, int] = {}
    starter: dict[int, int] = {}
    marriage: set[int] = set()
    for play in view.plays:
        for card in play.cards:
            laid[card] = play.player
        if play.kind is not PlayKind.EXTENSION:
            starter.setdefault(play.meld, play.player)
        if play.kind is PlayKind.MARRIAGE:
            marriage.add(play.meld)
    sides: tuple[list[TableMeld], list[TableMeld]] = ([], [])
    for meld in view.melds:
        seat = starter.get(meld.index, laid.get(meld.cards[0], 0) if meld.cards else 0)
        sides[seat].append(TableMeld(meld.cards, tuple(laid.get(c, seat) for c in meld.cards),
                                     meld.index in marriage))
    return tuple(sides[0]), tuple(sides[1])


def melds_text(view: PlayerView, seat: int, names: Sequence[str], tr: Tr = EN,
               limit: int | None = None) -> str:
    """The melds ``seat`` started, as they stand: each in brackets, in sequence order (a
    marriage marked ×2), then the cards the other player laid on it, with their name, in no
    brackets (``[7♠ 8♠ 9♠ 10♠ J♠] 9♠ 10♠ laid by ben``: a computer's name carries its level in
    brackets, fix187), as the picture draws them. A meld's cards, and its
    note, are joined by no-break spaces; melds by spaces. Empty if none. Past ``limit``
    characters (a field's 1,024: thirteen notes naming a long escaped name), the notes say
    "the other player" instead of the name."""
    text = _melds_text(view, seat, names[1 - seat], tr)
    if limit is not None and len(text) > limit:
        text = _melds_text(view, seat, None, tr)
    return text


def _melds_text(view: PlayerView, seat: int, other: str | None, tr: Tr) -> str:
    """``melds_text``'s, naming ``other`` on their cards, or None: "the other player"."""
    parts = []
    for meld in table_melds(view)[seat]:
        part = f"[{GLUE.join(str(c) for c in meld.cards)}]"
        if meld.marriage:
            part += DOUBLE
        theirs = [c for c, s in zip(meld.cards, meld.laid_by, strict=True) if s != seat]
        if theirs:
            cards = GLUE.join(str(c) for c in theirs)
            # Its own sentence when unnamed: in Russian the noun is declined ("от соперника").
            note = (tr("{cards} laid by the other player", cards=cards) if other is None
                    else tr("{cards} laid by {name}", cards=cards, name=other))
            part += " " + note.replace(" ", GLUE)
        parts.append(part)
    return " ".join(parts)


def whole_pile(view: PlayerView, tr: Tr = EN) -> str:
    """The whole discard pile as ``view``'s seat may look through it, bottom to top: every
    face-up discard was seen by both players (docs/RULES.md, "The whole discard pile is
    public"; the computer players read it from their view too). A face-down top is said to be
    face down, named to the seat that laid it and a back (🂠) to the other, as is a face-down
    card under it (the going-out discard the other's last one covered). Empty for an empty
    pile. At most 52 cards, each up to 3 characters and a space: under 250 characters (a
    panel's field holds 1,024)."""
    pile = view.discard_pile
    if not view.top_face_down:
        return cards_text(pile)
    top = pile[-1]
    down = tr("{card} (face down)", card="🂠" if top is None else top)
    return " ".join(filter(None, (cards_text(pile[:-1]), down)))


def render_view(view: PlayerView, names: Sequence[str], tr: Tr = EN) -> str:
    """The table as one seat sees it, for a terminal."""
    me, them = view.seat, 1 - view.seat
    lines = [
        tr("Game {game}, hand {hand} ({rules}). Dealer: {dealer}. "
           "Games won: {first}: {won_a} – {second}: {won_b}.", game=view.game,
           hand=view.hand_no,
           rules=worded(view.rules, tr), dealer=names[view.dealer], first=names[0],
           won_a=view.games_won[0], second=names[1], won_b=view.games_won[1]),
        # Each figure after its name and a colon: a name ending in a digit ("Player 1") would
        # else run into its score ("Player 1 0 – 0 Player 2").
        tr("Game score: {first}: {game_a} – {second}: {game_b}. "
           "This hand: {first}: {hand_a} – {second}: {hand_b}.", first=names[0],
           game_a=view.game_scores[0], second=names[1], game_b=view.game_scores[1],
           hand_a=view.hand_points[0], hand_b=view.hand_points[1]),
    ]
    for seat in (them, me):
        laid = melds_text(view, seat, names, tr) or tr("nothing yet")
        lines.append(tr("{name}'s melds: {melds}", name=names[seat], melds=laid))
    top = tr("empty")
    if view.top_face_down:
        # The card is hidden, not the pile: its size stays shown (as on Discord's table).
        top = tr.plural("{top} ({count} card)", "{top} ({count} cards)",
                        len(view.discard_pile), top=tr("face down"))
    elif view.discard_pile:
        top = str(view.top_discard)
        if len(view.discard_pile) > 1 and view.discard_pile[-2] is None:
            # The card under it lies face down (the pile's line shows a back): not named.
            top = tr.plural("{top} ({count} card)", "{top} ({count} cards)",
                            len(view.discard_pile), top=top)
        elif len(view.discard_pile) > 1:
            top = tr.plural("{top} (then {below}; {count} card)",
                            "{top} (then {below}; {count} cards)", len(view.discard_pile),
                            top=top, below=view.discard_pile[-2])
    lines.append(tr.plural("Stock: {count} card.", "Stock: {count} cards.", view.stock_size)
                 + " " + tr("Discard pile: {top}.", top=top) + " "
                 + tr.plural("{name} holds {count} card.", "{name} holds {count} cards.",
                             view.opponent_hand_size, name=names[them]))
    if len(view.discard_pile) > 1:
        # The line above gives the top and the card under it; this, every card of the pile.
        lines.append(tr("Whole pile, bottom to top: {cards}", cards=whole_pile(view, tr)))
    return "\n".join([*lines, hand_lines(view, names, tr)])


def hand_lines(view: PlayerView, names: Sequence[str], tr: Tr = EN) -> str:
    """The seat's hand, each card it drew or took this turn marked as Discord's hand marks it,
    and what its turn must do: the table's last lines, and all the terminal says again after a
    meld (the meld's own line says what changed on the table)."""
    mark = tr.ctx("card", "(new)")
    hand = " ".join(f"{c}{GLUE}{mark}" if c in view.drawn else str(c) for c in view.hand)
    lines = [tr("Your hand: {cards}", cards=hand)]
    if view.went_out >= 0 and view.went_out != view.seat:
        lines.append(tr("{name} went out: this is your last turn.", name=names[view.went_out]))
    if view.must_meld:
        lines.append(tr("You took two: meld {cards} this turn.",
                        cards=cards_text(view.must_meld)))
    return "\n".join(lines)


def move_meaning(view: PlayerView, move: Move, tr: Tr) -> str:
    """A move in words: "draw from the stock", "lay 7♦ on 8♦ 9♦ 10♦" (Discord's suggestions,
    the terminal's moves in a language not English). Typed back, they read as the move
    (``move_words``)."""
    cards = " ".join(str(c) for c in move.card_list)
    kind = move.kind
    if kind is MoveKind.DRAW:
        return tr("draw from the stock")
    if kind is MoveKind.TAKE:
        return tr("take the top discard")
    if kind is MoveKind.TAKE_TWO:
        return tr("take the top two discards")
    if kind is MoveKind.MELD:
        return tr("meld {cards}", cards=cards)
    if kind is MoveKind.EXTEND:
        meld = next((m for m in view.melds if move.target in m.cards), None)
        on = " ".join(str(c) for c in meld.cards) if meld is not None else str(CARDS[move.target])
        return tr("lay {card} on {meld}", card=cards, meld=on)
    if move.face_down:
        return tr("discard {card} face down", card=cards)
    if going_out(move, view.legal_moves):
        return tr("discard {card} face up", card=cards)  # a last card, which may lie down
    return tr("discard {card}", card=cards)
