"""``/umtali rules``: the rules in the bot's own words, one page per embed, in the reader's
language (``pages(tr)``).

A page names slash commands by placeholders (``{challenge}``), filled with each command's name
as the reader's Discord client shows it: Discord lists the commands under their translated
names, so the page must call them the same.
"""

from __future__ import annotations

from typing import Final

from umtali.i18n import EN, N_, Tr
from umtali.rules_words import GAME_PAGES, game_titles

#: The text of each page, in English: the message ids. The game's own rules are the terminal's
#: too (``umtali.rules_words``); the last page is how to play on Discord.
_TEXTS: Final[tuple[str, ...]] = (
    *GAME_PAGES,
    N_("- `{challenge}` a member; they accept or decline with the buttons.\n"
       "- The table is one message, updated when each turn ends, in a thread made for the "
       "match; or where the challenge was made, when the server has threads off, the bot may "
       "not make threads there, the channel is a voice or stage channel's chat, or it is a "
       "thread already.\n"
       "- Your hand comes by direct message, and always through the **My hand** button: act "
       "with its buttons and menus, or type `{play}` with a move such as `draw`, `take`, "
       "`take 2`, `meld 8D 9D 10D`, `extend 7D 8D`, `discard KS` (your last card face "
       "down; `discard KS up` face up).\n"
       "- A turn has a time limit (five minutes unless the server or the challenge says "
       "otherwise); you are warned before it runs out, and running out forfeits the "
       "session. Under a time control with a reserve, the reserve is spent first once the "
       "turn's own time is up; by correspondence (a day a turn), the waiting player chooses "
       "with a button: **Claim the win** or **Keep waiting**.\n"
       "- `{resign}` gives the session to your opponent; `{table}` shows the table again.\n"
       "- `{practice}` plays a session against the computer: on your turn its **Hint** button "
       "tells you alone the move the hard computer would make, and after each hand a short "
       "review of your costliest moves comes by direct message.\n"
       "- `{stats}`, `{leaderboard}` and `{history}` show a record, the best players and past "
       "sessions (each with its replay file and deals file); `{display}` sets how your own "
       "panels look and lists whose challenges you stopped (offered when you decline one); "
       "`{unblock}` lifts such a stop.\n"
       "- Every deal can be checked: the bot posts a commitment (a fingerprint) of a "
       "session's seed on its challenge before anyone accepts (copy it then: the message is "
       "edited when the challenge is accepted), the member who accepts cuts the deck (typing "
       "their cut, or nothing), and when the session ends the bot reveals "
       "the seed and a salt. Anyone can check the seed with standard tools: "
       "`printf 'umtali-deals-v1:%s:%s' SALT SEED | sha256sum` prints the commitment (the "
       "reveal gives the line to copy); and every deal with the deals file and `python3 -m "
       "umtali verify` (see docs/FAIR_DEALS.md). The computer player never sees your cards."),
)

#: The slash commands a page names, by placeholder: the words of each command's path.
_COMMANDS: Final = {
    "challenge": ("umtali", "challenge"),
    "play": ("umtali", "play"),
    "resign": ("umtali", "resign"),
    "table": ("umtali", "table"),
    "practice": ("umtali", "practice"),
    "stats": ("umtali", "stats"),
    "leaderboard": ("umtali", "leaderboard"),
    "history": ("umtali", "history"),
    "display": ("umtali", "display"),
    "unblock": ("umtali", "unblock"),
}


def command(tr: Tr, path: tuple[str, ...]) -> str:
    """A slash command as ``tr``'s reader sees it in Discord: ``/umtali challenge``, each word
    the name Discord shows in that language."""
    return "/" + " ".join(tr.ctx("command", word) for word in path)


def titles(tr: Tr) -> tuple[str, ...]:
    """Each page's title. Short words like these mean other things elsewhere in the bot (a
    "Melds" field, a "Your turn" notice), so they carry a context of their own."""
    return (*game_titles(tr), tr.ctx("rules page", "Playing here"))


def pages(tr: Tr) -> list[tuple[str, str]]:
    """Every page's title and text in ``tr``'s language."""
    names = {key: command(tr, path) for key, path in _COMMANDS.items()}
    return [(title, tr(text, **names)) for title, text in zip(titles(tr), _TEXTS, strict=True)]


#: The pages in English (the bot's default).
PAGES: Final[tuple[tuple[str, str], ...]] = tuple(pages(EN))
