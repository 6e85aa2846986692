"""The rules of the game in short, in the bot's own words: the pages of ``/umtali rules`` on
Discord (``cogs.umtali.rules_text``, which adds how to play there) and of ``rules`` in the
terminal game (``umtali.cli_play``). Discord's markdown (``**draw**``) is in the text; the
terminal drops it (``plain_page``)."""

from __future__ import annotations

import re
from typing import Final

from umtali.i18n import N_, Tr

#: Each page's text, in English: the message ids.
GAME_PAGES: Final[tuple[str, ...]] = (
    N_("Umtali is a rummy game for two. Each player is dealt cards; in turn you **draw** a "
       "card, lay **melds** face up on the table (cards that go together, such as three of "
       "one rank or three in a row of one suit: page 3), then **discard** a card. Whoever "
       "gets rid of every card **goes out**; the other then plays one last turn, and the "
       "hand is over.\n\n"
       "A **session** is the best of three **games** (the first to win two); a game is four "
       "**hands** (deals), and if the totals are level after four, more hands are played "
       "until one player leads at the end of a hand. In each hand you score the cards you "
       "lay on the table, and the player who goes out also scores what is left in the "
       "other's hand.\n\n"
       "**Points:** 10, J, Q, K = 5 · A to 9 = 1 · a K and Q of one suit laid together "
       "(a **marriage**) = 10 each.\n"
       "**Ace** is low only: A-2-3 is a sequence, Q-K-A is not."),
    N_("**English rules** (default): ten cards each and an eleventh to the player who did "
       "not deal, who starts by melding and discarding without drawing.\n"
       "**Russian rules**: ten cards each and one card turned up to start the discard pile; "
       "the first player draws as usual.\n\n"
       "The first dealer is chosen by a draw: the higher card deals (ace high) under "
       "English rules, the lower card (ace low) under Russian rules; on equal ranks both "
       "draw again, and the bot shows both cards. The deal then alternates every hand, "
       "across the games of a session too."),
    N_("- **Sequence**: 3+ cards in a row of one suit, A..10 (a new sequence never holds a "
       "jack).\n"
       "- **Group**: 3 or 4 cards of one rank, never jacks.\n"
       "- **Marriage**: the K and Q of one suit (scores double).\n"
       "- **Jack**: a jack on its own, always allowed.\n"
       "- **Extension**: one card added to any meld on the table, yours or your opponent's. "
       "It scores for you: the table shows it with the meld it extends, marked with your name, "
       "and either player may extend it in turn. "
       "A sequence grows at either end by the next card of its suit, on through J, Q, K, "
       "never above K nor below A; a marriage grows the same way downward: its J, then the "
       "10, and so on; a group of three takes the fourth; a lone jack takes the 10 or Q of "
       "its suit (it is a sequence from then on) or another jack (a group of jacks from then "
       "on): its first extension decides which.\n"
       "- **Pair**: two cards of one rank, not jacks, only as your last meld when going out; "
       "nothing extends it.\n\n"
       "A card that can go into a new sequence, group or marriage from your hand must go "
       "there rather than into an extension (a possible pair does not count). This is judged "
       "move by move: from 4♥ 5♥ 6♥ 7♥ you may meld 4♥ 5♥ 6♥, then lay 7♥ on it."),
    N_("1. **Draw** the top card of the stock, or **take** the top discard, whether or not "
       "you can use it. You may take the top two discards only if you meld both this turn, "
       "in one meld or two (the bot only offers it then).\n"
       "2. **Meld** everything you can: your turn can only end when nothing is left to meld, "
       "not even a jack or an extension (unless the match is played with the *optional "
       "melding* house rule). When there is a choice, which melds you make is yours; a pair "
       "is never compulsory.\n"
       "3. **Discard** one card face up. Not the one you just took from the pile, unless it "
       "is your last card. If your melds empty your hand, there is no discard.\n\n"
       "When a turn begins with the stock empty, the discard pile (but its top card) is "
       "shuffled into a new stock, once a hand. The second time (or when the pile has no "
       "card to give), the hand ends at once with nobody out: melded points stand, and the "
       "cards left in hands score for nobody. Twelve turns in a row (six each) without a "
       "draw from the stock or a card laid end the hand the same way."),
    N_("You go out by melding all your cards, or all but one and discarding that one (face "
       "down if you like: it is the default). Your opponent then has **one last full "
       "turn**: a draw, melds, a discard (face down too, if it is their last card); while a "
       "face-down card lies on top of the pile, nothing can be taken from it. Whatever is "
       "left in their hand afterwards scores for you, unless they go out too. If that turn "
       "begins with the stock empty and no reshuffle left, it is played without a draw or a "
       "take, and the cards left still score for you.\n\n"
       "A **pair** may be your last meld when it lets you go out: nothing follows it but "
       "the discard of your last card. Under compulsory melding that last card must be one "
       "you cannot meld once the pair is down: not a jack, nor a card that extends a meld on "
       "the table (with *optional melding*, any card). It may be a card you could have "
       "melded before the pair (from 5♥ 5♠ 5♦, the pair of fives, then discard 5♦): that "
       "only costs you points."),
)


def game_titles(tr: Tr) -> tuple[str, ...]:
    """Each page's title. Short words like these mean other things elsewhere in the bot (a
    "Melds" field, a "Your turn" notice), so they carry a context of their own."""
    return (
        tr.ctx("rules page", "The game"),
        tr.ctx("rules page", "The deal"),
        tr.ctx("rules page", "Melds"),
        tr.ctx("rules page", "Your turn"),
        tr.ctx("rules page", "Going out"),
    )


_EMPHASIS = re.compile(r"\*\*?([^*]+?)\*\*?")


def plain_page(text: str) -> str:
    """A page as plain text: "**draw**" and "*optional melding*" without their stars, a
    command in code marks ("`draw`") in quotes, as the terminal's help writes one."""
    return _EMPHASIS.sub(r"\1", text).replace("`", "'")
