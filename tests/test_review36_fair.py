"""review36: a suspicious player following docs/FAIR_DEALS.md literally.

A typed cut holding a backtick is posted escaped: shown as typed all the same, spaces and
blank letters included (the doc: "the cut, exactly as typed, which the bot posts"). And a
replay file of a match that ended early cannot pass ``verify`` with an ending no match has (an
unknown ``how``, a resigned match without a winner); what it cannot check there (who gave up)
``verify`` says."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.fair import verify_file
from tests.discord_helpers import World, flush
from tests.test_fair_cut import accepted, offered, real_cuts, verified  # noqa: F401  (a fixture)
from umtali.rules import RuleSet
from umtali.seeds import cut_seed
from umtali.session import Session

SEED, SALT = "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"


def as_drawn(markdown: str) -> str:
    """Discord's text as a reader sees it: a backslash escape drawn as the sign it escapes,
    a zero-width space as nothing."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("\u200b", "")


@pytest.mark.usefixtures("real_cuts")
@pytest.mark.parametrize("typed", [
    "a`b  c",  # two spaces: a run of them is the cut's, not one
    "x`y\u3164z",  # a Hangul filler: a letter drawn blank, not a space
])
async def test_a_cut_with_a_backtick_is_posted_as_typed(world: World, typed: str) -> None:
    message, challenge_id = await offered(world)
    live, _ = await accepted(world, message, challenge_id, typed=typed)
    assert live.cut == typed
    await flush(world)
    posted = next(m for m in world.channel.history() if m.id == message.id)
    shown = "\n".join(e.description or "" for e in posted.embeds)
    [line] = [x for x in shown.splitlines() if "cut the deck:" in x]
    cut = line.split("cut the deck: ", 1)[1].split(". The cards come", 1)[0]
    assert as_drawn(cut) == typed, (cut, typed)


def resigned_file(tmp_path: Path, **result: Any) -> Path:
    """The replay file of a match resigned in its first hand, its ``result`` changed."""
    s = Session(RuleSet.english(), cut_seed(SEED, "ferry 7"))
    s.resign(1)
    data = json.loads(verify_file(s, ("ada", "bo"), SALT, cut="ferry 7"))
    assert data["result"] == {"winner": 0, "games_won": [0, 0], "how": "resigned"}
    data["result"].update(result)
    path = tmp_path / "umtali-7-deals.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("result", [
    {"how": "won on points"},  # no match ends so
    {"how": "won on points", "winner": 1},
    {"winner": -1},  # resigned, and nobody won
])
def test_an_ending_no_match_has_is_not_verified(tmp_path: Path, result: dict[str, Any]) -> None:
    code, said = verified(resigned_file(tmp_path, **result))
    assert code == 1 and "NOT VERIFIED" in said and "FAIR" not in said.replace(
        "NOT VERIFIED", ""), said


def test_who_resigned_is_said_to_be_the_files_word(tmp_path: Path) -> None:
    code, said = verified(resigned_file(tmp_path))
    assert code == 0 and "FAIR" in said, said
    # The moves do not say who gave up: a file naming the other winner checks all the same,
    # and verify says its winner is the file's word, not the moves'.
    code, flipped = verified(resigned_file(tmp_path, winner=1))
    assert code == 0, flipped
    assert "The moves cannot show who gave up: that is the file's word" in flipped, flipped
    assert "the file has bo (seat 1) giving it up" in said, said
    assert "the file has ada (seat 0) giving it up" in flipped, flipped


def test_an_empty_cut_is_no_cut_a_file_can_claim(tmp_path: Path) -> None:
    """A deck never cut, its file given ``"cut": ""``: verify said it was cut with the text a
    player typed, '', the cards coming from ``SEED/``, and FAIR; they come from the seed alone,
    which is what verify must say of a deck not cut (docs/FAIR_DEALS.md), or refuse."""
    s = Session(RuleSet.english(), SEED)
    s.resign(1)
    data = json.loads(verify_file(s, ("ada", "bo"), SALT))
    assert data["version"] == 1 and "cut" not in data
    path = tmp_path / "umtali-7-deals.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, said = verified(path)
    assert code == 0 and "The deck was not cut" in said, said
    data.update(version=2, cut="")
    path.write_text(json.dumps(data), encoding="utf-8")
    code, said = verified(path)
    assert code != 0 and "FAIR" not in said, said
    assert "typed, ''" not in said and f"{SEED}/." not in said, said
