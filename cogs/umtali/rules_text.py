"""``/umtali rules``: the rules in the bot's own words, one page per embed, in the reader's
language (``pages(tr)``).

A page names slash commands by placeholders (``{challenge}``), filled with each command's name
as the reader's Discord client shows it: Discord lists the commands under their translated
names, so the page must call them the same.
"""

from __future__ import annotations

from typing import Final

from umtali.i18n import EN, N_, Tr

#: The text of each page, in English: the message ids.
_TEXTS: Final[tuple[str, ...]] = (
    N_("Umtali is a rummy game for two. A **session** is the best of three **games**; a "
       "game is four **hands** (more if the score is level after four). In each hand you "
       "score the cards you lay on the table, and the player who goes out also scores what "
       "is left in the other's hand.\n\n"
       "**Points:** 10, J, Q, K = 5 · A to 9 = 1 · the K and Q of a marriage = 10 each.\n"
       "**Ace** is low only: A-2-3 is a sequence, Q-K-A is not."),
    N_("**English rules** (default): ten cards each and an eleventh to the player who did "
       "not deal, who starts by melding and discarding without drawing.\n"
       "**Russian rules**: ten cards each and one card turned up to start the discard pile; "
       "the first player draws as usual.\n\n"
       "The first dealer is chosen by a draw: the higher card deals (ace high) under "
       "English rules, the lower card (ace low) under Russian rules. The deal then "
       "alternates every hand."),
    N_("• **Sequence**: 3+ cards in a row of one suit, A..10 (a new sequence never holds a "
       "jack).\n"
       "• **Group**: 3 or 4 cards of one rank, never jacks.\n"
       "• **Marriage**: the K and Q of one suit (scores double).\n"
       "• **Jack**: a jack on its own, always allowed.\n"
       "• **Extension**: one card added to any meld on the table, yours or your opponent's. "
       "It stays on your side and scores for you. Sequences grow at both ends through J, Q, "
       "K; a marriage takes the J below it; a group of three takes the fourth; a lone jack "
       "takes the 10 or Q of its suit, or another jack.\n"
       "• **Pair**: two cards of one rank, only as your last meld when going out.\n\n"
       "A card that can go into a new sequence, group or marriage from your hand must go "
       "there rather than into an extension."),
    N_("1. **Draw** the top card of the stock, or **take** the top discard. You may take the "
       "top two discards only if you meld both this turn (the bot only offers it then).\n"
       "2. **Meld** everything you can: your turn can only end when nothing is left to meld "
       "(unless the match is played with the *optional melding* house rule).\n"
       "3. **Discard** one card. Not the one you just took from the pile, unless it is your "
       "last card.\n\n"
       "If the stock runs out, the discard pile (but its top card) becomes the stock once; "
       "the second time the hand simply ends. Twelve turns in a row without a draw from the "
       "stock or a card laid also end the hand."),
    N_("You go out by melding all your cards, or all but one and discarding that one (face "
       "down if you like: it is the default). Your opponent then has **one last turn**, and "
       "cannot take a face-down card. Whatever is left in their hand afterwards scores for "
       "you, unless they go out too.\n\n"
       "A **pair** may be your last meld when it lets you go out: nothing follows it but "
       "the discard of your last card. It may even leave a card you could have melded "
       "before it (from 5♥ 5♠ 5♦, the pair of fives, then discard 5♦): that only costs you "
       "points."),
    N_("• `{challenge}` a member; they accept or decline with the buttons.\n"
       "• The table is one message in the match thread, updated when each turn ends.\n"
       "• Your hand comes by direct message, and always through the **My hand** button: act "
       "with its buttons and menus, or type `{play}` with a move such as `draw`, `take`, "
       "`take 2`, `meld 8D 9D 10D`, `extend 7D 8D`, `discard KS` (`discard KS down` for "
       "your last card).\n"
       "• A turn has a time limit (five minutes unless the server or the challenge says "
       "otherwise); you are warned before it runs out, and running out forfeits the "
       "session. Under a time control with a reserve, the reserve is spent first once the "
       "turn's own time is up; by correspondence (a day a turn), the waiting player chooses "
       "with a button: **Claim the win** or **Keep waiting**.\n"
       "• `{resign}` gives the session to your opponent; `{table}` shows the table again.\n"
       "• Every deal can be checked: the bot posts a commitment (a fingerprint) of a "
       "session's seed on its challenge before anyone accepts, the member who accepts cuts "
       "the deck (typing their cut, or nothing), and when the session ends the bot reveals "
       "the seed, so anyone can check every deal with `python -m umtali verify` (see "
       "docs/FAIR_DEALS.md). The computer player never sees your cards."),
)

#: The slash commands a page names, by placeholder: the words of each command's path.
_COMMANDS: Final = {
    "challenge": ("umtali", "challenge"),
    "play": ("umtali", "play"),
    "resign": ("umtali", "resign"),
    "table": ("umtali", "table"),
}


def command(tr: Tr, path: tuple[str, ...]) -> str:
    """A slash command as ``tr``'s reader sees it in Discord: ``/umtali challenge``, each word
    the name Discord shows in that language."""
    return "/" + " ".join(tr.ctx("command", word) for word in path)


def titles(tr: Tr) -> tuple[str, ...]:
    """Each page's title. Short words like these mean other things elsewhere in the bot (a
    "Melds" field, a "Your turn" notice), so they carry a context of their own."""
    return (
        tr.ctx("rules page", "The game"),
        tr.ctx("rules page", "The deal"),
        tr.ctx("rules page", "Melds"),
        tr.ctx("rules page", "Your turn"),
        tr.ctx("rules page", "Going out"),
        tr.ctx("rules page", "Playing here"),
    )


def pages(tr: Tr) -> list[tuple[str, str]]:
    """Every page's title and text in ``tr``'s language."""
    names = {key: command(tr, path) for key, path in _COMMANDS.items()}
    return [(title, tr(text, **names)) for title, text in zip(titles(tr), _TEXTS, strict=True)]


#: The pages in English (the bot's default).
PAGES: Final[tuple[tuple[str, str], ...]] = tuple(pages(EN))
