"""Right-to-left names (Hebrew, Arabic) in the bot's English and Russian sentences.

The name is kept as written, but Unicode's bidi algorithm (UAX #9, which Discord's clients run
as browsers) joins the numbers and signs after a right-to-left name to its run: "3. שרה
1520" read "3. 1520 הרש", the score before the name, and a message opening with the name was
laid out right to left whole. Each name is put into text between FSI and PDI
(``names.isolate``). What a reader sees is worked out here by python-bidi (the Rust crate
unicode-bidi), the isolates themselves being invisible.
"""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path

import pytest
from bidi import get_display
from hypothesis import given
from hypothesis import strategies as st
from PIL import features

from cogs.umtali.history import _option, replay_text
from cogs.umtali.match_start import thread_name
from cogs.umtali.names import (
    FSI,
    MAX_NAME,
    PDI,
    clean_name,
    isolate,
    label_name,
    safe_name,
    shorten,
)
from cogs.umtali.pictures import draw_table_png
from cogs.umtali.pictures.scene import table_scene
from cogs.umtali.pictures.table import STATUS_SIZES
from tests.discord_helpers import World, play_out, start_match, thread_of
from tests.loopback.driver import custom_ids as loop_ids
from tests.loopback.driver import play_out as loop_play_out
from tests.loopback.driver import read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import Member
from tests.picture_ink import HEEBO, NOTO_ARABIC, PT_SANS, found, read_in_order
from tests.test_hostile_names import sent, texts
from tests.test_records_discord import board_lines, resign, text_of
from umtali import RuleSet, Session, cli
from umtali.i18n import tr_for
from umtali.players import GreedyPlayer
from umtali.view import SPECTATOR

SARAH, AHMED = "שרה", "أحمد"
RTL_NAMES = [SARAH, AHMED, "שרה כהן", "أحمد 7", "Sara שרה", "١٢٣"]
#: Sentences as the bot makes them (markdown left out: Discord shows none of it).
SENTENCES = [
    "{name} melded 7♥ 8♥ 9♥ (12 → 15)",
    "  3. {name} · 1520.3 · won 5 of 7",
    "{name} · 11 cards · 45",
    "{name}: 12.3 → 15.0",
    "Итог: побеждает {name}, 2:0 по партиям",
    "Session over: {name} wins 2-1",
]


def shown(text: str, base: str | None = "L") -> str:
    """``text`` as a reader sees it, left to right: in a left-to-right paragraph (an English or
    Russian message), or, with ``base`` None, in one whose direction is its first strong
    letter's (HTML's dir="auto")."""
    return str(get_display(text, base_dir=base)).replace(FSI, "").replace(PDI, "")


def expected(sentence: str, name: str) -> str:
    """The sentence read in place: its words as written, the name read as it reads alone."""
    return sentence.format(name=shown(name, None))


@pytest.mark.parametrize("name", RTL_NAMES)
@pytest.mark.parametrize("sentence", SENTENCES)
def test_a_right_to_left_name_keeps_its_place_in_a_sentence(sentence: str, name: str) -> None:
    line = sentence.format(name=safe_name(name))
    assert shown(line) == expected(sentence, name)
    # Whatever the paragraph's direction is taken from: the name does not set it.
    assert shown(line, None) == expected(sentence, name)


def test_without_the_isolates_the_score_moves_before_the_name() -> None:
    """The defect itself, as the bidi algorithm gives it: what ``isolate`` is for."""
    assert shown(f"  3. {SARAH} 1520") == "  3. 1520 הרש"
    assert shown(f"{AHMED} melded 7♥ 8♥ 9♥ (12 → 15)", None).endswith("دمحأ")


def test_the_bidi_controls_a_member_typed_are_stripped_and_the_bots_own_added() -> None:
    assert safe_name("\u202e" + SARAH + "\u2069\u2066") == FSI + SARAH + PDI
    assert label_name("@" + AHMED) == FSI + "@\u200b" + AHMED + PDI
    assert safe_name(FSI + SARAH + PDI) == FSI + SARAH + PDI  # made safe twice: isolated once
    assert clean_name(FSI + SARAH + PDI) == SARAH  # stored names stay plain


# Letters, digits and signs of every bidi class but R, AL and AN.
LEFT_TO_RIGHT = st.text(st.sampled_from("ada Bén Алёша 山田 12 3.5 -+()*:#@!,/"), min_size=1,
                        max_size=MAX_NAME)


@given(LEFT_TO_RIGHT, st.sampled_from(SENTENCES))
def test_a_name_with_no_right_to_left_letter_moves_nothing_so_it_is_not_isolated(
        name: str, sentence: str) -> None:
    """Only names that could turn text around carry the isolates: one without a right-to-left
    letter or Arabic digit reads the same either way, beside a right-to-left name too."""
    name = clean_name(name)
    assert isolate(name) == name
    beside = sentence + " / " + safe_name(SARAH) + " 9"
    assert shown(beside.format(name=name)) == shown(beside.format(name=FSI + name + PDI))
    assert shown(beside.format(name=name), None) == shown(beside.format(name=name))


# -- lengths: Discord's limits with the two added characters ---------------------------------


LONGEST = ["@" * (MAX_NAME - 1) + SARAH[0], "*" * (MAX_NAME - 1) + AHMED[0], SARAH * 11,
           "x" * MAX_NAME]


def balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch == FSI) - (ch == PDI)
        if depth < 0 or depth > 1:
            return False
    return depth == 0


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("first", LONGEST)
@pytest.mark.parametrize("second", LONGEST)
def test_thread_names_and_menu_labels_keep_100_characters_and_close_their_isolates(
        lang: str, first: str, second: str) -> None:
    tr = tr_for(lang)
    for text in (thread_name(first, second, tr),
                 _option(123456789, (first, second), 0.0, tr).label):
        assert len(text) <= 100 and balanced(text), text
        assert text.count(FSI) >= (SARAH[0] in first) + (AHMED[0] in first), text


def test_shorten_closes_an_isolate_it_cuts_and_drops_one_it_would_leave_empty() -> None:
    text = "ab " + FSI + "שרה" + PDI
    assert shorten(text, 99) == text
    assert [shorten(text, n) for n in range(3, 9)] == [
        "ab ", "ab ", "ab ", "ab " + FSI + "ש" + PDI, "ab " + FSI + "שר" + PDI, text]


@pytest.mark.parametrize("name", LONGEST)
def test_a_longest_name_stays_inside_an_embeds_limits(name: str) -> None:
    # The longest a name can be in a message: each character escaped, and the two isolates.
    assert len(safe_name(name)) <= 2 * MAX_NAME + 2


# -- on Discord ------------------------------------------------------------------------------


def unmarked(text: str) -> str:
    """Text as Discord shows it: markdown's marks and escapes gone."""
    return re.sub(r"\\(.)", r"\1", text.replace("**", "").replace("`", ""))


@pytest.fixture
def rtl_world(world: World) -> World:
    """A server of the same SimCord whose members are שרה, أحمد and cy."""
    guild = world.env.create_guild("Bidi Club")
    sarah, ahmed, cy = (guild.add_member(world.env.create_user(n)) for n in (SARAH, AHMED, "cy"))
    return World(world.env, guild, guild.create_text_channel("games"), sarah, ahmed, cy,
                 world.clock)


async def test_right_to_left_names_on_the_table_the_boards_and_the_stats(
        rtl_world: World) -> None:
    world = rtl_world
    live = await start_match(world)
    assert tuple(live.names) == (SARAH, AHMED)
    thread = thread_of(world, live)
    table = next(m for m in thread.history() if m.id == live.table_message_id)
    fields = [f.name for f in table.embeds[0].fields]
    for name in (SARAH, AHMED):
        [line] = [f for f in fields if name in f]
        # "שרה · 11 cards · 0": the cards and points after the name, as written.
        words = line.split(" · ")
        assert shown(unmarked(line)) == " · ".join([shown(name, None), *words[1:]]), line
    assert thread.name == f"Umtali: {FSI}{SARAH}{PDI} vs {FSI}{AHMED}{PDI}"
    await play_out(world, live, moves=3)
    await resign(world, world.alice, live)
    board = await world.carol.slash(world.channel, "umtali leaderboard")
    for line, (rank, name, won) in zip(board_lines(board),
                                       ((1, AHMED, "1 of 1"), (2, SARAH, "0 of 1")),
                                       strict=True):
        seen = shown(unmarked(line))
        # "  1. أحمد · 24.9 · won 1 of 1": the rank, then the name, its rating and wins after it.
        assert re.fullmatch(rf" *{rank}\. {shown(name, None)} · −?[0-9.]+ · won {won}",
                            seen), seen
    stats = text_of(await world.carol.slash(world.channel, "umtali stats", member=world.bob,
                                            versus=world.alice))
    assert f"{FSI}{SARAH}{PDI}" in stats and f"{FSI}{AHMED}{PDI}" in stats
    head = next(line for line in stats.splitlines() if line.startswith("Sessions won: "))
    # "أحمد 1, שרה 0": each score beside its own name.
    assert shown(unmarked(head)) == \
        f"Sessions won: {shown(AHMED, None)} 1, {shown(SARAH, None)} 0", head


async def test_a_replay_header_reads_in_place_and_the_file_still_replays(
        rtl_world: World) -> None:
    world = rtl_world
    live = await start_match(world)
    await play_out(world, live, moves=4)
    moves = [str(m) for m in live.session.moves]
    await resign(world, world.alice, live)
    history = await world.alice.slash(world.channel, "umtali history")
    labels = [o["label"] for row in history.response.components
              for c in row["components"] for o in c.get("options") or []]
    chosen = await world.alice.select(history.response, [str(live.id)],
                                      custom_id=f"umtali:rp:{world.guild.id}")
    text = (await chosen.response.attachments[0].read()).decode()
    result = next(line for line in text.splitlines() if line.startswith("# Result: "))
    assert shown(result) == f"# Result: {shown(AHMED, None)} wins ({shown(SARAH, None)} " \
                            f"resigned); games won 0-0", result
    assert labels == [f"#{live.id}: {FSI}{SARAH}{PDI} vs {FSI}{AHMED}{PDI}"]
    # In Russian the names read in place too: "Итог: побеждает أحمد (שרה сдаётся); ...".
    store = world.bot.matches.store if world.bot.matches is not None else None
    assert store is not None
    match, line = await store.match(live.id), await store.records.session(live.id)
    assert match is not None and line is not None
    russian = replay_text(match, line, await store.moves(live.id), tr_for("ru"))
    result = next(row for row in russian.splitlines() if row.startswith("# Итог: "))
    assert shown(result).startswith(f"# Итог: побеждает {shown(AHMED, None)} "
                                    f"({shown(SARAH, None)} сдаётся); "), result
    header = [line for line in text.splitlines() if line.startswith("#")]
    command = next(h for h in header if h.startswith("# Replay: ")).removeprefix("# Replay: ")
    words = shlex.split(command)
    out = io.StringIO()
    assert cli.main([*words[3:-2], "--json"], stdin=io.StringIO(text), stdout=out) == 0
    assert json.loads(out.getvalue())["state"]["moves"] == moves


# -- the pictures -----------------------------------------------------------------------------


@pytest.mark.skipif(not features.check_feature("raqm"), reason="drawn right to left by raqm")
@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("moves", [0, 1])
@pytest.mark.parametrize(("rtl", "typeface"), [(SARAH, HEEBO), (AHMED, NOTO_ARABIC)])
def test_a_name_all_right_to_left_turns_nothing_around_in_the_pictures(
        lang: str, moves: int, rtl: str, typeface: tuple[str, str]) -> None:
    """A picture draws its lines left to right (``fonts.DIRECTION``), the name one run of them
    (right to left, by its typeface: Heebo, Noto Sans Arabic) whatever its letters: found as
    that typeface draws it, with what follows it in the status line after it. No isolates
    there: without raqm they would draw as boxes themselves."""
    session = Session(RuleSet.english(), 5)
    for _ in range(moves):  # 0: to draw; 1: to meld and discard
        session.apply(GreedyPlayer().choose(session.view(session.to_act)), session.to_act)
    view = session.view(SPECTATOR)
    tr = tr_for(lang)
    for names in ((rtl, "Ben 12"), ("Ben 12", rtl)):
        png = draw_table_png(view, names, tr=tr)
        assert found(png, rtl, typeface, 26, "rtl"), names  # in its band
        scene = table_scene(view, names, tr)
        if scene.status_name == rtl:
            rest = scene.status.removeprefix(rtl).split()[0]
            assert read_in_order(png, (rtl, typeface, "rtl"), (rest, PT_SANS, "ltr"),
                                 STATUS_SIZES), names


async def test_the_longest_right_to_left_names_keep_discords_limits(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Names as long as they come, each character escaped or defused, and the isolates: a
    session, the boards, stats, history and its menu, and a replay over the loopback Discord,
    which refuses what is over a limit as Discord does (``tests/loopback/limits.py``)."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        first, second = (server.add_member(n) for n in LONGEST[:2])
        carol = server.add_member("cy")
        match = await start_session(server, db, first, second)
        await loop_play_out(server, db, match.id, moves=6)
        ask = await server.slash(first, match.channel_id, "umtali resign")
        assert ask.response is not None
        yes = next(c for c in loop_ids(ask.response) if c.endswith(":resign"))
        await server.click(first, ask.response, yes)
        await until(lambda: (m := read_match(db, match.id)) is not None
                    and m.status == "finished", "the resignation")
        for scope in ("server", "global"):
            board = await server.slash(carol, server.channel_id, "umtali leaderboard",
                                       {"scope": scope})
            assert board.callback_type == 4, board.text()
        stats = await server.slash(carol, server.channel_id, "umtali stats",
                                   {"member": Member(first), "versus": Member(second)})
        assert stats.callback_type == 4, stats.text()
        history = await server.slash(carol, server.channel_id, "umtali history",
                                     {"member": Member(first)})
        assert history.response is not None, history.text()
        [menu] = [c for c in loop_ids(history.response) if c.startswith("umtali:rp:")]
        replay = await server.click(carol, history.response, menu, values=[str(match.id)])
        assert replay.callback_type == 4, replay.text()
        assert "its replay file (the moves)" in replay.text(), replay.text()
        refused = [c for c in server.calls if c.status == 400]
        assert refused == [], [(c.path, c.body) for c in refused]
        names = 0
        for _, body in sent(server):
            for _, text in texts(body):
                assert balanced(text), text
                names += text.count(FSI)
        assert names > 20
        [thread] = server.threads()
        assert len(thread["name"]) <= 100 and balanced(thread["name"]), thread["name"]
