"""Options shared by the player and admin commands, and the words that show what they chose."""

from __future__ import annotations

from babel import Locale
from discord import app_commands

from cogs.umtali.durations import unit_words
from cogs.umtali.names import seat_names
from cogs.umtali.time_control import LABELS, PRESETS
from data.models import GuildSettings
from umtali.i18n import N_, Text, Tr, languages

VARIANTS = [
    app_commands.Choice(name="English (eleven-card deal, high card deals)", value="english"),
    app_commands.Choice(name="Russian (upcard deal, low card deals)", value="russian"),
]

#: The time control presets, by their labels (translated when the commands are synced).
TIME_CONTROLS = [app_commands.Choice(name=label, value=name) for name, label in LABELS.items()]

#: The server language option's value for "follow the server's preferred locale" (a choice
#: cannot carry an empty value; the setting stores it as '').
SERVER_DEFAULT = "default"
#: Marks a choice shown as it is in every language: a language's own name.
AS_IS = "as_is"


def language_name(code: str) -> str:
    """A language by its own name, as its speakers write it: English, Русский."""
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


def language_in(code: str, tr: Tr) -> str:
    """A language named in ``tr``'s words, for a sentence: Russian, English; русский,
    английский (a choice shows each by its own name, ``language_name``)."""
    return Locale.parse(code).get_display_name(tr.lang) or code


def language_choices() -> list[app_commands.Choice[str]]:
    """The server's language: its preferred locale, or one the bot speaks by its own name."""
    return [
        app_commands.Choice(name="server default", value=SERVER_DEFAULT),
        *(app_commands.Choice(name=app_commands.locale_str(language_name(code), **{AS_IS: True}),
                              value=code) for code in languages()),
    ]


#: A turn timer option's range in minutes, as synced (Discord's client keeps to it).
MAX_TIMER = 60


def timer_refusal(minutes: int | None, tr: Tr, preset: object | None = None) -> str | None:
    """Why a turn timer outside 0..60 is refused (only a client with stale commands sends
    one), or a turn timer given with a time control (``preset``: each is a whole clock, and
    silently keeping one would run a clock the player did not choose): the command does
    nothing rather than run with a value nobody chose."""
    if minutes is not None and preset is not None:
        return tr("Choose either a turn timer or a time control, not both.")
    if minutes is None or 0 <= minutes <= MAX_TIMER:
        return None
    return tr("Choose a turn timer of 0 to {most} minutes (0: no limit).", most=MAX_TIMER)


def turn_seconds(minutes: int | None, default: int) -> int:
    """A turn timer option in seconds; Discord enforces 0..60, and so do we."""
    return default if minutes is None else max(0, min(60, minutes)) * 60


def chosen_control(preset: str | None, minutes: int | None, default: tuple[str, int]) -> \
        tuple[str, int]:
    """The time control chosen: (preset, turn timer in seconds). A turn timer given
    explicitly is a control of its own with no reserve (preset ''), as before presets; a
    preset's turn timer is its turn's own time; neither: ``default``."""
    if minutes is not None:
        return "", turn_seconds(minutes, 0)
    if preset in PRESETS:
        return preset, int(PRESETS[preset].turn)
    return default


def server_control(settings: GuildSettings) -> tuple[str, int]:
    """A server's default time control: its preset, or its turn timer alone."""
    preset = settings.time_control
    if preset in PRESETS:
        return preset, int(PRESETS[preset].turn)
    return "", settings.turn_timer


#: A preset as part of a sentence ("clock: normal (5 minutes a turn + 5 minutes reserve)"): its
#: label ("Normal: 5 minutes...") is a menu's, whose capital and colon read wrong after
#: "clock:". Units in words, as the labels have them: a bare "s" is read as the letter.
IN_A_SENTENCE = {
    "blitz": N_("blitz (30 seconds a turn + 2 minutes reserve)"),
    "normal": N_("normal (5 minutes a turn + 5 minutes reserve)"),
    "correspondence": N_("by correspondence (a day a turn)"),
}


def control_words(tr: Tr, preset: str, seconds: int) -> str:
    """A time control in short, in a sentence: its preset's words, or the turn timer alone
    ("5 minutes"; "off")."""
    if preset in IN_A_SENTENCE:
        return tr(IN_A_SENTENCE[preset])
    return timer_words(tr, 0 if preset == "off" else seconds)


def clock_words(tr: Tr, preset: str, seconds: int) -> str:
    """A time control in a sentence, which ends with its own full stop: as ``control_words``,
    but no clock in words of its own (the setting's "off" ends with a period in Russian)."""
    if preset not in IN_A_SENTENCE and (preset == "off" or not seconds):
        return tr.ctx("clock", "off")
    return control_words(tr, preset, seconds)


def on_off(tr: Tr, on: bool) -> str:
    return tr.ctx("setting", "on") if on else tr.ctx("setting", "off")


def variant_word(tr: Tr, variant: str) -> str:
    """A rule set's name as a settings line shows it ("Russian"; "русские")."""
    if variant == "english":
        return tr.ctx("rule set", "English")
    if variant == "russian":
        return tr.ctx("rule set", "Russian")
    return variant


def rules_words(tr: Tr, variant: str, optional_melding: bool) -> str:
    """The rules of a match in short: "English, optional melding"."""
    words = variant_word(tr, variant)
    return tr("{rules}, optional melding", rules=words) if optional_melding else words


def timer_words(tr: Tr, seconds: int) -> str:
    """A turn timer in words: "5 minutes", "30 seconds" or "off" (a bare "s" or "min" is read
    as letters by a screen reader). Whole minutes, as the option sets it."""
    if seconds >= 60:
        return unit_words(seconds // 60, "minute", tr)
    return unit_words(seconds, "second", tr) if seconds else on_off(tr, False)


def computer_name(level: str, tr: Tr) -> str:
    """The practice computer's name, in ``tr``'s language. Bot text, not a nickname: stored
    with the match in the server's language, but shown to each reader in theirs."""
    return tr(computer_named(level))


def names_in(names: tuple[str, str], computer_seat: int | None, level: str | None,
             tr: Tr) -> tuple[str, str]:
    """A match's players' names as ``tr``'s reader sees them: a practice computer's is bot
    text, in the reader's language (it is stored in the server's), a member's their own (by
    its seat when it shows nothing: ``names.seat_names``)."""
    # A member's name that shows nothing is worded by its seat ("Player 1"; "Игрок 1").
    names = seat_names(names, tr)
    if computer_seat is None or level is None:
        return names
    named = list(names)
    named[computer_seat] = computer_name(level, tr)
    return named[0], named[1]


def computer_named(level: str) -> Text:
    """The practice computer's name, to be worded in the language of whoever reads it."""
    return Text.of("Computer ({level})",
                   level=Text.ctx("level", level if level in ("easy", "hard") else "normal"))


def level_word(tr: Tr, level: str) -> str:
    """The computer's level: "easy", "normal", "hard"."""
    if level == "easy":
        return tr.ctx("level", "easy")
    if level == "hard":
        return tr.ctx("level", "hard")
    return tr.ctx("level", "normal")
