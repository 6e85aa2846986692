"""The message catalogues kept in step with the code (``make messages``, and the tests).

Messages are found in the source by the calls that carry them: ``tr("…")``,
``tr.plural("…", "…", n)``, ``tr.ctx("context", "…")``, ``Text.of("…")``,
``Text.plural("…", "…", n)`` and ``N_("…")`` (a message named now, translated later). The
slash commands' names and descriptions come from the bot's command tree, given by the caller.
"""

from __future__ import annotations

import io
import string
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

#: Call names and the arguments that are messages (Babel's keyword form).
KEYWORDS: dict[str, object] = {
    "tr": None,
    "of": None,
    "N_": None,
    "plural": (1, 2),
    "ctx": ((1, "c"), 2),
}
#: The folders and files whose Python holds messages, from the project's root.
SOURCES = ("umtali", "cogs", "data", "bot.py")
LOCALES = Path(__file__).parent / "locales"


@dataclass(frozen=True)
class Message:
    id: str
    plural: str | None = None
    context: str | None = None
    where: str = ""


def extract(root: Path) -> list[Message]:
    """Every message in the project's source, in order of appearance."""
    found: list[Message] = []
    for source in SOURCES:
        path = root / source
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        for file in files:
            where = str(file.relative_to(root))
            for line, text, _comments, context in extract_from_file(
                    "python", str(file), keywords=KEYWORDS):  # type: ignore[arg-type]
                if isinstance(text, tuple):
                    ids = [t for t in text if t]
                    plural = ids[1] if len(ids) > 1 else None
                    found.append(Message(ids[0], plural, context, f"{where}:{line}"))
                elif text:
                    found.append(Message(text, None, context, f"{where}:{line}"))
    return found


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a message."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def read(language: str) -> Catalog:
    with (LOCALES / f"{language}.po").open("rb") as f:
        return read_po(f, locale=language)


def template(root: Path, extra: Iterable[Message] = ()) -> Catalog:
    """Every message the code says (``extra``: the slash commands')."""
    found = Catalog(project="Umtali for Discord", fuzzy=False)
    for m in [*extract(root), *extra]:
        mid: str | tuple[str, str] = (m.id, m.plural) if m.plural else m.id
        found.add(mid, context=m.context, locations=[(m.where.split(":")[0], 0)]
                  if m.where else ())
    return found


def updated(language: str, messages: Catalog) -> bytes:
    """The catalogue of ``language`` as ``make messages`` writes it: the messages of
    ``messages`` (from ``template``), new ones untranslated, gone ones dropped, sorted. Its date
    is left as it was, so that a catalogue already in step is written exactly as it is (and
    a run of ``make messages`` changes no more lines than the messages that changed)."""
    catalog = read(language)
    created = catalog.creation_date
    catalog.update(messages, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.creation_date = created
    out = io.BytesIO()
    write_po(out, catalog, width=100, no_location=True, sort_output=True, omit_header=False)
    return out.getvalue()


def update(root: Path, extra: Iterable[Message] = ()) -> None:
    """Rewrite every catalogue in step with the code (``updated``)."""
    messages = template(root, extra)
    for po in sorted(LOCALES.glob("*.po")):
        po.write_bytes(updated(po.stem, messages))
