"""When a hand ends, one public summary: how it ended, each player's points (melded,
marriages, the leftovers scored by who went out), the cards left in each hand, the scores."""

from __future__ import annotations

from umtali import RuleSet, Session
from umtali.events import HandEnded
from umtali.i18n import tr_for
from umtali.players import GreedyPlayer
from umtali.text import ACCOUNT, cards_text, describe

NAMES = ("ada", "ben")


def hands_ended(seed: int, rules: RuleSet) -> list[HandEnded]:
    session, ended = Session(rules, seed), []
    while not session.over:
        for e in session.apply(GreedyPlayer().choose(session.view(session.to_act))):
            if isinstance(e, HandEnded):
                ended.append(e)
    return ended


def test_each_player_is_accounted_for_with_the_cards_left() -> None:
    seen_left = seen_marriage = seen_leftover = 0
    for seed in range(6):
        for e in hands_ended(seed, RuleSet.english()):
            head, *accounts = describe(e, NAMES).split("\n")
            assert head.startswith(f"Hand {e.hand} over:")
            assert len(accounts) == 2 and all(a.startswith(ACCOUNT) for a in accounts)
            for seat, line in enumerate(accounts):
                assert line.startswith(f"{ACCOUNT}{NAMES[seat]}: {e.melded[seat]} point")
                left = e.left_in_hand[seat]
                assert (f"holds {cards_text(left)}." if left else "holds nothing.") in line
                seen_left += bool(left)
                if e.marriages[seat]:
                    seen_marriage += 1
                    assert f"{e.marriages[seat]} marriage" in line
                if e.went_out == seat and e.leftover:
                    seen_leftover += 1
                    assert f"{e.leftover} point" in line and "for cards left" in line
    assert seen_left and seen_marriage and seen_leftover


def test_the_summary_in_russian_has_its_plural_forms() -> None:
    ru = tr_for("ru")
    e = next(e for e in hands_ended(1, RuleSet.russian()) if any(e.left_in_hand))
    accounts = describe(e, NAMES, tr=ru).split("\n")[1:]
    for seat, line in enumerate(accounts):
        assert "очк" in line and "на руке" in line
        assert ru.plural("{count} point melded", "{count} points melded",
                         e.melded[seat]) in line
