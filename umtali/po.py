"""A gettext catalogue (``umtali/locales/<lang>.po``) read with the standard library alone.

Babel reads it where the project's .venv is (the bot, ``make play``); bare ``python3``, which
a replay file's command (``python3 -m umtali script … --lang ru``) and the deals' check run on,
has no Babel. The catalogue is laid out as Babel's ``write_mo`` would compile it (fuzzy and
untranslated messages left out, a plural form left empty read as the English), and handed to
``gettext``, so both read it alike (tests/test_fix162_bare_russian.py compares them)."""

from __future__ import annotations

import ast
import gettext
import io
import struct
from dataclasses import dataclass, field


@dataclass
class _Entry:
    context: str | None = None
    id: str = ""
    plural: str | None = None
    strings: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False


def _entries(text: str) -> list[_Entry]:
    """The messages of a .po file, obsolete ones (``#~``) left out."""
    found: list[_Entry] = []
    entry = _Entry()
    target = ("", 0)
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        keyword, _, value = line.partition(" ")
        # A comment, or a message's first line, after a translation: the next message.
        if entry.strings and (line.startswith("#") or keyword in ("msgctxt", "msgid")):
            found.append(entry)
            entry = _Entry()
        if line.startswith("#"):
            entry.fuzzy = entry.fuzzy or (line.startswith("#,") and "fuzzy" in line)
            continue
        if line.startswith('"'):
            _add(entry, target, ast.literal_eval(line))
            continue
        target = ("msgstr", int(keyword[7:-1])) if keyword.startswith("msgstr[") else (keyword, 0)
        if target[0] == "msgstr":
            entry.strings.setdefault(target[1], "")
        _add(entry, target, ast.literal_eval(value))
    if entry.strings:
        found.append(entry)
    return found


def _add(entry: _Entry, target: tuple[str, int], text: str) -> None:
    keyword, form = target
    if keyword == "msgctxt":
        entry.context = (entry.context or "") + text
    elif keyword == "msgid":
        entry.id += text
    elif keyword == "msgid_plural":
        entry.plural = (entry.plural or "") + text
    elif keyword == "msgstr":
        entry.strings[form] = entry.strings.get(form, "") + text


def _mo(entries: list[_Entry]) -> bytes:
    """The .mo file Babel's ``write_mo`` makes of them."""
    pairs: list[tuple[bytes, bytes]] = []
    for e in entries:
        if e.plural is not None:
            forms = [e.strings[i] or (e.id if i == 0 else e.plural) for i in sorted(e.strings)]
            key, value = f"{e.id}\0{e.plural}", "\0".join(forms)
        else:
            key, value = e.id, e.strings.get(0, "")
            if key and not value:
                continue
        if key and e.fuzzy:
            continue
        if e.context is not None:
            key = f"{e.context}\x04{key}"
        pairs.append((key.encode(), value.encode()))
    pairs.sort()
    ids, strs = bytearray(), bytearray()
    offsets = []
    for key_bytes, value_bytes in pairs:
        offsets.append((len(ids), len(key_bytes), len(strs), len(value_bytes)))
        ids += key_bytes + b"\0"
        strs += value_bytes + b"\0"
    keystart = 7 * 4 + 16 * len(pairs)
    valuestart = keystart + len(ids)
    table: list[int] = []
    for o1, l1, _, _ in offsets:
        table += [l1, o1 + keystart]
    for _, _, o2, l2 in offsets:
        table += [l2, o2 + valuestart]
    header = struct.pack("<Iiiiiii", 0x950412DE, 0, len(pairs), 7 * 4, 7 * 4 + len(pairs) * 8,
                         0, 0)
    return header + struct.pack(f"<{len(table)}i", *table) + bytes(ids) + bytes(strs)


def translations(text: str) -> gettext.GNUTranslations:
    """The catalogue whose .po text is ``text``, as ``gettext`` reads a compiled one."""
    return gettext.GNUTranslations(io.BytesIO(_mo(_entries(text))))
