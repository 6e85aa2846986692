"""Messages in the reader's language.

The English text is the message id, written where it is used; each other language is one gettext
catalogue, ``umtali/locales/<lang>.po``, read with Babel (with the standard library where Babel is
not installed: ``umtali/po.py``). Adding a language is adding its file.

Code that knows its reader's language asks a ``Tr`` (``tr("Your turn.")``,
``tr.plural("{count} card", "{count} cards", n)``). Code that does not, the engine above all,
returns a ``Text``: the message id and its values, put into words later by whoever shows it.
Placeholders are named, ``{name}``, and filled with ``str.format`` after translation, so a value
(a member's name, say) is never read as part of the template.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

ENGLISH = "en"


@dataclass(frozen=True)
class Text:
    """A message not yet in words: its English id and the values of its placeholders.

    A value may itself be a ``Text``; it is translated in the same language."""

    message: str
    params: Mapping[str, Any] = field(default_factory=dict)
    #: For a message with plural forms: the English plural, and the count that picks the form.
    plural_message: str | None = None
    count: int = 0
    #: For a message whose English alone is ambiguous: its context (as ``Tr.ctx``).
    context: str | None = None

    @staticmethod
    def of(message: str, /, **params: Any) -> Text:
        return Text(message, params)

    @staticmethod
    def plural(singular: str, plural: str, count: int, /, **params: Any) -> Text:
        """``{count}`` is filled with ``count`` unless given."""
        return Text(singular, {"count": count, **params}, plural, count)

    @staticmethod
    def ctx(context: str, message: str, /) -> Text:
        return Text(message, context=context)

    def __str__(self) -> str:
        return EN(self)


class Tr:
    """One language's messages."""

    def __init__(self, lang: str, catalogue: gettext.NullTranslations) -> None:
        self.lang = lang
        self._catalogue = catalogue

    def __call__(self, message: str | Text, /, **params: Any) -> str:
        if isinstance(message, Text):
            if message.plural_message is not None:
                template = self._catalogue.ngettext(
                    message.message, message.plural_message, message.count)
            elif message.context is not None:
                template = self._catalogue.pgettext(message.context, message.message)
            else:
                template = self._catalogue.gettext(message.message)
            return self._fill(template, {**message.params, **params})
        return self._fill(self._catalogue.gettext(message), params)

    def plural(self, singular: str, plural: str, count: int, /, **params: Any) -> str:
        """The form for ``count`` (1 card, 2 cards; 1 карта, 2 карты, 5 карт)."""
        template = self._catalogue.ngettext(singular, plural, count)
        return self._fill(template, {"count": count, **params})

    def ctx(self, context: str, message: str) -> str:
        """A message whose English alone is ambiguous (a command's name, say)."""
        return self._catalogue.pgettext(context, message)

    def _fill(self, template: str, params: Mapping[str, Any]) -> str:
        if not params:
            return template
        values = {k: self(v) if isinstance(v, Text) else v for k, v in params.items()}
        return template.format(**values)

    def __repr__(self) -> str:
        return f"Tr({self.lang!r})"


@cache
def languages() -> tuple[str, ...]:
    """Every language the bot speaks: English, and one per catalogue file."""
    found = sorted(p.name.removesuffix(".po") for p in _locales().iterdir()
                   if p.name.endswith(".po"))
    return (ENGLISH, *found)


def _locales() -> Any:
    return resources.files("umtali") / "locales"


def tr_for(lang: str | None) -> Tr:
    """The messages of ``lang`` (a language code such as ``ru``, or a Discord locale such as
    ``ru`` or ``en-GB``); English for anything the bot does not speak."""
    return _catalogue(language_of(lang))


@cache
def _catalogue(code: str) -> Tr:
    if code == ENGLISH:
        return EN
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:
        # Bare python3, without the project's .venv (a replay file's command, the deals'
        # check): read with the standard library, as Babel would.
        from umtali.po import translations

        text = (_locales() / f"{code}.po").read_text(encoding="utf-8", errors="replace")
        return Tr(code, translations(text))
    with (_locales() / f"{code}.po").open("rb") as f:
        catalog = read_po(f, locale=code)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Tr(code, gettext.GNUTranslations(buffer))


def language_of(locale: str | None) -> str:
    """The language the bot speaks for a locale tag: ``ru-RU`` → ``ru``, ``de`` → ``en``; a
    POSIX locale too, with or without its territory: ``ru_RU.UTF-8``, ``ru.UTF-8``, ``ru@x``."""
    if not locale:
        return ENGLISH
    code = re.split(r"[-_.@]", locale, maxsplit=1)[0].lower()
    return code if code in languages() else ENGLISH


EN = Tr(ENGLISH, gettext.NullTranslations())


def N_(message: str) -> str:
    """Names a message now (a constant, say) for the catalogue; translated where it is shown."""
    return message


def sentence(text: str) -> str:
    """A reason as a sentence: a capital first and a full stop last."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
