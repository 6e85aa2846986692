"""``/umtali rules`` in each language: every page worded, within Discord's embed limits."""

from __future__ import annotations

import pytest

from cogs.umtali.rules_text import PAGES, command, pages
from umtali.i18n import EN, languages, tr_for

OTHER_LANGUAGES = [lang for lang in languages() if lang != "en"]
#: Discord's limits: an embed's description, and its title less the "Umtali rules · " the
#: command puts before a page's title (kept generous for a long translation of it).
DESCRIPTION_LIMIT = 4096
TITLE_LIMIT = 256 - 64


@pytest.mark.parametrize("language", ["en", *OTHER_LANGUAGES])
def test_every_page_fits_an_embed(language: str) -> None:
    for title, text in pages(tr_for(language)):
        assert 0 < len(title) <= TITLE_LIMIT, title
        assert 0 < len(text) <= DESCRIPTION_LIMIT, title
        assert "{" not in text and "}" not in text, title  # every command name filled in


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_page_is_in_the_language(language: str) -> None:
    english, other = pages(EN), pages(tr_for(language))
    assert len(other) == len(english) == 6
    titles = [title for title, _ in other]
    assert len(set(titles)) == len(titles)
    for (en_title, en_text), (title, text) in zip(english, other, strict=True):
        assert title != en_title and text != en_text, en_title


def test_russian_pages_use_the_card_terms() -> None:
    text = "\n".join(body for _, body in pages(tr_for("ru")))
    for term in ("последовательность", "группа", "марьяж", "одиночный валет", "добавление",
                 "колод", "сброс", "рубашкой вверх", "раздач", "партия", "матч", "сдающ"):
        assert term.lower() in text.lower(), term
    # The move notation is the same in every language.
    for move in ("`draw`", "`take 2`", "`meld 8D 9D 10D`", "`extend 7D 8D`", "`discard KS down`"):
        assert move in text, move


def test_pages_name_the_commands_as_the_readers_client_shows_them() -> None:
    ru = tr_for("ru")
    last = pages(ru)[-1][1]
    assert f"`{command(ru, ('umtali', 'challenge'))}`" in last
    assert "`/umtali challenge`" in PAGES[-1][1]


def test_the_playing_page_says_how_to_check_the_deals() -> None:
    for tr, doc in ((EN, "docs/FAIR_DEALS.md"), (tr_for("ru"), "docs/FAIR_DEALS.ru.md")):
        assert "python -m umtali verify" in pages(tr)[-1][1]
        assert doc in pages(tr)[-1][1]


def test_english_pages_are_the_default() -> None:
    assert list(PAGES) == pages(EN)
    assert PAGES[0][0] == "The game"
