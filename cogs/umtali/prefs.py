"""What members and servers chose, kept in memory after the database: looks, hand order and
languages.

A member's choices follow them to every server. Their language is the one their Discord client
showed on their last interaction: their private answers use it, and so do the DMs the bot sends
with no interaction to read it from. A server's matches speak the server's language in public:
the one its admins chose, else the server's own preferred locale: as Discord gives it to the
process that hears from the server, and as last seen there (saved: ``note_guild_locale``) to
any other, which a player's click in a DM may bring the match to (``learn_language``).

With several processes on one database, a choice saved through one reaches the others at their
next lease renewal (``catch_up``, every few seconds): the rows of only the servers and the
members whose choices changed since. What then looks different
is drawn again after the renewal, out of its lock (``take_changed``, ``tell``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable

from data.models import MemberPrefs
from data.settings import Counted, Stamps
from data.store import Store
from umtali.i18n import ENGLISH, Tr, language_of, tr_for


@dataclasses.dataclass(frozen=True)
class Changed:
    """What a ``catch_up`` found another process changed: the servers whose matches look
    different (language, pictures), and the members whose own panels do (language, pictures,
    colours, hand order)."""

    guilds: tuple[int, ...] = ()
    members: frozenset[int] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.guilds or self.members)


class Preferences:
    def __init__(self, store: Store, guild_locale: Callable[[int], str | None]) -> None:
        self.store = store
        #: The preferred locale Discord gives for a server (None when the bot cannot see it).
        self._guild_locale = guild_locale
        #: Members with a choice that is not the default (an English client is none: see
        #: ``_plain``), not every member ever heard from.
        self._members: dict[int, MemberPrefs] = {}
        #: Servers that turned pictures off, for every match they hold.
        self.plain_guilds: set[int] = set()
        #: Servers that chose their matches' language.
        self._guild_languages: dict[int, str] = {}
        #: The language of each server's preferred locale, as last seen (by any process).
        self._seen_languages: dict[int, str] = {}
        #: The choices as last read (``catch_up``).
        self._stamps = Stamps()
        #: While ``catch_up`` reads: the members whose choices were saved here meanwhile (the
        #: read may be older than the save; it is not kept, and read again next time).
        self._saved_meanwhile: set[int] | None = None
        #: The same for the servers whose settings were saved here meanwhile.
        self._guilds_saved_meanwhile: set[int] = set()
        #: Told of each server whose look (language, pictures) ``catch_up`` found changed by
        #: another process: its matches held here are drawn again (``cogs.umtali.display``).
        self.look_listeners: list[Callable[[int], Awaitable[object]]] = []
        #: Told at once of a member whose own look changed through this process (a command,
        #: a newly seen locale), once saved: called as it is kept, so it must not wait.
        self.saved_listeners: list[Callable[[int], None]] = []
        #: What ``catch_up`` found changed and nobody took yet (``take_changed``): kept as
        #: soon as memory has it, so that a read failing after it loses no redraw.
        self._untold_guilds: list[int] = []
        self._untold_members: set[int] = set()

    async def load(self) -> None:
        # Stamped first: a change saved while loading is read again at the first catch-up.
        stamps = await self.store.stamps()
        self._members = {user_id: prefs for user_id, prefs in
                         (await self.store.chosen_prefs()).items() if not _plain(prefs)}
        self.plain_guilds = await self.store.guilds_without_pictures()
        self._guild_languages = await self.store.guild_languages()
        self._seen_languages = await self.store.seen_languages()
        self._stamps = stamps

    async def catch_up(self) -> None:
        """Read again what another process saved since the last read: every server's look
        if any server's settings changed (a server set back to its own locale, unheard here:
        that locale as last seen, ``learn_language``), the choices of the members who changed
        theirs. What now looks different is kept for ``take_changed`` (not told here: the
        lease renewal calls this under its lock, and the redraws read the database). A failed
        read raises, nothing noted: the next call reads it all again."""
        if self._saved_meanwhile is not None:
            return  # one is reading already
        self._saved_meanwhile, self._guilds_saved_meanwhile = set(), set()
        try:
            now = await self.store.stamps()
            if now.settings != self._stamps.settings:
                # Only the servers changed since the last read, unless an older process
                # changed one since (past a migration: uncounted, ``SETTINGS_STAMP``): all.
                stamp = Counted.read(now.settings)
                only = stamp is not None and stamp.change == now.guilds \
                    and self._stamps.guilds >= stamp.whole_from
                looks = await self.store.guild_looks(self._stamps.guilds if only else None)
                for guild_id, (language, _pictures) in looks.items():
                    if not language and guild_id in self._guild_languages \
                            and not self._guild_locale(guild_id):
                        # Set back to the server's own locale, which Discord does not give
                        # here (a server this process does not hear from): as last seen, read
                        # now (what start-up read may lack it, or be older). Else English.
                        await self.learn_language(guild_id)
                for guild_id, (language, pictures) in looks.items():
                    if guild_id not in self._guilds_saved_meanwhile:
                        was = self.guild_look(guild_id)
                        self._guild_language(guild_id, language)
                        self._guild_pictures(guild_id, pictures)
                        if self.guild_look(guild_id) != was and \
                                guild_id not in self._untold_guilds:
                            self._untold_guilds.append(guild_id)
                # As for the members below: a server passed over is read again next time.
                if not self._guilds_saved_meanwhile:
                    self._stamps = dataclasses.replace(self._stamps, settings=now.settings,
                                                       guilds=now.guilds)
            if now.prefs != self._stamps.prefs:
                changed = await self.store.prefs_changed_since(self._stamps.prefs)
                for prefs in changed:
                    if prefs.user_id not in self._saved_meanwhile:
                        before = self.of(prefs.user_id)
                        self._keep(prefs)
                        if self.of(prefs.user_id) != before:
                            self._untold_members.add(prefs.user_id)
                # Noted as it was before the rows were read: a row changed since is read
                # again next time. A row passed over may be older than the save here, or
                # newer: all are read again next time, when no save is in the way.
                if not self._saved_meanwhile.intersection(p.user_id for p in changed):
                    self._stamps = dataclasses.replace(self._stamps, prefs=now.prefs)
        finally:
            self._saved_meanwhile = None

    def take_changed(self) -> Changed:
        """What the catch-ups found changed since this was last taken, to be told (``tell``)."""
        changed = Changed(tuple(self._untold_guilds), frozenset(self._untold_members))
        self._untold_guilds, self._untold_members = [], set()
        return changed

    async def tell(self, changed: Changed) -> None:
        """Tell the listeners what ``catch_up`` found changed of each server, one after
        another (the members' is drawn again by ``display.redraw_changed`` itself)."""
        for guild_id in changed.guilds:
            for listener in list(self.look_listeners):
                await listener(guild_id)

    # -- members ----------------------------------------------------------------------------

    def of(self, user_id: int) -> MemberPrefs:
        return self._members.get(user_id) or MemberPrefs(user_id)

    def _keep(self, prefs: MemberPrefs) -> None:
        if _plain(prefs):
            self._members.pop(prefs.user_id, None)
        else:
            self._members[prefs.user_id] = prefs

    def _saved(self, prefs: MemberPrefs, *, told: bool = False) -> None:
        """Kept once saved here; the listeners told if that changed the member's look here
        (``told``: whether or not, the member having chosen it)."""
        before = self.of(prefs.user_id)
        self._keep(prefs)
        if self._saved_meanwhile is not None:
            self._saved_meanwhile.add(prefs.user_id)
        if told or self.of(prefs.user_id) != before:
            for listener in list(self.saved_listeners):
                listener(prefs.user_id)

    async def set_look(self, user_id: int, *, pictures: bool | None = None,
                       four_colour: bool | None = None) -> MemberPrefs:
        """Saved first, then kept: memory never ahead of the database. Only the half the
        member named (None: not named) is saved: the other may have been changed through
        another process since this one last read it (``catch_up``), and stays as saved there.
        The member's choices as now saved, read with that half as the database has it.
        """
        chosen = {name: int(value) for name, value in (("pictures", pictures),
                                                       ("four_colour", four_colour))
                  if value is not None}
        if not chosen:
            return self.of(user_id)
        # Read first: the look told back is the one saved, not this process's older copy.
        now = (await self.store.member_prefs([user_id]))[user_id]
        # The store's ``set_look`` writes both halves; its general write sets only these.
        await self.store._change_prefs(user_id, chosen)
        saved = dataclasses.replace(
            now, pictures=now.pictures if pictures is None else pictures,
            four_colour=now.four_colour if four_colour is None else four_colour)
        # Told even when this process had it: its panels may have been drawn elsewhere.
        self._saved(saved, told=True)
        return saved

    async def set_hand_order(self, user_id: int, hand_order: str) -> None:
        await self.store.set_hand_order(user_id, hand_order)
        self._saved(dataclasses.replace(self.of(user_id), hand_order=hand_order))

    async def saw_locale(self, user_id: int, locale: str | None) -> None:
        """A member's interaction showed their client's locale: remember its language when it
        changed (one write per change, not per click)."""
        language = language_of(locale)
        # A member not kept speaks English (``_plain``): written only on a change of that.
        if locale and language != language_of(self.of(user_id).language):
            await self.store.set_language(user_id, language)
            self._saved(dataclasses.replace(self.of(user_id), language=language))

    def member_tr(self, user_id: int) -> Tr:
        """A member's language, for what reaches them with no interaction (their DMs)."""
        return tr_for(self.of(user_id).language)

    # -- servers ----------------------------------------------------------------------------

    def guild_tr(self, guild_id: int) -> Tr:
        """The language of a server's public messages."""
        return tr_for(self._language(guild_id))

    def language_known(self, guild_id: int) -> bool:
        """Whether the server's language is known here (chosen, or its locale seen): else
        ``guild_tr`` falls back to English."""
        return bool(self._language(guild_id))

    def _language(self, guild_id: int) -> str | None:
        return (self._guild_languages.get(guild_id) or self._guild_locale(guild_id)
                or self._seen_languages.get(guild_id))

    async def note_guild_locale(self, guild_id: int, locale: str | None) -> None:
        """An interaction on the server showed its preferred locale: saved when its language
        changed (one write per change, not per click), for the processes that do not hear
        from the server."""
        language = language_of(locale)
        if locale and language != self._seen_languages.get(guild_id):
            await self.store.note_seen_language(guild_id, language)
            self._seen_languages[guild_id] = language

    async def learn_language(self, guild_id: int) -> None:
        """The server's locale as another process saw it (``note_guild_locale``), for a match
        of a server this one does not hear from (``language_known`` False), or a server
        whose chosen language went back to its default (``catch_up``)."""
        language = await self.store.seen_language(guild_id)
        if language:
            self._seen_languages[guild_id] = language

    def guild_look(self, guild_id: int) -> tuple[str, bool]:
        """How the server's matches look in public: their language, and whether with
        pictures."""
        return self.guild_tr(guild_id).lang, guild_id not in self.plain_guilds

    def guild_language(self, guild_id: int) -> str:
        """What the server chose ('' for its own preferred locale)."""
        return self._guild_languages.get(guild_id, "")

    def set_guild_language(self, guild_id: int, language: str) -> None:
        """Call once the server's setting is saved."""
        self._guild_saved(guild_id)
        self._guild_language(guild_id, language)

    def set_guild_pictures(self, guild_id: int, on: bool) -> None:
        """Call once the server's setting is saved."""
        self._guild_saved(guild_id)
        self._guild_pictures(guild_id, on)

    def _guild_saved(self, guild_id: int) -> None:
        if self._saved_meanwhile is not None:  # ``catch_up`` is reading
            self._guilds_saved_meanwhile.add(guild_id)

    def _guild_language(self, guild_id: int, language: str) -> None:
        if language:
            self._guild_languages[guild_id] = language
        else:
            self._guild_languages.pop(guild_id, None)

    def _guild_pictures(self, guild_id: int, on: bool) -> None:
        if on:
            self.plain_guilds.discard(guild_id)
        else:
            self.plain_guilds.add(guild_id)


def _plain(prefs: MemberPrefs) -> bool:
    """Nothing to keep of ``prefs``: the defaults, an English client's language included. A
    member never seen is told in English too, and every member who ever clicked anything
    shows a language: kept, they would be kept for as long as the bot runs."""
    return (dataclasses.replace(prefs, language="").is_default
            and language_of(prefs.language) == ENGLISH)
