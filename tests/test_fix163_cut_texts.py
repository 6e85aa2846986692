"""Long texts cut where a reader loses least (fix163), not by a bare ``text[:2000]``: that cut
mid-word, mid-name, inside a mention or an escape, left a right-to-left name's isolate open,
and dropped the text's last line, often the one that matters. The time-up question's answer
kept whole after a question grown long; a practice review's lessons each whole, the rest
counted; a stats line, a Stop button's label. SimCord, a real SQLite file, where the bot
answers; ``text_cuts`` on hostile texts."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cogs.umtali import question_message, time_up_answer
from cogs.umtali.coach_review import review_text
from cogs.umtali.coach_work import Lesson
from cogs.umtali.names import FSI, PDI, label_name, safe_name
from cogs.umtali.records import whole_lines
from cogs.umtali.stops import StopButton
from cogs.umtali.text_cuts import head, with_end
from tests.discord_helpers import World, flush, player, thread_of
from tests.time_control_helpers import button, time_up
from umtali import RuleSet, Session
from umtali.i18n import EN, Text, tr_for
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

RU = tr_for("ru")
#: A hostile display name: markdown, a mention, a link, right-to-left letters.
HOSTILE = "**@everyone** <@1> ||x|| `y` https://e.x/ שרה"


def _long_question(live: Any, absent: int, tr: Any) -> str:
    """The question grown long (a language's longer words, a long name): over 2,000."""
    name = safe_name(live.names_in(tr)[absent])
    return f"<@{live.player_ids[1 - absent]}>, " + " ".join([f"{name}'s time is up."] * 150)


def _balanced(text: str) -> None:
    """Nothing the cut left open: markdown pairs, a mention, an escape, an isolate."""
    plain = re.sub(r"\\.", "", text)
    for sign in ("**", "||", "`"):
        assert plain.count(sign) % 2 == 0, (sign, text[-80:])
    assert plain.rfind("<") <= plain.rfind(">"), text[-80:]
    assert text.count(FSI) == text.count(PDI), text[-80:]


@pytest.mark.parametrize("action", ["claim", "wait"])
async def test_the_answer_to_a_long_time_up_question_is_kept_whole(
        world: World, monkeypatch: pytest.MonkeyPatch, action: str) -> None:
    live, question = await time_up(world)
    absent = live.session.to_act
    monkeypatch.setattr(time_up_answer, "question", _long_question)
    clicked = await player(world, 1 - absent).click(question,
                                                    custom_id=button(question, action))
    assert clicked.acknowledged
    await flush(world)
    [shown] = [m for m in thread_of(world, live).history() if m.id == question.id]
    said = shown.content
    assert len(said) <= 2000 and said.startswith(f"<@{live.player_ids[1 - absent]}>, ")
    # The answer, whole, on the last line: who chose what (and until when, waiting).
    last = said.split("\n")[-1]
    if action == "claim":
        assert last.endswith("claimed the win."), said[-200:]
    else:
        assert re.search(r"keeps waiting: .*'s turn now ends <t:\d+:[a-zA-Z]>\.$", last), \
            said[-200:]
    _balanced(said)


async def test_a_long_withdrawn_question_still_says_why(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live, question = await time_up(world)
    absent = live.session.to_act
    monkeypatch.setattr(question_message, "question", _long_question)
    move = GreedyPlayer().choose(live.session.view(absent))
    assert move.kind is not MoveKind.DISCARD
    moved = await player(world, absent).slash(world.channel, "umtali play", move=str(move))
    assert moved.acknowledged
    await flush(world)
    [shown] = [m for m in thread_of(world, live).history() if m.id == question.id]
    assert len(shown.content) <= 2000, len(shown.content)
    assert "is back at the table and playing" in shown.content.split("\n")[-1], \
        shown.content[-200:]


def _lessons(count: int) -> list[Lesson]:
    """``count`` costly moves of one hand, each with a long reason."""
    session = Session(RuleSet.english(), 7)
    found: list[Lesson] = []
    while len(found) < count and not session.over:
        view = session.view(session.to_act)
        moves = view.legal_moves
        played = GreedyPlayer().choose(view)
        better = next((m for m in moves if m != played), played)
        why = Text.of("{why}", why=" ".join(["the stock held what you needed"] * 8))
        found.append(Lesson(len(found) + 1, view, played, better, 12.0, why, len(found), 0.5))
        session.apply(played, session.to_act)
    return found


@pytest.mark.parametrize("tr", [EN, RU], ids=["en", "ru"])
def test_a_long_review_keeps_each_lesson_whole_and_counts_the_rest(tr: Any) -> None:
    found = _lessons(30)
    text = review_text(tr, (1, 2), found)
    assert len(text) <= 2000
    lines = text.split("\n")
    whole = review_text(tr, (1, 2), found[:len(lines) - 2])
    # Every lesson shown is the one the whole review would say, word for word.
    assert lines[:-1] == whole.split("\n"), lines[-2:]
    more = len(found) - (len(lines) - 2)
    assert lines[-1] == tr.plural("…and {count} more costly move",
                                  "…and {count} more costly moves", more), lines[-1]
    assert review_text(tr, (1, 2), found[:2]).count("\n") == 2  # short: all of it, as before


def test_a_stats_line_too_long_is_cut_before_its_timestamp() -> None:
    line = "`#7` against " + safe_name(HOSTILE) * 30 + " · won · <t:1796631620:R>"
    kept = whole_lines([line, "`#6` against ben"], 1024)
    assert len(kept) <= 1024 and kept.endswith("…") and "<t:" not in kept, kept[-60:]
    _balanced(kept)


def test_a_stop_buttons_long_right_to_left_name_keeps_its_isolate_closed() -> None:
    name = label_name("א" + "@" * 31)
    for tr in (EN, RU):
        label = StopButton(1, name, tr).item.label or ""
        assert len(label) <= 80 and label.count(FSI) == label.count(PDI), label


@pytest.mark.parametrize("limit", [40, 100, 333, 1024, 2000])
@pytest.mark.parametrize("joint", ["\n", " "], ids=["lines", "one line"])
def test_head_never_leaves_anything_open(limit: int, joint: str) -> None:
    items = [f"<@{k}> **{safe_name(HOSTILE + str(k))}** `{k}` ||{k}|| <t:{k}:R>"
             for k in range(60)]
    for count in range(1, len(items)):
        text = joint.join(items[:count])
        cut = head(text, limit)
        assert len(cut) <= limit, (limit, len(cut))
        if cut == text:
            continue
        _balanced(cut)
        kept = cut.rstrip("*|`\u2069").removesuffix("…").rstrip("\n")
        assert text.startswith(kept) and kept, (kept[-40:], limit)
        if joint == "\n" and limit >= 333:
            assert cut.endswith("\n…") and text.startswith(kept + "\n"), cut[-60:]


def test_with_end_keeps_the_last_line_whole() -> None:
    body = " ".join(["word"] * 1000)
    assert with_end(body, "the answer.", 2000).endswith("…\nthe answer.")
    assert len(with_end(body, "the answer.", 2000)) <= 2000
    assert with_end("short", "end", 2000) == "short\nend"
    assert head("a b c", 10) == "a b c"
