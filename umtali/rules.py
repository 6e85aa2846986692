"""Rule sets: every rule choice is data, stored with the game it governs."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from umtali.errors import InvalidStateError
from umtali.i18n import EN, N_, Text, Tr


class DealStyle(Enum):
    #: English default: 10 cards each and an 11th to the non-dealer, who starts without drawing.
    ELEVEN = "eleven"
    #: Russian variant: 10 cards each and one card turned up to start the discard pile.
    UPCARD = "upcard"


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str = "english"
    deal: DealStyle = DealStyle.ELEVEN
    #: In the draw for first dealer: True = higher card deals, ace high (English);
    #: False = lower card deals, ace low (Russian).
    high_card_deals: bool = True
    #: House rule: a player may keep meldable cards and end the turn.
    optional_melding: bool = False
    hands_per_game: int = 4
    games_to_win: int = 2
    #: Turns in a row with no stock draw and no card laid after which a hand ends stalled.
    stall_turns: int = 12

    @staticmethod
    def english(*, optional_melding: bool = False) -> RuleSet:
        return RuleSet(optional_melding=optional_melding)

    @staticmethod
    def russian(*, optional_melding: bool = False) -> RuleSet:
        return RuleSet(
            name="russian",
            deal=DealStyle.UPCARD,
            high_card_deals=False,
            optional_melding=optional_melding,
        )

    @staticmethod
    def named(variant: str, *, optional_melding: bool = False) -> RuleSet:
        if variant == "english":
            return RuleSet.english(optional_melding=optional_melding)
        if variant == "russian":
            return RuleSet.russian(optional_melding=optional_melding)
        raise ValueError(f"unknown variant {variant!r}: choose english or russian")

    def to_json(self) -> dict[str, Any]:
        # Saved with every move: a plain field walk, as ``asdict`` costs several times more.
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["deal"] = self.deal.value
        return d

    @staticmethod
    def from_json(data: dict[str, Any]) -> RuleSet:
        """The rule set ``to_json`` wrote; ``InvalidStateError`` names what is wrong in words
        (never Python's: an unexpected keyword argument, a value no ``DealStyle`` has)."""
        if not isinstance(data, dict):
            raise InvalidStateError(Text.of("bad rule set: the rules are an object, each rule "
                                            "by its name"))
        names = {f.name for f in fields(RuleSet)}
        if unknown := sorted(str(name) for name in data if name not in names):
            raise InvalidStateError(Text.of("bad rule set: there is no rule {rule}",
                                            rule=json.dumps(unknown[0])))
        if "deal" not in data:
            raise InvalidStateError(Text.of("bad rule set: no \"deal\""))
        values = dict(data)
        try:
            values["deal"] = DealStyle(values["deal"])
        except (TypeError, ValueError):
            raise InvalidStateError(Text.of(
                "bad rule set: the rule {rule} cannot be {value}", rule="deal",
                value=json.dumps(values["deal"], default=str))) from None
        return RuleSet(**values)

    def describe(self) -> str:
        """The rule set in short (``english``, ``russian, optional melding``): what a view
        carries; ``worded`` puts it into a reader's words."""
        parts = [self.name]
        if self.optional_melding:
            parts.append("optional melding")
        return ", ".join(parts)


_WORDS = {"english": N_("English rules"), "russian": N_("Russian rules"),
          "optional melding": N_("optional melding")}


def worded(described: str, tr: Tr = EN) -> str:
    """``RuleSet.describe()`` in the reader's words: "Russian rules, optional melding"."""
    return ", ".join(tr(_WORDS[p]) if p in _WORDS else p for p in described.split(", "))
