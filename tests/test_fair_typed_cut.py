"""The player types their own cut: **Accept** (and a practice's **Cut the deck**) opens a modal
asking for it; the text submitted, and nothing of the bot's, is the cut: saved with the match,
posted, in the replay file, and `verify` plays the deal from it. Left empty, the cut is the
submit's id, as before. Text that could not be shown or kept as typed is refused privately,
changing nothing; markdown and mentions in a cut are shown inert."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.fair import shown_cut
from tests.discord_helpers import World, accept, custom_ids, cut, flush, the_match, thread_of
from tests.test_fair_cut import accepted, description, offered, real_cuts, verified  # noqa: F401  (a fixture)
from tests.test_records_discord import resign, restart
from umtali.errors import InvalidStateError
from umtali.fairness import commit
from umtali.replay import from_json, from_session
from umtali.rules import RuleSet
from umtali.seeds import CLICK_DIGITS, MAX_TYPED, clicked, cut_seed, cut_time, typed_cut
from umtali.session import Session

TYPED = "ben's ferry 7 ё"


def shown_now(world: World, message: Any) -> str:
    return description(next(m for m in world.channel.history() if m.id == message.id))


@pytest.mark.usefixtures("real_cuts")
async def test_the_cut_typed_on_accepting_is_the_cut_posted_saved_and_verified(
        world: World, tmp_path: Path) -> None:
    message, challenge_id = await offered(world)
    store = world.bot.matches.store  # type: ignore[union-attr]
    ch = await store.challenge(challenge_id)
    assert ch is not None and ch.seed

    # Accept opens the modal, asking for the cut; nothing is decided by the click.
    button = next(c for c in custom_ids(message) if c.endswith(":accept"))
    clicked = await world.bob.click(message, custom_id=button)
    modal = clicked.modal
    assert modal is not None and modal["title"] == "Cut the deck", modal
    [field] = [c for row in modal["components"] for c in row.get("components", [])]
    assert field["custom_id"] == "cut" and field["max_length"] == MAX_TYPED
    assert not field.get("required", True)
    assert world.bot.matches is not None and not world.bot.matches.matches
    submitted = await world.bob.submit_modal(clicked, {"cut": f"  {TYPED} "})
    assert submitted.acknowledged and not submitted.ephemeral
    await flush(world)

    live = the_match(world)
    # Exactly what ben typed (spaces around it dropped), nothing of the bot's.
    assert live.cut == TYPED and live.session.seed == f"{ch.seed}/{TYPED}"
    saved = await store.match(live.id)
    assert saved is not None and saved.cut == TYPED
    assert f"ben cut the deck: `{TYPED}`" in shown_now(world, message)
    assert Session(RuleSet.english(), f"{ch.seed}/{TYPED}").dealer_draws == \
        live.session.dealer_draws

    await resign(world, world.bob, live)
    [reveal] = [m.content for m in thread_of(world, live).history()
                if m.content and ch.seed in m.content]
    assert f"cut `{TYPED}`" in reveal
    history = await world.alice.slash(world.channel, "umtali history")
    chosen = await world.alice.select(history.response, [str(live.id)],
                                      custom_id=f"umtali:rp:{world.guild.id}")
    files = {a.filename: await a.read() for a in chosen.response.attachments}
    data: dict[str, Any] = json.loads(files[f"umtali-{live.id}-deals.json"])
    assert data["version"] == 2 and data["cut"] == TYPED
    path = tmp_path / "deals.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, said = verified(path)
    assert code == 0 and "FAIR" in said, said
    assert f"typed, {TYPED!r}" in said and "click was made at" not in said, said

    # Another text, other cards: the check fails.
    data["cut"] = TYPED.replace("7", "8")
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, said = verified(path)
    assert code == 1 and "NOT VERIFIED" in said, said


@pytest.mark.usefixtures("real_cuts")
async def test_nothing_typed_the_cut_is_the_submits_id_and_says_so(world: World) -> None:
    message, challenge_id = await offered(world)
    live, click = await accepted(world, message, challenge_id, typed="   ")
    assert live.cut == str(click)
    assert f"ben cut the deck typing nothing: cut `{click}`" in shown_now(world, message)


@pytest.mark.usefixtures("real_cuts")
@pytest.mark.parametrize("text", [
    "a\u202eb",  # a right-to-left override: shows text other than the cut
    "ab\u200fcd",  # a right-to-left mark, invisible
    "zero\u200bwidth",
    "line\nbreak",
    "bell\x07",
    "1" * CLICK_DIGITS,  # a number as long as a click's id reads as one
    "1" * 31, "9" * MAX_TYPED,  # longer ones too, to the modal's limit
])
async def test_a_cut_that_cannot_be_kept_as_shown_is_refused_privately(
        world: World, text: str) -> None:
    message, challenge_id = await offered(world)
    store = world.bot.matches.store  # type: ignore[union-attr]
    refused = await accept(world.bob, message, text)
    assert refused.ephemeral and "That cut cannot be used" in (refused.response.content or "")
    await flush(world)
    ch = await store.challenge(challenge_id)
    assert ch is not None and ch.status == "open" and ch.seed
    assert world.bot.matches is not None and not world.bot.matches.matches
    # The challenge still stands: accepted again, with a cut that can be.
    live, _ = await accepted(world, message, challenge_id, typed="fine")
    assert live.cut == "fine"


@pytest.mark.usefixtures("real_cuts")
@pytest.mark.parametrize("text", [
    "<@{carol}> **x**",
    "@everyone _y_ ~~z~~",
    "`@here` ||y|| <#1>",
])
async def test_markdown_and_mentions_in_a_cut_are_shown_inert(world: World, text: str) -> None:
    text = text.format(carol=world.carol.id)
    message, challenge_id = await offered(world)
    live, _ = await accepted(world, message, challenge_id, typed=text)
    assert live.cut == text  # kept as typed
    shown = shown_now(world, message)
    if "`" not in text:
        assert f"cut the deck: `{text}`" in shown  # as code: nothing in it is read
    else:
        # A backtick would end the code: escaped, and the mentions defused.
        assert "@here" not in shown.replace("\u200b", "~"), shown
        escaped = shown_cut(text)
        assert "\\`" in escaped and "\\|\\|" in escaped
        assert json.dumps(f"cut the deck: {escaped}.", ensure_ascii=False)[1:-1] in shown
    # The cut is in the embed, which notifies nobody; and no message mentioned carol.
    for m in world.channel.history():
        assert world.carol.id not in [u.id for u in m.mentions] and not m.mention_everyone


def test_the_typed_cut_rule() -> None:
    decomposed = "e\u0301t\u00e9"
    assert typed_cut(decomposed) == unicodedata.normalize("NFC", decomposed) == "\u00e9t\u00e9"
    assert typed_cut("  ") == "" and typed_cut(" a b ") == "a b"
    assert typed_cut("x" * MAX_TYPED) == "x" * MAX_TYPED
    assert typed_cut("x" * (MAX_TYPED + 1)) is None
    assert typed_cut("\U000f0000") is None  # private use
    assert typed_cut("١٢٣") == "١٢٣"  # digits, but no click's: Arabic-Indic
    assert cut_seed("7", "abc/d") == "7/abc/d"
    # A number a player types is theirs; one as long as a click's id would read as an id.
    short = "9" * (CLICK_DIGITS - 1)
    assert typed_cut("42") == "42" and typed_cut(short) == short and not clicked(short)
    assert typed_cut("9" * CLICK_DIGITS) is None and clicked("9" * CLICK_DIGITS)
    # Every number of CLICK_DIGITS digits or more, to the modal's MAX_TYPED characters.
    for digits in range(CLICK_DIGITS, MAX_TYPED + 1):
        assert typed_cut("1" * digits) is None and clicked("1" * digits), digits
    assert cut_seed("7", "42") == "7/42" and cut_time("42") is None
    with pytest.raises(InvalidStateError):
        cut_seed("7", "a\u202eb")


def test_a_version_2_file_without_its_cut_says_so(tmp_path: Path) -> None:
    seed, salt = "0f" * 16, "ab" * 16
    data = from_session(Session(RuleSet.english(), f"{seed}/x1"), ("ada", "ben"),
                        commit(seed, salt), cut="x1")
    del data["cut"]
    with pytest.raises(InvalidStateError) as e:
        from_json(data)
    assert "has a \"cut\", and this one has none" in str(e.value)
    assert "KeyError" not in str(e.value)
    data["cut"] = "bad\u202ecut"
    with pytest.raises(InvalidStateError, match="the cut must be a string"):
        from_json(data)


@pytest.mark.usefixtures("real_cuts")
async def test_a_practice_is_cut_with_the_text_its_player_types(world: World) -> None:
    offered_practice = await world.alice.slash(world.channel, "umtali practice", level="easy")
    svc = world.bot.matches
    assert svc is not None
    # Someone else's click on Cut the deck: refused privately, and no modal.
    button = next(c for c in custom_ids(offered_practice.response)
                  if c.startswith("umtali:cut:") and not c.endswith(":cancel"))
    other = await world.bob.click(offered_practice.response, custom_id=button)
    assert other.modal is None and other.ephemeral
    assert "Only <@" in (other.response.content or "")
    await cut(world, offered_practice, typed="ada cuts")
    live = the_match(world)
    assert live.cut == "ada cuts" and str(live.session.seed).endswith("/ada cuts")
    saved = await svc.store.match(live.id)
    assert saved is not None and saved.cut == "ada cuts"
    assert "ada cut the deck: `ada cuts`" in shown_now(world, offered_practice.response)


@pytest.mark.usefixtures("real_cuts")
async def test_a_cut_submitted_after_a_restart_starts_the_match(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    """discord.py forgets its modals on a restart: the submit is handled by its custom id."""
    message, _ = await offered(world)
    button = next(c for c in custom_ids(message) if c.endswith(":accept"))
    clicked = await world.bob.click(message, custom_id=button)
    assert clicked.modal is not None
    await restart(world, make_bot)
    submitted = await world.bob.submit_modal(clicked, {"cut": "after the restart"})
    assert submitted.acknowledged and not submitted.ephemeral
    await flush(world)
    assert the_match(world).cut == "after the restart"


def test_a_typed_cut_file_checks_with_the_standard_library_alone(tmp_path: Path) -> None:
    """``python3 -S -E -m umtali verify`` (no site packages, no environment) plays a file cut
    with typed text, non-ASCII letters included, and prints no click time for it."""
    seed, salt = "0f" * 16, "ab" * 16
    session = Session(RuleSet.english(), f"{seed}/{TYPED}")
    data = from_session(session, ("ada", "ben"), commit(seed, salt), cut=TYPED)
    data["reveal"] = {"seed": seed, "salt": salt}
    path = tmp_path / "typed.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    env = {k: v for k, v in os.environ.items()
           if k not in ("LC_ALL", "LC_MESSAGES", "LANG") and not k.startswith("PYTHON")}
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-S", "-E", "-s", "-m", "umtali", "verify", str(path)],
                          cwd=root, env=env, capture_output=True, text=True, check=False,
                          encoding="utf-8")
    assert done.returncode == 0, done.stderr
    assert f"typed, {TYPED!r}" in done.stdout and "FAIR:" in done.stdout
    assert "click was made at" not in done.stdout


@pytest.mark.usefixtures("real_cuts")
async def test_a_number_typed_is_a_cut_of_its_own(world: World, tmp_path: Path) -> None:
    # The most natural cut to type; it was refused as "digits alone" (read as a click's id).
    message, challenge_id = await offered(world)
    live, _ = await accepted(world, message, challenge_id, typed="4721")
    assert live.cut == "4721"
    assert "ben cut the deck: `4721`" in shown_now(world, message)
    await resign(world, world.bob, live)
    history = await world.alice.slash(world.channel, "umtali history")
    chosen = await world.alice.select(history.response, [str(live.id)],
                                      custom_id=f"umtali:rp:{world.guild.id}")
    files = {a.filename: await a.read() for a in chosen.response.attachments}
    path = tmp_path / "deals.json"
    path.write_bytes(files[f"umtali-{live.id}-deals.json"])
    code, said = verified(path)
    assert code == 0 and "FAIR" in said, said
    assert "typed, '4721'" in said and "click was made at" not in said, said
