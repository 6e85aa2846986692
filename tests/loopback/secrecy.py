"""What the bot said in public names no card in a hand: a scan of the loopback's REST calls.

A card once seen face up in a hand (on the pile, on the table) is known to both players from
then on, so only cards never shown are secret; a card taken from the pile stays known.
Shared by the two-process test (tests/test_processes_postgres.py) and the soak
(tests/loopback/soak.py).
"""

from __future__ import annotations

import json

from tests.loopback.server import LoopbackDiscord
from tests.test_discord_play import CARD_TEXT, without_accounts
from umtali.cards import CARDS, iter_cards
from umtali.session import Session


def in_hands(session: Session) -> set[str]:
    return {str(CARDS[c]) for seat in (0, 1) for c in iter_cards(session.hand.hands[seat])}


class Secrecy:
    """The public channels and how far the server's calls were scanned."""

    def __init__(self, server: LoopbackDiscord) -> None:
        self.server = server
        self.public: set[int] = set()
        self.scanned = 0
        self.scans = 0
        #: Cards seen face up on the pile or the table, by hand: a card taken from the pile is
        #: known to be in the taker's hand, and a table drawn a moment late may still show it
        #: on the pile. Only cards never shown are secret.
        self.shown: dict[tuple[int, int], set[str]] = {}

    def show(self, session: Session) -> set[str]:
        """Note what ``session`` shows face up; return all shown so far in its hand."""
        h = session.hand
        pile = list(h.discard_pile)
        if h.face_down and pile:
            pile.pop()
        table = 0
        for m in h.melds:
            table |= m.cards
        shown = self.shown.setdefault((session.game, session.hand_no), set())
        shown |= {str(CARDS[c]) for c in pile} | {str(CARDS[c]) for c in iter_cards(table)}
        return shown

    def history(self, session: Session) -> None:
        """Note what every position of ``session`` showed face up: a table edit that reaches
        Discord late (another process's, drawn a moment before the next move was shown) may
        show any of them."""
        replayed = Session(session.rules, session.seed, session.first_deal)
        self.show(replayed)
        for move in session.moves:
            replayed.apply(move)
            self.show(replayed)

    def stale(self, call_method: str, named: set[str], current: tuple[int, int]) -> bool:
        """Whether an edit naming ``named`` shows an earlier hand as it was: every card it
        names was face up in that hand (noted by ``history``). Such an edit, come late, is
        no leak: it tells what that hand showed everybody (and is shown again as saved)."""
        return call_method == "PATCH" and any(
            named <= shown for hand, shown in self.shown.items() if hand != current)

    def skip_scan(self) -> None:
        self.scanned = len(self.server.calls)

    def leaks(self, secret: set[str], current: tuple[int, int] | None = None) -> list[str]:
        """What the bots posted or edited in public since the last scan that names one of the
        ``secret`` cards: each such message's text. ``current``: the hand in play (game,
        hand), an edit showing an earlier one as it was not counted (``stale``)."""
        calls = self.server.calls[self.scanned:]
        self.scanned += len(calls)
        found = []
        for call in calls:
            body = call.body if isinstance(call.body, dict) else {}
            parts = call.path.strip("/").split("/")
            to_channel = (call.method in ("POST", "PATCH") and parts[0] == "channels"
                          and int(parts[1]) in self.public and "messages" in parts)
            data = body.get("data") or {}
            public_reply = (parts[0] == "interactions" and body.get("type") == 4
                            and not int(data.get("flags") or 0) & 64)
            if not (to_channel or public_reply) or call.given_back:
                # (a post sent again with its nonce shows nothing new: the first one was
                # judged as it was made, of the position it told)
                continue
            self.scans += 1
            text = json.dumps(without_accounts(body), ensure_ascii=False)
            named = {x.group(0) for x in CARD_TEXT.finditer(text)}
            if (leaked := named & secret) and not (
                    current is not None and self.stale(call.method, named, current)):
                found.append(f"{sorted(leaked)} in public message: {text}")
        return found

    def scan(self, secret: set[str]) -> None:
        """What the bots posted or edited in public since the last scan names none of the
        ``secret`` cards (those in a hand before and after the move just made)."""
        leaked = self.leaks(secret)
        assert not leaked, leaked[0]
