"""A gettext catalogue (``umtali/locales/<lang>.po``) read with the standard library alone.

Babel reads it where the project's .venv is (the bot, ``make play``); bare ``python3``, which
a replay file's command (``python3 -m umtali script … --lang ru``) and the deals' check run on,
has no Babel. The reader follows Babel's ``read_po`` step by step, odd or broken files too (a
message without its translation, a plural form missing, escapes Babel keeps as written), and the
catalogue is laid out as its ``write_mo`` would compile it (fuzzy and untranslated messages left
out, an empty plural form read as the English), then handed to ``gettext``, so both read it
alike (tests/test_fix162_bare_russian.py and tests/test_fix164_po_reader.py compare them). What
Babel only warns about is skipped; what would make it (or ``gettext``) raise is skipped too: a
broken catalogue must not stop every command of a terminal in that language."""

from __future__ import annotations

import gettext
import io
import re
import struct
from dataclasses import dataclass, field

#: Babel's unescaping: the letters of C's escapes, ``\\`` and ``\"``; any other backslash
#: (``\u0041``, ``\x41``, ``\303``) is kept as written.
_ESCAPE = re.compile(r'\\([\\abfnrtv"])')
_LETTERS = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
#: What ``bytes.strip()`` strips: Babel strips each line before decoding it.
_ASCII_SPACE = " \t\n\r\x0b\x0c"
#: The text is read as UTF-8 and written so, as Babel's header says whatever the file's did
#: (without one, ``gettext`` would read every message as ASCII and fail on the first Cyrillic).
_UTF8 = "Content-Type: text/plain; charset=utf-8\n"


def _unescape(quoted: str) -> str:
    # As Babel: the first and last characters are taken for the quotes, whatever they are.
    return _ESCAPE.sub(lambda m: _LETTERS.get(m.group(1), m.group(1)), quoted[1:-1])


def _text(parts: list[str]) -> str:
    return "".join(_unescape(p) for p in parts)


@dataclass
class _Message:
    id: str | tuple[str, ...]
    string: str | tuple[str, ...]
    context: str | None
    flags: set[str]


@dataclass
class _Reader:
    """Babel's ``PoFileParser``, its state named as there."""
    found: dict[tuple[str, str | None], _Message] = field(default_factory=dict)
    headers: list[str] = field(default_factory=list)
    nplurals: int = 2
    messages: list[list[str]] = field(default_factory=list)
    translations: list[tuple[int, list[str]]] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    context: list[str] | None = None
    obsolete: bool = False
    in_msgid: bool = False
    in_msgstr: bool = False
    in_msgctxt: bool = False

    def reset(self) -> None:
        self.messages, self.translations, self.flags, self.context = [], [], set(), None
        self.obsolete = self.in_msgid = self.in_msgstr = self.in_msgctxt = False

    def finish(self) -> None:
        if self.messages:
            if not self.translations:  # a msgid with no msgstr: an untranslated message
                self.translations.append((0, []))
            self.add()

    def add(self) -> None:
        string: str | tuple[str, ...]
        if len(self.messages) > 1:
            msgid: str | tuple[str, ...] = tuple(_text(m) for m in self.messages)
            forms = [""] * self.nplurals
            for form, text in sorted(self.translations):
                # Forms past nplurals dropped (Babel warns), missing ones left empty.
                if -self.nplurals <= form < self.nplurals:
                    forms[form] = _text(text)
            string = tuple(forms)
        else:
            msgid, string = _text(self.messages[0]), _text(self.translations[0][1])
        # A msgctxt line, even ``msgctxt ""``, makes a context (of the catalogue's own key).
        context = _text(self.context) if self.context else None
        if not self.obsolete:
            self.keep(_Message(msgid, string, context, self.flags))
        self.reset()

    def keep(self, message: _Message) -> None:
        key = (message.id if isinstance(message.id, str) else message.id[0], message.context)
        current = self.found.get(key)
        if current is not None:
            # The first one stays, as in Babel's catalogue, unless the later one has plurals.
            if not isinstance(current.id, tuple) and isinstance(message.id, tuple):
                current.id, current.string = message.id, message.string
            current.flags |= message.flags
        elif message.id == "" and isinstance(message.string, str):
            self.headers.append(message.string)
            self.nplurals = _nplurals(message.string, self.nplurals)
        else:
            self.found[key] = message

    def keyword(self, line: str, obsolete: bool) -> None:
        keyword, _, arg = line.partition(" ")
        if keyword in ("msgid", "msgctxt"):
            self.finish()
        self.obsolete = obsolete
        if keyword in ("msgid", "msgid_plural"):
            self.in_msgctxt, self.in_msgid = False, True
            self.messages.append([arg.strip()])
        elif keyword == "msgctxt":
            self.in_msgctxt, self.context = True, [arg.strip()]
        elif keyword == "msgstr" or keyword.startswith("msgstr["):
            _, bracket, index = keyword.partition("[")
            if bracket and not re.fullmatch(r"-?[0-9]+\]", index):
                return  # Babel raises here (int("x")): skipped instead
            self.in_msgid, self.in_msgstr = False, True
            self.translations.append((int(index[:-1]) if bracket else 0,
                                      [arg.strip()] if arg != '""' else []))
        # Anything else (a tab after the keyword, a misspelling): skipped, as Babel does.

    def continued(self, line: str) -> None:
        if self.in_msgid:
            self.messages[-1].append(line.strip())
        elif self.in_msgstr:
            self.translations[-1][1].append(line.strip())
        elif self.in_msgctxt and self.context is not None:
            self.context.append(line.strip())

    def read(self, text: str) -> None:
        for raw in text.split("\n"):
            line = raw.strip(_ASCII_SPACE)
            if not line:
                continue
            if line.startswith("#~"):
                line, obsolete = line[2:].lstrip(), True
            elif line.startswith("#"):
                self.finish()
                if line.startswith("#,"):
                    self.flags.update(f.strip() for f in line[2:].lstrip().split(","))
                continue
            else:
                obsolete = False
            if line.startswith('"'):
                self.continued(line)
            elif line:
                self.keyword(line, obsolete)
        self.finish()


def _nplurals(header: str, before: int) -> int:
    for line in header.split("\n"):
        name, _, value = line.partition(":")
        if name.strip().lower() == "plural-forms":
            found = re.search(r"nplurals\s*=\s*([0-9]+)", value)
            return int(found.group(1)) if found else 2
    return before


def _pairs(reader: _Reader) -> list[tuple[str, str]]:
    """The .mo file's messages in the order Babel's ``write_mo`` writes them (``gettext``
    keeps the last of two with one key): the headers first (``gettext`` reads each in turn,
    the later ones' fields over the earlier ones', as Babel's catalogue does)."""
    chosen = [m for m in reader.found.values() if m.string and "fuzzy" not in m.flags]
    chosen.sort(key=lambda m: (m.id if isinstance(m.id, str) else m.id[0], m.context or ""))
    pairs = [("", h) for h in [*reader.headers, _UTF8]]
    for m in chosen:
        if isinstance(m.id, tuple):
            if len(m.id) != 2:
                continue  # two msgid_plural lines: gettext could not read it
            forms = [s or m.id[min(i, 1)] for i, s in enumerate(m.string)]
            key, value = "\0".join(m.id), "\0".join(forms)
        else:
            key, value = m.id, str(m.string)
        if m.context:
            key = f"{m.context}\x04{key}"
        if key.count("\0") == (1 if isinstance(m.id, tuple) else 0):
            pairs.append((key, value))
    return pairs


def _mo(pairs: list[tuple[str, str]]) -> bytes:
    """The .mo file of ``pairs``, laid out as Babel's ``write_mo`` lays it out."""
    encoded = [(k.encode(errors="replace"), v.encode(errors="replace")) for k, v in pairs]
    ids, strs = bytearray(), bytearray()
    offsets = []
    for key_bytes, value_bytes in encoded:
        offsets.append((len(ids), len(key_bytes), len(strs), len(value_bytes)))
        ids += key_bytes + b"\0"
        strs += value_bytes + b"\0"
    keystart = 7 * 4 + 16 * len(encoded)
    valuestart = keystart + len(ids)
    table: list[int] = []
    for o1, l1, _, _ in offsets:
        table += [l1, o1 + keystart]
    for _, _, o2, l2 in offsets:
        table += [l2, o2 + valuestart]
    header = struct.pack("<Iiiiiii", 0x950412DE, 0, len(encoded), 7 * 4,
                         7 * 4 + len(encoded) * 8, 0, 0)
    return header + struct.pack(f"<{len(table)}i", *table) + bytes(ids) + bytes(strs)


def translations(text: str) -> gettext.GNUTranslations:
    """The catalogue whose .po text is ``text``, as ``gettext`` reads a compiled one."""
    reader = _Reader()
    reader.read(text)
    pairs = _pairs(reader)
    try:
        return gettext.GNUTranslations(io.BytesIO(_mo(pairs)))
    except (ValueError, LookupError, SyntaxError, UnicodeError):
        # A header gettext cannot read (a plural rule, a charset): the messages without it.
        return gettext.GNUTranslations(io.BytesIO(_mo([("", _UTF8), *(p for p in pairs
                                                                      if p[0])])))
