r"""The standard library's .po reader (``umtali/po.py``, bare python3) reads odd or broken
catalogues as Babel does, and never raises: a catalogue it cannot read in part must not stop
every command of a terminal in that language. Before, escapes were read as Python's
(``\u0041``, octal, ``"b" "c"`` on one line), a plural form missing shifted the others, a
msgid without its msgstr swallowed the next message, ``msgctxt ""`` was a context of its own,
and a tab after a keyword or ``b"c"`` raised."""

from __future__ import annotations

import gettext
import io

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from umtali.po import translations

HEADER = r'''msgid ""
msgstr ""
"Language: ru\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && "
"n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=utf-8\n"
"Content-Transfer-Encoding: 8bit\n"

'''

#: Each file's body, and what it must read as (besides reading as Babel does).
FILES: dict[str, tuple[str, dict[str, str]]] = {
    "escapes Babel keeps as written": (r'''
msgid "escapes"
msgstr "\u0041 \x41 \303\251 \101 \\ \" \n\t\r"

msgid "two strings on one line"
msgstr "b" "c"
''', {"escapes": "\\u0041 \\x41 \\303\\251 \\101 \\ \" \n\t\r",
      "two strings on one line": 'b" "c'}),
    "a msgid without its msgstr": ('''
msgid "alone"

msgid "next"
msgstr "Следующий"
''', {"alone": "alone", "next": "Следующий"}),
    "an empty context": ('''
msgctxt ""
msgid "context"
msgstr "Контекст"
''', {"context": "Контекст"}),
    "a tab after a keyword": ('''
msgid\t"tab"
msgstr "Таб"

msgid "after"
msgstr\t"После"
"конец"

msgid "kept"
msgstr "Оставлен"
''', {"kept": "Оставлен"}),
    "a bytes literal": ('''
msgid "bytes"
msgstr b"c"

msgid "kept"
msgstr "Оставлен"
''', {"bytes": '"c', "kept": "Оставлен"}),
    "the same message twice": ('''
msgid "twice"
msgstr "Первый"

msgid "twice"
msgstr "Второй"
''', {"twice": "Первый"}),
    "a comment inside a message, obsolete and fuzzy ones": ('''
msgid "cut"
# a comment between the msgid and its msgstr
msgstr "Обрезано"

#~ msgid "gone"
#~ msgstr "Ушло"

#, fuzzy
msgid "fuzzy"
msgstr "Неточно"

#, nofuzzy
msgid "sure"
msgstr "Точно"
''', {"cut": "cut", "gone": "gone", "fuzzy": "fuzzy", "sure": "Точно"}),
}

#: Plurals: a form missing, one past nplurals, one in the singular's place.
PLURALS = '''
msgid "{count} card"
msgid_plural "{count} cards"
msgstr[0] "{count} карта"
msgstr[2] "{count} карт"

msgid "{count} point"
msgid_plural "{count} points"
msgstr[0] "{count} очко"
msgstr[1] "{count} очка"
msgstr[2] "{count} очков"
msgstr[3] "лишнее"

msgid "{count} turn"
msgid_plural "{count} turns"
msgstr "{count} ход"
'''


def _babel(text: str) -> tuple[gettext.GNUTranslations, list[tuple[object, str | None]]]:
    catalog = read_po(io.BytesIO(text.encode()), locale="ru")
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled), [(m.id, m.context) for m in list(catalog)[1:]]


def _alike(text: str, probes: list[str]) -> gettext.GNUTranslations:
    """Ours read as Babel's, message by message and plural by plural."""
    babel, messages = _babel(text)
    ours = translations(text)
    for mid, context in [*messages, *((p, None) for p in probes)]:
        if isinstance(mid, tuple):
            for n in (*range(0, 30), 101, 111, 112):
                assert ours.ngettext(mid[0], mid[1], n) == babel.ngettext(mid[0], mid[1], n), \
                    (mid, n)
        else:
            assert isinstance(mid, str)
            assert ours.gettext(mid) == babel.gettext(mid), mid
            if context:
                assert ours.pgettext(context, mid) == babel.pgettext(context, mid), mid
    return ours


@pytest.mark.parametrize("name", sorted(FILES))
def test_an_odd_catalogue_reads_as_babel_reads_it(name: str) -> None:
    body, meant = FILES[name]
    ours = _alike(HEADER + body, list(meant))
    for mid, said in meant.items():
        assert ours.gettext(mid) == said, mid


def test_a_plural_form_missing_reads_as_the_english_and_none_shifts() -> None:
    ours = _alike(HEADER + PLURALS, [])
    assert [ours.ngettext("{count} card", "{count} cards", n) for n in (1, 2, 5)] == \
        ["{count} карта", "{count} cards", "{count} карт"]
    assert ours.ngettext("{count} point", "{count} points", 5) == "{count} очков"
    assert ours.ngettext("{count} turn", "{count} turns", 1) == "{count} ход"


def test_a_catalogue_without_a_header_is_read_as_utf8() -> None:
    """(Babel writes its own header, ``gettext`` would read one without any as ASCII.)"""
    body = 'msgid "plain"\nmsgstr "Простой"\n'
    assert _alike(body, []).gettext("plain") == "Простой"


@pytest.mark.parametrize("broken", [
    'msgid "x"\nmsgstr[a] "икс"\n',  # Babel raises ValueError here
    'msgid "x"\nmsgid_plural "xs"\nmsgid_plural "xss"\nmsgstr[0] "икс"\n',  # gettext would
    'msgid "x"\nmsgid_plural "xs"\nmsgstr[-9] "икс"\n',  # Babel raises IndexError
    'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=n +* 1;\\n"\n',  # a rule gettext refuses
    'msgid ""\nmsgstr "Content-Type: text/plain; charset=nothing\\n"\n',
    'msgid ""\nmsgstr "Content-Type: text/plain\\n"\n',
    '"a continuation with nothing before"\nmsgstr "orphan"\n\u2028\x00\udcff',
])
def test_a_broken_catalogue_never_raises(broken: str) -> None:
    ours = translations(HEADER + broken + '\nmsgid "kept"\nmsgstr "Оставлен"\n')
    assert ours.gettext("kept") == "Оставлен"
    assert ours.ngettext("x", "xs", 3) in ("x", "xs", "икс")
