"""Messages from views: the public table, a player's private hand, a turn's announcement.

Every function here takes a ``PlayerView`` (the spectator's for public messages) and never the
session itself, so a hidden card cannot reach a public message by accident. Players' names come
in as stored and are made safe here (``names.safe_name``), once, where the text is made.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import discord

from cogs.umtali.arrange import HandOrder, hand_text, new_legend
from cogs.umtali.names import safe_name
from cogs.umtali.text_cuts import head
from umtali.events import Event
from umtali.i18n import N_, Tr
from umtali.melds import PlayKind
from umtali.moves import Move, MoveKind
from umtali.rules import worded
from umtali.text import GLUE, describe, melds_text, whole_pile
from umtali.view import SPECTATOR, PlayerView

COLOUR = discord.Colour.dark_green()
#: The most melds and extensions a hand's panel lists as text (each line up to about 60
#: characters: the field holds 1,024).
MELDS_LISTED = 12
#: What a play is, in a word (its rule name in the rules pages).
KIND = {
    PlayKind.SEQUENCE: N_("sequence"),
    PlayKind.GROUP: N_("group"),
    PlayKind.MARRIAGE: N_("marriage"),
    PlayKind.JACK: N_("jack"),
    PlayKind.PAIR: N_("pair"),
    PlayKind.EXTENSION: N_("extension"),
}


def hand_points(view: PlayerView) -> tuple[int, int]:
    """Each seat's points in the hand the table shows: while it is played, what each has
    melded (``PlayerView.hand_points``); once it is over (the session's last hand, which the
    table still shows), the hand's score, which adds the cards left in the opponent's hand
    for the player who went out (docs/RULES.md §8; the figure its announcement gave)."""
    scores = view.hand_scores
    if 0 < view.hand_no <= len(scores):
        return scores[view.hand_no - 1]
    return view.hand_points


def _melds_of(view: PlayerView, seat: int, names: Sequence[str], tr: Tr) -> str:
    """The melds the seat started, whole, as the picture draws them: a marriage ×2, the other
    player's cards in each named (``melds_text``: inside a field's 1,024 characters); "no
    melds yet" in the picture's words."""
    return melds_text(view, seat, names, tr, limit=1024) or tr("no melds yet")


def _stamp(deadline: float) -> str:
    """A deadline as Discord counts it down in the reader's own clock ("in 2 minutes")."""
    return discord.utils.format_dt(dt.datetime.fromtimestamp(deadline, dt.UTC), "R")


def _safe(names: Sequence[str]) -> list[str]:
    return [safe_name(n) for n in names]


def prompt(view: PlayerView, names: Sequence[str], tr: Tr) -> str:
    """What the player to act must do now, in words."""
    return _prompt(view, _safe(names), tr)


def _prompt(view: PlayerView, names: Sequence[str], tr: Tr) -> str:
    if view.winner >= 0:
        return tr("Session over: **{name}** wins.", name=names[view.winner])
    who = names[view.to_act]
    if view.phase == "draw":
        if view.top_face_down:
            return tr("**{name}** to draw from the stock (the top discard is face down).",
                      name=who)
        return tr("**{name}** to draw from the stock or take the top discard.", name=who)
    if view.phase == "meld":
        return tr("**{name}** to meld, then discard.", name=who)
    return tr("The hand is over.")


def pile_text(view: PlayerView, tr: Tr) -> str:
    """The discard pile as the table shows it: its top, the card under it, its size."""
    if not view.discard_pile:
        return tr("empty")
    if view.top_face_down:
        top = tr("face down")
    else:
        below = view.discard_pile[-2] if len(view.discard_pile) > 1 else None
        # Which card is on top said, as Russian says it («под ней»): "10♠, then K♣" left it
        # to be guessed (review164).
        top = (str(view.top_discard) if below is None else
               tr("{top} on top, {below} under it", top=view.top_discard, below=below))
    return tr.plural("{top} ({count} card)", "{top} ({count} cards)",
                     len(view.discard_pile), top=top)


def table_embed(
    view: PlayerView, names: Sequence[str], match_id: int, *, tr: Tr,
    deadline: float | None = None, note: str = "", clock: str = "", hand_button: bool = True,
    ended: str = "",
) -> discord.Embed:
    """The public table. ``view`` must be the spectator's; ``clock``: whose clock runs and
    the reserves, when the match has a time control; ``hand_button``: the table carries the
    **My hand** button (not a DM panel's copy), which its footer names while play goes on;
    ``ended``: how a match with no result ended, in words, said in place of whose turn it is
    (its session never finished: the view still has a seat to act)."""
    assert view.seat == SPECTATOR, "the public table renders the spectator's view only"
    names = _safe(names)
    lines = [tr("Game {game}, hand {hand} · {rules} · dealer {dealer}", game=view.game,
                hand=view.hand_no, rules=worded(view.rules, tr), dealer=names[view.dealer]),
             ended or _prompt(view, names, tr)]
    going = view.winner < 0 and not ended
    if view.went_out >= 0 and going:
        lines.append(tr("{name} went out: {other} plays the last turn.",
                        name=names[view.went_out], other=names[1 - view.went_out]))
    if deadline is not None and going:
        lines.append(tr("Turn ends {when}.", when=_stamp(deadline)))
    if clock and going:
        lines.append(clock)
    if note:
        lines.append(note)
    embed = discord.Embed(title=tr("Umtali · {a} vs {b}", a=names[0], b=names[1]),
                          description="\n".join(lines), colour=COLOUR)
    scored = hand_points(view)
    for seat in (0, 1):
        # Two counts, each with its own plural form (1 card, 5 points; 1 карта, 5 очков).
        cards = tr.plural("{count} card", "{count} cards", view.hand_sizes[seat])
        points = tr.plural("{count} point", "{count} points", scored[seat])
        embed.add_field(
            name=tr("{name} · {cards} · {points}", name=names[seat], cards=cards,
                    points=points),
            value=head(_melds_of(view, seat, names, tr), 1024),
            inline=False,
        )
    embed.add_field(name=tr("Stock"),
                    value=tr.plural("{count} card", "{count} cards", view.stock_size),
                    inline=True)
    embed.add_field(name=tr("Discard pile"), value=pile_text(view, tr), inline=True)
    ga, gb = view.game_scores
    embed.add_field(
        name=tr("Scores"),
        value=tr("Game: {a} {score_a} – {score_b} {b}", a=names[0], score_a=ga, score_b=gb,
                 b=names[1]) + "\n" +
              tr("Games won: {a} {won_a} – {won_b} {b}", a=names[0], won_a=view.games_won[0],
                 won_b=view.games_won[1], b=names[1]),
        inline=False,
    )
    if hand_button and going:
        embed.set_footer(text=tr("Match {match} · press “My hand” to see your cards and play",
                                 match=match_id))
    else:
        embed.set_footer(text=tr("Match {match}", match=match_id))
    return embed


def hand_embed(
    view: PlayerView, names: Sequence[str], match_id: int, *, tr: Tr, order: HandOrder,
    note: str = "", ended: str = "", deadline: float | None = None, reserve: str = "",
) -> discord.Embed:
    """A player's private panel: their hand, the table's essentials, and what they may do;
    ``ended``: how a match with no result ended, in words, said in place of whose turn it is
    (as on its table: its session never finished, so its view still has a seat to act);
    ``deadline``: the turn's, the table's, said on the player's own turn only, with
    ``reserve``, their reserve in words (a match with a time control)."""
    assert view.seat != SPECTATOR
    names = _safe(names)
    me = view.seat
    if ended:
        doing = ended
    elif view.winner >= 0:
        doing = _prompt(view, names, tr)
    elif view.my_turn:
        if view.phase != "draw":
            doing = tr("Your turn: meld what you can, then discard.")
        elif view.top_face_down:
            # Nothing may be taken from under a face-down card: the stock only.
            doing = tr("Your turn: draw from the stock (the top discard is face down).")
        else:
            doing = tr("Your turn: draw from the stock or take the top discard.")
        if view.must_meld:
            doing += " " + tr("You took two: meld {cards}.",
                              cards=" ".join(str(c) for c in view.must_meld))
    else:
        doing = tr("Waiting for {name}.", name=names[view.to_act])
    lines = [doing]
    if view.my_turn and view.winner < 0 and not ended:
        # Pictures off or on, the panel a player plays from says how long they have.
        if deadline is not None:
            lines.append(tr("Your turn ends {when}.", when=_stamp(deadline)))
        if reserve:
            lines.append(reserve)
    if view.went_out >= 0 and view.went_out != me and view.winner < 0 and not ended:
        lines.append(tr("{name} went out: this is your last turn.", name=names[view.went_out]))
    legend = new_legend(view, tr)
    if legend:
        lines.append(legend)
    if note:
        lines.append(note)
    embed = discord.Embed(title=tr("Your hand · match {match}", match=match_id),
                          description="\n".join(lines), colour=COLOUR)
    # The order's label is worded first: a call inside the plural's would hide its plural
    # form from the catalogue's extractor.
    laid_out = order.label(tr)
    # An empty hand said once: "0 cards · by suit" over "no cards" said it twice (review164).
    embed.add_field(name=tr.plural("{count} card · {order}", "{count} cards · {order}",
                                   len(view.hand), order=laid_out) if view.hand
                    else tr("Your hand"),
                    value=head(hand_text(view, order, tr), 1024), inline=False)
    embed.add_field(name=tr("Discard pile"), value=_my_pile(view, tr), inline=True)
    embed.add_field(name=tr("Stock"),
                    value=tr.plural("{count} card", "{count} cards", view.stock_size),
                    inline=True)
    embed.add_field(name=tr("{name} holds", name=names[1 - me]),
                    value=tr.plural("{count} card", "{count} cards", view.opponent_hand_size),
                    inline=True)
    if len(view.discard_pile) > 1:
        # The whole pile is public (docs/RULES.md): every card of it, not the top alone,
        # full width under the top's field (a lone card is its top: said there).
        embed.add_field(name=tr.plural("Whole pile, bottom to top ({count} card)",
                                       "Whole pile, bottom to top ({count} cards)",
                                       len(view.discard_pile)),
                        value=whole_pile(view, tr), inline=False)
    # Which hand this is, and the game's score: a panel played from the DMs is edited to the
    # next deal as a hand ends, and would change every card with not a word of why.
    embed.add_field(name=tr("Game {game} · hand {hand}", game=view.game, hand=view.hand_no),
                    value=head(scores_text(view, names, tr), 1024), inline=False)
    if view.my_turn:
        # In the menus' order (longest melds first, then extensions): a player reads both.
        new, extensions = lay_moves(view)
        melds = new + extensions
        if melds:
            # In the buttons' words (``lay_words``), not the move's English text.
            lines = [lay_words(view, m, tr) for m in melds[:MELDS_LISTED]]
            if len(melds) > MELDS_LISTED:
                # Said, not left to be guessed: the menus and the card picker hold the rest.
                more = len(melds) - MELDS_LISTED
                lines.append(tr.plural("…and {count} more", "…and {count} more", more))
            embed.add_field(name=tr("You can meld"), value=head("\n".join(lines), 1024),
                            inline=False)
    return embed


def scores_text(view: PlayerView, names: Sequence[str], tr: Tr) -> str:
    """This hand's points and the game's, each labelled: a lone "ada 0 – 0 ben" (the game's
    score before this hand) read as this hand's while ada had 11 points laid (review164).
    Public figures only: points laid and hands scored, never what a hand holds."""
    ha, hb = hand_points(view)
    ga, gb = view.game_scores
    if 0 < view.hand_no <= len(view.hand_scores):
        # The hand is over (a session's last): its score is in the game's already.
        hand = tr("This hand: {a} {score_a} – {score_b} {b}", a=names[0], score_a=ha,
                  score_b=hb, b=names[1])
        game = tr("Game: {a} {score_a} – {score_b} {b}", a=names[0], score_a=ga, score_b=gb,
                  b=names[1])
    else:
        hand = tr("This hand, laid so far: {a} {score_a} – {score_b} {b}", a=names[0],
                  score_a=ha, score_b=hb, b=names[1])
        game = tr("Game, earlier hands: {a} {score_a} – {score_b} {b}", a=names[0],
                  score_a=ga, score_b=gb, b=names[1])
    return hand + "\n" + game


def lay_moves(view: PlayerView) -> tuple[list[Move], list[Move]]:
    """The melds (longest first: a run of four before the run of three inside it) and the
    extensions the seat may lay now; the panel's menus and its "You can meld" list alike."""
    melds = sorted((m for m in view.legal_moves if m.kind is MoveKind.MELD),
                   key=lambda m: -m.cards.bit_count())
    extensions = [m for m in view.legal_moves if m.kind is MoveKind.EXTEND]
    return melds, extensions


def lay_words(view: PlayerView, move: Move, tr: Tr) -> str:
    """A meld to lay as its cards (``8♦ 9♦ 10♦``); an extension as the card and the meld it
    goes on (``7♦ on 8♦ 9♦ 10♦``): the panel's buttons and its "You can meld" list alike."""
    cards = " ".join(str(c) for c in move.card_list)
    if move.kind is not MoveKind.EXTEND:
        return cards
    meld = next((m for m in view.melds if move.target in m.cards), None)
    on = " ".join(str(c) for c in meld.cards) if meld is not None else ""
    return tr("{cards} on {meld}", cards=cards, meld=on) if on else cards


def _my_pile(view: PlayerView, tr: Tr) -> str:
    """The top of the discard pile as a seat sees it: a face-down card it laid itself is
    shown, and said to be face down (nobody may take it)."""
    if not view.discard_pile:
        return tr("empty")
    if not view.top_face_down:
        # In the table's words (``pile_text``): the whole pile is listed under it.
        return (tr("{card} on top", card=view.top_discard) if len(view.discard_pile) > 1
                else str(view.top_discard))
    if view.top_discard is None:
        return tr("face down")
    return tr("{card}, face down", card=view.top_discard)


def turn_message(events: Sequence[Event], names: Sequence[str], tr: Tr) -> str:
    """One public message for a run of events (a player's whole turn, and what followed)."""
    shown = _safe(names)
    return "\n".join(describe(e.for_seat(SPECTATOR), shown, tr, GLUE) for e in events)
