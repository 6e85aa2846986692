"""A "zalgo" name stacks dozens of combining marks on each of its letters, drawn by Discord
over the lines above and below it (the channel's messages, embeds, boards). A name keeps at
most 4 nonspacing or enclosing marks on one character, counted once composed
(NFC): Unicode's own limit for such stacks (UTS #39, 5.4). Real words stay as typed:
Vietnamese, Hebrew with points and cantillation, Arabic harakat, Devanagari, Tibetan stacks,
Thai and Yoruba tones need at most 4."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from cogs.umtali.names import clean_name, label_name, safe_name, visible
from cogs.umtali.pictures.fonts import drawable
from cogs.umtali.pictures.scene import table_scene
from tests.loopback.driver import play_out, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_hostile_names import sent, texts
from tests.test_review96_pictures import _ended_with_cards_left
from umtali.i18n import EN

#: UTS #39 (5.4): "Forbid sequences of more than 4 nonspacing marks (gc=Mn or gc=Me)".
MAX_MARKS = 4

#: Zalgo's marks: above, below and through the letter, none of them composing with it.
ABOVE = "".join(map(chr, range(0x030D, 0x0315)))
BELOW = "".join(map(chr, range(0x0316, 0x031A))) + "".join(map(chr, range(0x0339, 0x033D)))
THROUGH = "\u0334\u0335\u0336\u0489\u20dd"  # the last two enclosing marks (Me)
STACK = ABOVE + BELOW + THROUGH  # 21 marks
ZALGO = "".join(letter + STACK for letter in "Zalgo")

#: Real names, the longest stacks of their scripts (already composed, as typed).
REAL = {
    "Vietnamese": "Nguyễn Thị Phượng",
    "Hebrew, points": "שְׁלֹמֹה",
    "Hebrew, cantillation (Genesis 1:1)": "בְּרֵאשִׁ֖ית הַשָּׁמַ֖יִם",
    "Hebrew, 4 on one letter (Numbers 6:26)": "יִשָּׂ֨א",
    "Arabic, harakat": "مُحَمَّد",
    "Arabic, Quranic": "ٱللَّٰهِ",
    "Devanagari": "श्रीमान् हँसी",
    "Devanagari, Vedic accents": "अ॒ग्निमी॑ळे",
    "Tibetan stacks": "སྒྲོལ་མ བསྒྲུབས ཧཱུྃ",
    "Thai": "สมศักดิ์ ผู้ใหญ่",
    "Yoruba": "Adébáyọ̀",
    "keycap": "Bob 1\ufe0f\u20e3",
}


def longest_stack(text: str) -> int:
    """The most nonspacing or enclosing marks in a row in ``text``."""
    longest = run = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        longest = max(longest, run)
    return longest


@pytest.mark.parametrize("script", list(REAL))
def test_real_names_are_unchanged(script: str) -> None:
    name = REAL[script]
    assert longest_stack(name) <= MAX_MARKS  # the table's own check
    assert visible(name) == clean_name(name) == name
    assert label_name(name).strip("\u2068\u2069") == name


@pytest.mark.parametrize("name", ["Nguyễn Thị Phượng", "Adébáyọ̀", "Андрей"])
def test_real_names_typed_apart_are_unchanged(name: str) -> None:
    # Letters and their accents typed apart (as some keyboards send them): 2 marks on a
    # Vietnamese vowel, kept as typed.
    apart = unicodedata.normalize("NFD", name)
    assert clean_name(apart) == apart


def test_zalgo_keeps_four_marks_on_each_letter() -> None:
    shown = clean_name(ZALGO)
    assert longest_stack(shown) == MAX_MARKS, ascii(shown)
    # The first four on each letter (in their canonical order: through, below, above), so the
    # name is whole, not cut at 32 characters after its first letter.
    first = "\u0334\u0335\u0336\u0316"
    assert shown == "".join(letter + first for letter in "Zalgo"), ascii(shown)
    assert longest_stack(safe_name(ZALGO)) == longest_stack(label_name(ZALGO)) == MAX_MARKS


@pytest.mark.parametrize("name", [
    "a" + "\u0301" * 30,  # composed first: á and 29 acutes
    "e\u0302" + "\u0303" * 3 + "\u0300" * 3,  # ê, then 6
    "x" + "\u0301\u200b" * 10,  # the hidden characters between them go first
    "Bob" + "\u0489" * 10,  # enclosing marks (Me)
    "\u0301" * 40 + "Bob" + ABOVE,
])
def test_no_stack_over_four(name: str) -> None:
    for shown in (visible(name), clean_name(name), safe_name(name)):
        assert longest_stack(shown) <= MAX_MARKS, ascii(shown)
    assert unicodedata.normalize("NFD", clean_name(name))[0] in "aexB", ascii(clean_name(name))


def test_spacing_marks_part_stacks() -> None:
    # A spacing mark (Mc: a Devanagari vowel sign) takes its own room: the marks on it are
    # another stack, as in अ॒ग्निमी॑ळे.
    name = "क" + "\u0951" * 3 + "\u0940" + "\u0951" * 3
    assert clean_name(name) == name


def test_the_picture_draws_the_flattened_name() -> None:
    view, _ = _ended_with_cards_left()
    real = "Zoë Ёлкина"  # (Hebrew, Greek, Vietnamese: test_fix146)
    seats = table_scene(view, (ZALGO, real), EN).seats
    assert longest_stack(seats[0].name) <= MAX_MARKS, ascii(seats[0].name)
    # The whole name, not its first letter and what the typeface draws of 31 marks.
    assert "".join(ch for ch in seats[0].name if ch.isalpha()) == "Zalgo", ascii(seats[0].name)
    assert seats[1].name == drawable(real) == real


async def test_zalgo_is_flattened_in_the_channel(monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    hebrew = REAL["Hebrew, 4 on one letter (Numbers 6:26)"] + " " + REAL["Hebrew, points"]
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        zalgo, real = server.add_member(ZALGO), server.add_member(hebrew)
        first = await start_session(server, db, zalgo, real)
        await play_out(server, db, first.id, moves=4)
        table = await server.slash(real, first.channel_id, "umtali table")
        assert not table.ephemeral, table.text()
        shown = [(call.path, where, text) for call, body in sent(server)
                 for where, text in texts(body)]
        assert len(shown) > 10
        for path, where, text in shown:
            assert longest_stack(text) <= MAX_MARKS, (path, where, ascii(text))
        everything = "\n".join(text for _, _, text in shown)
        assert clean_name(ZALGO) in everything
        assert hebrew in everything  # the real name whole, its four marks too
