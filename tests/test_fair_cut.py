"""The player cuts the deck: a challenge carries the commitment to its session's seed from the
moment it is posted, before anyone can accept; the accepting click's id (made by Discord) is
the cut, and the session is dealt from the seed and the cut. The seed shows nowhere before the
end; the replay file records the cut, verifies, and fails, naming where, if the cut is edited.
A challenge declined keeps no seed; a restart between offer and accept keeps the sealed one."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import (
    World,
    accept,
    challenge,
    custom_ids,
    flush,
    play_out,
    the_match,
    thread_of,
)
from tests.test_fair_deals_bot import REAL_NEW_SEED, everything_said
from tests.test_records_discord import resign, restart
from umtali.cards import CARDS
from umtali.cli import main
from umtali.fairness import commit
from umtali.replay import from_session
from umtali.rules import RuleSet
from umtali.session import Session

REAL_CUT = MatchService.cut_of


@pytest.fixture
def real_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Secret seeds, and the clicks' own ids as cuts (tests elsewhere deal uncut, alike)."""
    monkeypatch.setattr(MatchService, "new_seed", REAL_NEW_SEED)
    monkeypatch.setattr(MatchService, "cut_of", REAL_CUT)


def description(message: Any) -> str:
    return "\n".join(json.dumps(e.to_dict(), ensure_ascii=False) for e in message.embeds)


async def offered(world: World) -> tuple[Any, int]:
    """ada challenges ben: the challenge's message, and the challenge's id."""
    result = await challenge(world, world.alice, world.bob)
    accept = next(c for c in custom_ids(result.response) if c.endswith(":accept"))
    return result.response, int(accept.split(":")[2])


async def accepted(world: World, message: Any, challenge_id: int,
                   typed: str = "") -> tuple[LiveMatch, int]:
    """ben accepts, typing ``typed`` as his cut: the match, and the id of his submit."""
    answer = await accept(world.bob, message, typed)
    assert answer.acknowledged and not answer.ephemeral, answer.response
    await flush(world)
    return the_match(world), int(answer._interaction.id)


def verified(path: Path) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["verify", str(path)], io.StringIO(), out)
    return code, out.getvalue()


@pytest.mark.usefixtures("real_cuts")
async def test_sealed_on_the_challenge_cut_by_the_accepting_click_and_verified(
        world: World, tmp_path: Path) -> None:
    message, challenge_id = await offered(world)
    store = world.bot.matches.store  # type: ignore[union-attr]
    ch = await store.challenge(challenge_id)
    assert ch is not None and ch.seed and ch.commitment == commit(ch.seed, ch.salt)
    # Posted on the challenge itself, before anyone accepted; the seed and salt nowhere.
    assert world.bot.matches is not None and not world.bot.matches.matches
    assert ch.commitment in description(message)
    before = everything_said(world)
    assert ch.seed not in before and ch.salt not in before

    live, click = await accepted(world, message, challenge_id)
    # The click is the cut: saved with the match, and the session dealt from seed and cut.
    assert live.cut == str(click) and live.commitment == ch.commitment
    assert live.session.seed == f"{ch.seed}/{click}"
    saved = await store.match(live.id)
    assert saved is not None and saved.cut == str(click) and saved.salt == ch.salt
    expected = Session(RuleSet.english(), f"{ch.seed}/{click}")
    assert live.session.dealer_draws == expected.dealer_draws
    shown = description(next(m for m in world.channel.history() if m.id == message.id))
    assert "ben cut the deck typing nothing: cut `" + str(click) in shown
    assert ch.commitment in shown
    first = expected.dealer_draws[0]
    assert f"ada {CARDS[first[0]]}, ben {CARDS[first[1]]}" in shown

    await play_out(world, live, moves=8)
    during = everything_said(world)
    assert ch.seed not in during and ch.salt not in during
    await resign(world, world.bob, live)
    [reveal] = [m.content for m in thread_of(world, live).history()
                if m.content and ch.seed in m.content]
    assert f"seed `{ch.seed}`" in reveal and f"cut `{click}`" in reveal and ch.salt in reveal

    history = await world.alice.slash(world.channel, "umtali history")
    chosen = await world.alice.select(history.response, [str(live.id)],
                                      custom_id=f"umtali:rp:{world.guild.id}")
    files = {a.filename: await a.read() for a in chosen.response.attachments}
    data: dict[str, Any] = json.loads(files[f"umtali-{live.id}-deals.json"])
    assert data["version"] == 2 and data["cut"] == str(click)
    assert data["reveal"]["seed"] == ch.seed and data["commitment"] == ch.commitment
    path = tmp_path / "deals.json"
    path.write_text(json.dumps(data))
    code, said = verified(path)
    assert code == 0 and "FAIR" in said and f"{ch.seed}/{click}" in said, said

    # The cut edited: other cards. The draw for first dealer is checked first... (a cut whose
    # draw differs: with a random seed, the next one's may draw the same two cards)
    other = next(str(c) for c in range(click + 1, click + 100) if Session(
        RuleSet.english(), f"{ch.seed}/{c}").dealer_draws != expected.dealer_draws)
    data["cut"] = other
    path.write_text(json.dumps(data))
    code, said = verified(path)
    assert code == 1 and "NOT VERIFIED" in said, said
    assert "The draw for first dealer is not the one the seed gives." in said, said
    # ...and with that draw made to match the edited cut, the first hand is named.
    forged = Session(RuleSet.english(), f"{ch.seed}/{other}")
    data["dealer_draw"] = {"draws": [[CARDS[a].code, CARDS[b].code]
                                     for a, b in forged.dealer_draws],
                           "dealer": forged.first_dealer}
    path.write_text(json.dumps(data))
    code, said = verified(path)
    assert code == 1 and "Game 1, hand 1:" in said, said


@pytest.mark.usefixtures("real_cuts")
async def test_a_declined_challenge_keeps_no_seed_and_shows_none(world: World) -> None:
    message, challenge_id = await offered(world)
    store = world.bot.matches.store  # type: ignore[union-attr]
    ch = await store.challenge(challenge_id)
    assert ch is not None and ch.seed
    answer = await world.bob.click(message, custom_id=f"umtali:c:{challenge_id}:decline")
    assert answer.acknowledged
    closed = await store.challenge(challenge_id)
    assert closed is not None and closed.status == "declined"
    # Nothing was dealt from it: the seed is gone, and was never said.
    assert (closed.seed, closed.salt) == ("", "") and closed.commitment == ch.commitment
    said = everything_said(world)
    assert ch.seed not in said and ch.salt not in said and ch.commitment in said


@pytest.mark.usefixtures("real_cuts")
async def test_a_restart_between_offer_and_accept_keeps_the_sealed_seed(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    message, challenge_id = await offered(world)
    store = world.bot.matches.store  # type: ignore[union-attr]
    ch = await store.challenge(challenge_id)
    assert ch is not None
    await restart(world, make_bot)
    live, click = await accepted(world, message, challenge_id)
    # The commitment on the message is the one the match is played under.
    assert live.commitment == ch.commitment and live.commitment in description(message)
    assert live.session.seed == f"{ch.seed}/{click}" and live.salt == ch.salt


async def test_a_challenge_from_before_seeds_were_sealed_is_dealt_as_then(
        world: World) -> None:
    """A challenge saved before migration 13 has no seed: accepted, it draws one then."""
    message, challenge_id = await offered(world)
    store = world.bot.matches.store  # type: ignore[union-attr]
    async with store.db.transaction() as c:
        await c.execute("UPDATE challenges SET seed = '', salt = '', commitment = '' "
                        "WHERE id = ?", (challenge_id,))
    live, _ = await accepted(world, message, challenge_id)
    assert live.cut == "" and live.commitment == commit(live.session.seed, live.salt)
    shown = description(next(m for m in world.channel.history() if m.id == message.id))
    assert f"Deals sealed: a fingerprint of this session's shuffles, beginning " \
        f"{live.commitment[:8]}," in shown and f"`{live.commitment}`" in shown
    assert "cut the deck" not in shown


def test_an_uncut_file_is_written_and_verified_as_before(tmp_path: Path) -> None:
    session = Session(RuleSet.english(), 7)
    salt = "ab" * 16
    data = from_session(session, ("ada", "ben"), commit(7, salt))
    data["reveal"] = {"seed": 7, "salt": salt}
    assert data["version"] == 1 and "cut" not in data
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    code, said = verified(path)
    assert code == 0 and "FAIR" in said, said
    # Said, so that a file leaving out a cut the player made does not pass unnoticed.
    assert "The deck was not cut: the cards come from the seed alone" in said, said
    # A cut given to it (version 1 knows none) is not read: the seed alone deals.
    data["cut"] = "12345"
    path.write_text(json.dumps(data))
    assert verified(path)[0] == 0


def test_a_cut_file_checks_in_english_with_the_standard_library_alone(tmp_path: Path) -> None:
    """As the docs say: ``python3 -S -E -m umtali verify`` (no site packages, no environment)
    plays a cut file from its seed and cut."""
    seed, salt, cut = "0f" * 16, "ab" * 16, "1445123456789012345"
    session = Session(RuleSet.english(), f"{seed}/{cut}")
    data = from_session(session, ("ada", "ben"), commit(seed, salt), cut=cut)
    data["reveal"] = {"seed": seed, "salt": salt}
    assert data["version"] == 2 and data["cut"] == cut
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(data))
    env = {k: v for k, v in os.environ.items()
           if k not in ("LC_ALL", "LC_MESSAGES", "LANG") and not k.startswith("PYTHON")}
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-S", "-E", "-s", "-m", "umtali", "verify", str(path)],
                          cwd=root, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert f"The deck was cut at {cut}" in done.stdout and "FAIR:" in done.stdout
