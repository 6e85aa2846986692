"""The message catalogues kept in step with the code (``make messages``, and the tests).

Messages are found in the source by the calls that carry them: ``tr("…")``,
``tr.plural("…", "…", n)``, ``tr.ctx("context", "…")``, ``Text.of("…")``,
``Text.plural("…", "…", n)`` and ``N_("…")`` (a message named now, translated later). The
slash commands' names and descriptions come from the bot's command tree, given by the caller.
"""

from __future__ import annotations

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


def update(root: Path, extra: Iterable[Message] = ()) -> None:
    """Rewrite every catalogue: new messages added untranslated, gone ones dropped, sorted."""
    template = Catalog(project="Umtali for Discord", fuzzy=False)
    for m in [*extract(root), *extra]:
        mid: str | tuple[str, str] = (m.id, m.plural) if m.plural else m.id
        template.add(mid, context=m.context, locations=[(m.where.split(":")[0], 0)]
                     if m.where else ())
    for po in sorted(LOCALES.glob("*.po")):
        catalog = read(po.stem)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        with po.open("wb") as f:
            write_po(f, catalog, width=100, no_location=True, sort_output=True,
                     omit_header=False)
