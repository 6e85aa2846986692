"""Why a move is good, in one line of plain words from what the seat's view shows: the coach's
hint says it of ``hard``'s move, a review of the move the player should have made
(``umtali.ai.coach``). Each kind of move has its reasons: a take or a draw, a meld (those in
``umtali.ai.meld_reasons``), a discard, and the game's score when ``hard`` plays for the game
rather than the hand's points. A review's are said of a turn gone (``past``).
"""

from __future__ import annotations

from umtali.ai import lookahead, policy, stakes
from umtali.ai.determinize import PARTNERS, OpponentModel, rules_of
from umtali.ai.heuristics import keep_values, outs, table_outs, usable_now
from umtali.ai.meld_reasons import meld_reason
from umtali.ai.outlook import Outlook, of_view
from umtali.cards import JACK, RANK_MASK, format_cards, iter_cards, mask_of
from umtali.i18n import Text
from umtali.melds import extended
from umtali.moves import Move, MoveKind
from umtali.search import can_meld_all
from umtali.view import PlayerView


def _cards(mask: int) -> str:
    return format_cards(iter_cards(mask))


def reason(
    view: PlayerView,
    move: Move,
    model: OpponentModel | None = None,
    for_points: Move | None = None,
    instead: Move | None = None,
    past: bool = False,
) -> Text:
    """One line on why ``move`` is a good move on ``view``, from the view alone.
    ``for_points``: the move ``hard`` would make for points, when ``move`` was chosen for the
    game instead (``HardPlayer.judge``); the line then says so. ``instead``: the move the
    player made (a review): a discard's line then speaks of the card they shed. ``past``: said
    of a turn already played (a review): the commonest lines say what the move would have
    done ("it was worth keeping K♣"), not an order ("keep K♣") about a turn gone."""
    model = model or OpponentModel()
    legal = view.legal_moves
    if len(legal) == 1:
        return Text.of("it is the only move")
    if for_points is not None and for_points != move:
        return _game_reason(view, move, for_points)
    o = of_view(view, model.known, rules_of(view).optional_melding)
    if move.kind is MoveKind.TAKE_TWO:
        cards = _taken(view, move)
        return Text.of("both {cards} could have been melded that turn", cards=cards) if past \
            else Text.of("take {cards}: both can be melded this turn", cards=cards)
    if move.kind is MoveKind.TAKE:
        card = _taken(view, move)
        if usable_now(o.top, o):
            return Text.of("{card} could have been melded at once", card=card) if past else \
                Text.of("take {card}: it can be melded at once", card=card)
        if _meldable(o):
            # Only in a series that ends the turn (the pair that goes out, say): not at once.
            return Text.of("{card} could have been melded that turn", card=card) if past else \
                Text.of("take {card}: it can be melded this turn", card=card)
        if past:
            return Text.of("kept in your hand, {card} was worth more than a card from the stock "
                           "on average", card=card)
        return Text.of("take {card}: kept in your hand, it is worth more than a card from the "
                       "stock on average", card=card)
    if move.kind is MoveKind.DRAW:
        if o.top >= 0 and not _meldable(o) and past:
            return Text.of("{card} on the pile could not be melded then", card=_cards(1 << o.top))
        if o.top >= 0 and not _meldable(o):
            return Text.of("draw from the stock: {card} on the pile cannot be melded now",
                           card=_cards(1 << o.top))
        if o.top >= 0 and past:
            return Text.of("melding {card} then would have left you a weaker hand than a card "
                           "from the stock on average", card=_cards(1 << o.top))
        if o.top >= 0:
            return Text.of("draw from the stock: melding {card} now would leave you a weaker "
                           "hand than a card from the stock on average", card=_cards(1 << o.top))
        return Text.of("the discard pile offered nothing better") if past else \
            Text.of("draw from the stock: the discard pile offers nothing better")
    if move.kind in (MoveKind.MELD, MoveKind.EXTEND):
        return meld_reason(o, move, legal, mask_of(view.must_meld), past)
    return _discard_reason(o, view, move, instead, past)


def _meldable(o: Outlook) -> bool:
    """Whether the top discard, taken, could be laid this turn: at once, or as a pair going
    out (5♠ in hand, 5♥ on the pile), which ``usable_now`` leaves out."""
    bit = 1 << o.top
    return usable_now(o.top, o) or can_meld_all(o.hand | bit, o.melds, bit, o.optional)


def _taken(view: PlayerView, move: Move) -> str:
    """The cards ``take`` or ``take 2`` takes, named: the move itself names none."""
    pile = view.discard_pile
    return _cards(mask_of(c for c in pile[-2 if move.kind is MoveKind.TAKE_TWO else -1:]
                          if c is not None))


def _game_reason(view: PlayerView, move: Move, other: Move) -> Text:
    """Why ``move`` rather than ``other``, the move for points: the game's score."""
    lead = stakes.game_lead(view)
    mine, theirs = view.hand_points[view.seat], view.hand_points[1 - view.seat]
    if mine != theirs:
        # The game's score on the panel leaves out the hand in play: the standing that decides
        # the game counts what this hand has laid so far (17 ahead before it, 13 behind now).
        why = _standing_now(lead + mine - theirs)
    elif lead < 0:
        why = Text.plural(
            "you trail by {count} point and this is the game's last hand: this wins the game "
            "more often",
            "you trail by {count} points and this is the game's last hand: this wins the game "
            "more often", -lead)
    elif lead > 0:
        why = Text.plural(
            "you lead by {count} point and this is the game's last hand: this loses the game "
            "less often",
            "you lead by {count} points and this is the game's last hand: this loses the game "
            "less often", lead)
    else:
        why = Text.of("the game is level and this hand may decide it: this wins the game more "
                      "often")
    return _for_the_game(view, move, other, why)


def _standing_now(lead: int) -> Text:
    """The seat's lead in the game with the points laid in the hand so far."""
    if lead < 0:
        return Text.plural(
            "with this hand's melds so far you trail by {count} point, and this is the game's "
            "last hand: this wins the game more often",
            "with this hand's melds so far you trail by {count} points, and this is the game's "
            "last hand: this wins the game more often", -lead)
    if lead > 0:
        return Text.plural(
            "with this hand's melds so far you lead by {count} point, and this is the game's "
            "last hand: this loses the game less often",
            "with this hand's melds so far you lead by {count} points, and this is the game's "
            "last hand: this loses the game less often", lead)
    return Text.of("with this hand's melds so far the game is level, and this hand may decide "
                   "it: this wins the game more often")


def _for_the_game(view: PlayerView, move: Move, other: Move, why: Text) -> Text:
    if move.kind is MoveKind.DISCARD:
        return Text.of("discard {card} rather than {other}: {why}", card=_cards(move.cards),
                       other=_cards(other.cards), why=why)
    if move.kind is MoveKind.DRAW:
        return Text.of("draw from the stock rather than take {card}: {why}",
                       card=_taken(view, other), why=why)
    return Text.of("take {card} rather than draw from the stock: {why}", card=_taken(view, move),
                   why=why)


def _discard_reason(o: Outlook, view: PlayerView, move: Move,
                    instead: Move | None = None, past: bool = False) -> Text:
    card = move.card
    # The card the player shed in its place (a review): the line weighs the two.
    shed = instead if instead is not None and instead.kind is MoveKind.DISCARD and \
        instead.card != card else None
    name = _cards(move.cards)
    if o.hand.bit_count() == 1:
        if o.last_turn:
            # The opponent went out and plays no more: what matters is what is left to them.
            return Text.of("discard {card}, your last card: you go out too, and nothing is "
                           "left in your hand to score for them", card=name)
        return Text.of("lay your last card face down: the opponent cannot take it")
    if o.last_turn and past:
        return Text.of("{card} was the card to let go: the opponent had gone out, and the points "
                       "left in your hand scored for them", card=name)
    if o.last_turn:
        return Text.of("discard {card}: the opponent went out, and the points left in your hand "
                       "now score for them", card=name)
    usual = policy.choose(o, view.legal_moves)
    if usual.kind is MoveKind.DISCARD and usual.card != card:
        ahead = lookahead.choose_discard(o, view.legal_moves)
        if ahead.card != card:
            # Neither ``normal``'s card nor the look ahead's: ``hard``'s search overruled both
            # (``HardPlayer.discard_budget``).
            # What the search measured: each card shed, the hand played out from here over
            # many guesses at the hidden cards, its points averaged.
            other = (shed or ahead).card
            said = dict(card=name, other=_cards(1 << other))
            return _with_hope(Text.of(
                "{card} was the card to let go, not {other}: over the many ways the rest of the "
                "hand could go, keeping {other} would have scored you more on average", **said)
                if past else Text.of(
                "discard {card} rather than {other}: over the many ways the rest of the hand "
                "can go, keeping {other} scores you more on average", **said), o, card, other,
                past)
        # The look ahead's: the hand kept, valued for the next turn over each card drawn next.
        other = (shed or usual).card
        said = dict(card=name, other=_cards(1 << other))
        why = Text.of("{card} was the card to let go, not {other}: on average over the cards "
                      "you might have drawn next, keeping {other} would have left you a stronger "
                      "hand", **said) \
            if past else Text.of("discard {card} rather than {other}: on average over the cards "
                                 "you might draw next, keeping {other} leaves you a stronger "
                                 "hand", **said)
        hope = _with_hope(why, o, card, other, past)
        return hope if hope is not why else _with_draws(why, o, card, other, past)
    beyond = table_outs(o.melds)
    live = o.live
    # What each card kept waits for once ``card`` is shed: not a card that would meld it only
    # with ``card`` (keep 4♠ shedding 3♠: 5♠ alone melds nothing).
    rest = o.hand & ~(1 << card)
    waiting = {c: (outs(c, rest, beyond) | _pair_outs(c, rest, o)) & live
               for c in iter_cards(rest)}
    values = keep_values(o, o.hand)
    if shed is not None and not waiting[shed.card]:
        # The card shed waits for nothing: the line weighs the two cards, not a third kept.
        if not (usable_now(card, o) or usable_now(shed.card, o)) and not (
                _outs_of(card, o, beyond) | outs(shed.card, rest, beyond)
                | _pair_outs(shed.card, rest, o)) & o.unseen:
            if past:
                return Text.of("{card} was the card to let go, not {other}: no card still in "
                               "play would have melded either, and {card} was the less worth "
                               "keeping", card=name, other=_cards(shed.cards))
            return Text.of("discard {card} rather than {other}: no card still in play would "
                           "meld either, and {card} is the less worth keeping", card=name,
                           other=_cards(shed.cards))
        if past:
            return Text.of("{card} was the card to let go, not {other}: of the two, it was the "
                           "less worth keeping", card=name, other=_cards(shed.cards))
        return Text.of("discard {card} rather than {other}: of the two, it is the less worth "
                       "keeping", card=name, other=_cards(shed.cards))
    hopes = [c for c, w in waiting.items() if w]
    if hopes:
        # The card shed instead, if it was waiting for one: else the likeliest hope kept.
        best = shed.card if shed is not None else max(hopes, key=lambda c: (values[c], c))
        kept = (1 << best) | (PARTNERS[best] & rest)
        need = waiting[best]
        if not (outs(best, rest, {}) | _pair_outs(best, rest, o)) & live:
            # It melds only through the table (no card still in play melds it from the hand):
            # an out goes on a table meld, and it after.
            # Only a meld that, extended by the out, takes the card kept: a group of four
            # takes a fifth of its rank from no one.
            follow = [(mask_of(u for u in iter_cards(need & m.accepts)
                               if extended(m, u).accepts >> best & 1), m) for m in o.melds]
            need, meld = max(follow, key=lambda f: (f[0].bit_count(), f[1].cards))
            if past:
                return Text.plural(
                    "it was worth keeping {kept}: {outs}, still in play, would have gone on "
                    "{meld}, and {kept} after it",
                    "it was worth keeping {kept}: {outs}, still in play, would have gone on "
                    "{meld}, and {kept} after either",
                    need.bit_count(), kept=_cards(1 << best), outs=_cards(need),
                    meld=_cards(meld.cards))
            return Text.plural("keep {kept}: {outs}, still in play, would go on {meld}, and "
                               "{kept} after it",
                               "keep {kept}: {outs}, still in play, would go on {meld}, and "
                               "{kept} after either",
                               need.bit_count(), kept=_cards(1 << best), outs=_cards(need),
                               meld=_cards(meld.cards))
        if past:
            return Text.plural("it was worth keeping {kept}: {outs} was still in play",
                               "it was worth keeping {kept}: {outs} were still in play",
                               need.bit_count(), kept=_cards(kept), outs=_cards(need))
        return Text.plural("keep {kept}: {outs} is still in play",
                           "keep {kept}: {outs} are still in play",
                           need.bit_count(), kept=_cards(kept), outs=_cards(need))
    # (Under optional melding a card kept may be meldable already, a jack always: it needs no
    # card.)
    if not usable_now(card, o) and not _outs_of(card, o, beyond):
        return Text.of("{card} was the card to let go: no card still in play would have melded "
                       "it", card=name) if past else \
            Text.of("discard {card}: no card still in play would meld it", card=name)
    return Text.of("{card} was the card to let go: the least worth keeping", card=name) if past \
        else Text.of("discard {card}: it is the card least worth keeping", card=name)


def _with_hope(why: Text, o: Outlook, card: int, other: int, past: bool = False) -> Text:
    """``why`` (a line weighing ``card`` shed against ``other`` shed, judged over many draws or
    guesses) with what ``other``, kept, waits for in the hand: the cards still in play that
    would meld it there (review: such lines named no card but the two). As it was when no
    card still in play melds it from the hand (the table's melds aside: the judgement is the
    whole hand's, not that card's)."""
    rest = o.hand & ~(1 << card)
    need = (outs(other, rest, {}) | _pair_outs(other, rest, o)) & o.live
    if not need:
        return why
    kept = (1 << other) | (PARTNERS[other] & rest)
    if past:
        return Text.plural("{why}; it was worth keeping {kept}: {outs} was still in play",
                           "{why}; it was worth keeping {kept}: {outs} were still in play",
                           need.bit_count(), why=why, kept=_cards(kept), outs=_cards(need))
    return Text.plural("{why}; keep {kept}: {outs} is still in play",
                       "{why}; keep {kept}: {outs} are still in play",
                       need.bit_count(), why=why, kept=_cards(kept), outs=_cards(need))


#: A draw named in a look ahead's line gains at least this much (points of the next turn's
#: value) over the same draw with the other card kept: below, the gain is spread thin.
NAMED_DRAW = 1.0


def _with_draws(why: Text, o: Outlook, card: int, other: int, past: bool = False) -> Text:
    """``why`` (the look ahead's line: ``card`` shed rather than ``other``, judged over the
    next draw) with the draws it counts most on: those after which the hand without ``card``
    is worth the most more than the hand without ``other``, as the look ahead values a next
    turn (``NAMED_DRAW`` or more; three at most, the largest first). As it was when no draw
    stands out."""
    kept, instead = o.hand & ~(1 << card), o.hand & ~(1 << other)
    gains = sorted(((lookahead.next_turn_value(o, kept | 1 << c)
                     - lookahead.next_turn_value(o, instead | 1 << c), c)
                    for c in iter_cards(o.live)), key=lambda g: (-g[0], g[1]))
    named = [c for gain, c in gains[:3] if gain >= NAMED_DRAW]
    if not named:
        return why
    if past:
        return Text.plural("{why}, most of all had you drawn {cards}",
                           "{why}, most of all had you drawn one of {cards}",
                           len(named), why=why, cards=format_cards(named))
    return Text.plural("{why}, most of all if you draw {cards}",
                       "{why}, most of all if you draw one of {cards}",
                       len(named), why=why, cards=format_cards(named))


def _outs_of(card: int, o: Outlook, beyond: dict[int, int]) -> int:
    """The cards still in play that would meld ``card`` were it kept (another card shed in its
    place). In play: in the stock or the opponent's hand, a card the opponent is known to hold
    too."""
    found = outs(card, o.hand, beyond)
    for other in iter_cards(o.hand & ~(1 << card)):
        found |= _pair_outs(card, o.hand & ~(1 << other), o)
    return found & o.unseen


def _pair_outs(card: int, kept: int, o: Outlook) -> int:
    """The cards of ``card``'s rank, still in play, that drawn into ``kept`` (the hand after a
    discard, holding ``card``) would let it be laid next turn: as the pair that goes out (3♣
    kept alone, 3♠ drawn), which ``outs`` leaves out; or so (the engine's search decides)."""
    rank = card % 13 + 1
    if rank == JACK:
        return 0
    return mask_of(y for y in iter_cards(RANK_MASK[rank] & o.unseen & ~kept)
                   if can_meld_all(kept | 1 << y, o.melds, 1 << card, o.optional))
