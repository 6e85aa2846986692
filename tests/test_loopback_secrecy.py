"""The soak's check that nothing public names a card in a hand (tests/loopback/secrecy.py):
a post sent again with its nonce, given back the first message, shows nothing new."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

from tests.loopback.records import Call
from tests.loopback.secrecy import Secrecy
from tests.loopback.server import LoopbackDiscord

ANNOUNCED = {"content": "eve melds 3♠ 3♥ 3♣, a group, +3.\neve goes out!"}


def scanned(*calls: Call) -> list[str]:
    server = cast(LoopbackDiscord, SimpleNamespace(calls=list(calls)))
    secrecy = Secrecy(server)
    secrecy.public.add(5)
    return secrecy.leaks({"3♥"})


def test_a_post_naming_a_card_in_a_hand_is_a_leak() -> None:
    [leak] = scanned(Call("POST", "/channels/5/messages", {}, ANNOUNCED))
    assert leak.startswith("['3♥'] in public message")


def test_a_post_sent_again_with_its_nonce_shows_nothing_new() -> None:
    """A second process posting an announcement the first one posted (the same nonce), after
    the next hand was dealt with 3♥ in a hand: Discord gives back the first message."""
    assert scanned(Call("POST", "/channels/5/messages", {}, ANNOUNCED, given_back=True)) == []
