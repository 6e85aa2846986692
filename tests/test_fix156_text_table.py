"""The table in text alone (pictures off, a screen reader, a phone's narrow embed) reads as
the picture does: each meld whole, in sequence order, on the line of the player who started
it, the other player's cards in it named; a meld's cards kept on one line (no-break spaces);
"no melds yet" in words; the games won with the names, as the other scores. Before, each
player's line listed their plays in order ("[J♠] +10♦ on J♦ …"), and a reader chained entries
across both lines to know what a meld was. English and Russian; the terminal's table too."""

from __future__ import annotations

import pytest

from cogs.umtali.names import MAX_NAME
from cogs.umtali.render import table_embed, turn_message
from umtali.cards import Card
from umtali.codec import session_from_json, session_to_json
from umtali.events import Extended, Melded
from umtali.i18n import tr_for
from umtali.melds import PlayKind
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.text import describe, render_view
from umtali.view import SPECTATOR

NAMES = ("ada", "ben")
NB = "\u00a0"


def _codes(*cards: str) -> list[str]:
    return [Card.parse(c).code for c in cards]


def _table() -> Session:
    """ada's lone J♠, which ben extended by 10♠ and 9♠ and ada by 8♠ and 7♠; ben's marriage
    Q♥ K♥, which ada extended by J♥; ben's group of fours."""
    data = session_to_json(Session(RuleSet.english(), 1))
    h = data["hand"]
    spades = _codes("JS", "10S", "9S", "8S", "7S")
    hearts = _codes("QH", "KH", "JH")
    fours = _codes("4S", "4H", "4C")
    melds = [{"shape": "run", "cards": spades}, {"shape": "run", "cards": hearts},
             {"shape": "set", "cards": fours}]
    plays = [
        {"player": 0, "kind": "jack", "cards": spades[:1], "meld": 0, "points": 5},
        {"player": 1, "kind": "marriage", "cards": hearts[:2], "meld": 1, "points": 20},
        {"player": 1, "kind": "extension", "cards": [spades[1]], "meld": 0, "points": 5},
        {"player": 0, "kind": "extension", "cards": [hearts[2]], "meld": 1, "points": 5},
        {"player": 1, "kind": "extension", "cards": [spades[2]], "meld": 0, "points": 1},
        {"player": 1, "kind": "group", "cards": fours, "meld": 2, "points": 3},
        {"player": 0, "kind": "extension", "cards": [spades[3]], "meld": 0, "points": 1},
        {"player": 0, "kind": "extension", "cards": [spades[4]], "meld": 0, "points": 1},
    ]
    laid = {c for m in melds for c in m["cards"]}
    rest = [c.code for c in (Card(i) for i in range(52)) if c.code not in laid]
    h.update(melds=melds, plays=plays, hands=[rest[:5], rest[5:10]], stock=rest[10:40],
             discard=rest[40:], points=[12, 28], phase="draw", turn=0, taken=None,
             must_meld=[], drawn=[], face_down=False)
    return session_from_json(data)


def _fields(session: Session, lang: str) -> list[str]:
    embed = table_embed(session.view(SPECTATOR), NAMES, 1, tr=tr_for(lang))
    return [f.value or "" for f in embed.fields]


@pytest.mark.parametrize(("lang", "ben", "ada"), [
    # In no brackets (fix187): a computer's name carries its level in its own.
    ("en", f"9♠{NB}10♠{NB}laid{NB}by{NB}ben", f"J♥{NB}laid{NB}by{NB}ada"),
    ("ru", f"9♠{NB}10♠{NB}—{NB}выложено:{NB}ben", f"J♥{NB}—{NB}выложено:{NB}ada"),
])
def test_each_meld_reads_whole_on_its_starters_line(lang: str, ben: str, ada: str) -> None:
    fields = _fields(_table(), lang)
    spades = NB.join(["7♠", "8♠", "9♠", "10♠", "J♠"])
    hearts = NB.join(["J♥", "Q♥", "K♥"])
    fours = NB.join(["4♠", "4♥", "4♣"])
    assert fields[0] == f"[{spades}] {ben}", fields[0]
    assert fields[1] == f"[{hearts}]×2 {ada} [{fours}]", fields[1]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_terminals_table_reads_the_same(lang: str) -> None:
    tr = tr_for(lang)
    text = render_view(_table().view(1), NAMES, tr)
    spades = NB.join(["7♠", "8♠", "9♠", "10♠", "J♠"])
    assert f"[{spades}] 9♠{NB}10♠{NB}" in text, text
    assert "+10♠" not in text and "+J♥" not in text, text


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_meld_of_real_play_is_on_one_line_whole(lang: str) -> None:
    """Greedy sessions: after every turn that laid a card, each meld on the table is in its
    starter's field, whole, its cards on one line; no ordinary space inside its brackets."""
    extensions = 0
    for seed in range(3):
        session = Session(RuleSet.english(), seed)
        while not session.over:
            seat = session.to_act
            events = session.apply(GreedyPlayer().choose(session.view(seat)), seat)
            if not any(isinstance(e, Extended | Melded) for e in events) or \
                    session.hand.plays == []:
                continue
            extensions += sum(isinstance(e, Extended) for e in events)
            view = session.view(SPECTATOR)
            fields = _fields(session, lang)[:2]
            starters = {p.meld: p.player for p in view.plays if p.kind is not PlayKind.EXTENSION}
            for meld in view.melds:
                shown = "[" + NB.join(str(c) for c in meld.cards) + "]"
                mine = fields[starters[meld.index]]
                assert shown in mine, (shown, mine)
                assert shown not in fields[1 - starters[meld.index]]
            for field in fields:
                for inside in field.split("[")[1:]:
                    assert " " not in inside.split("]")[0], field
    assert extensions >= 10


@pytest.mark.parametrize(("lang", "empty", "won"), [
    ("en", "no melds yet", "Games won: ada 0 – 0 ben"),
    ("ru", "комбинаций пока нет", "Выиграно партий: ada 0:0 ben"),
])
def test_no_melds_and_the_games_won_in_words(lang: str, empty: str, won: str) -> None:
    fields = _fields(Session(RuleSet.english(), 5), lang)
    assert fields[0] == fields[1] == empty
    assert won in fields[-1], fields[-1]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_announced_meld_is_not_wrapped_inside(lang: str) -> None:
    """The turn's announcement in the channel: a new meld's cards joined by no-break spaces
    (a phone wrapped "ada melds 4♠ 4♥" / "4♣"); the terminal's and the logs' plain spaces."""
    cards = tuple(Card.parse(c) for c in ("4S", "4H", "4C"))
    event = Melded(player=0, kind=PlayKind.GROUP, cards=cards, points=3)
    said = turn_message([event], NAMES, tr_for(lang))
    assert NB.join(["4♠", "4♥", "4♣"]) in said, said
    assert "4♠ 4♥ 4♣" in describe(event, NAMES, tr_for(lang))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_most_notes_with_the_longest_names_fit_a_field(lang: str) -> None:
    """Thirteen groups of four, ada's three and ben's fourth in each, under names of markdown
    characters at their longest (each escaped, twice as long): the notes say "the other
    player" rather than be cut at the field's 1,024."""
    tr = tr_for(lang)
    data = session_to_json(Session(RuleSet.english(), 1))
    h = data["hand"]
    melds, plays = [], []
    for rank in range(1, 14):
        cards = [Card.of(rank, suit).code for suit in range(4)]
        melds.append({"shape": "set", "cards": cards})
        plays.append({"player": 0, "kind": "group", "cards": cards[:3], "meld": rank - 1,
                      "points": 3})
        plays.append({"player": 1, "kind": "extension", "cards": cards[3:], "meld": rank - 1,
                      "points": 1})
    h.update(melds=melds, plays=plays, hands=[[], []], stock=[], discard=[], points=[0, 0],
             phase="meld", turn=1, taken=None, must_meld=[], drawn=[], face_down=False)
    session = session_from_json(data)
    names = ("*" * MAX_NAME, "_" * MAX_NAME)
    field = table_embed(session.view(SPECTATOR), names, 1, tr=tr).fields[0].value or ""
    other = tr("{cards} laid by the other player", cards="K♣").replace(" ", NB)
    assert len(field) <= 1024 and field.count(other[3:]) == 13, field
    assert field.endswith(f"[K♠{NB}K♥{NB}K♦{NB}K♣] {other}"), field
    # With short names, the names.
    short = table_embed(session.view(SPECTATOR), NAMES, 1, tr=tr).fields[0].value or ""
    assert short.count("ben") == 13, short
