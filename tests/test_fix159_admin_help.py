"""review141: a new admin reads ``/umtali-admin settings``' option help and the settings line.
The help names each default (GuildSettings'), says how the two clocks replace each other, and
stays within Discord's 100 characters in every language; English capitalises the rule sets."""

from __future__ import annotations

from discord import app_commands

from cogs.umtali.admin import UmtaliAdminCog, settings_summary
from cogs.umtali.options import MAX_TIMER, variant_word
from data.models import GuildSettings
from umtali.i18n import EN, languages, tr_for

DEFAULTS = GuildSettings(guild_id=1)


def described() -> dict[str, str]:
    """The settings command's options and their help, as registered (English)."""
    [settings] = [c for c in UmtaliAdminCog.__cog_app_commands__ if c.name == "settings"]
    assert isinstance(settings, app_commands.Command)
    return {p.name: p.description for p in settings.parameters}


def test_the_settings_help_says_how_the_clocks_replace_each_other() -> None:
    help_of = described()
    assert "turn_timer instead: a plain timer, no reserve" in help_of["time_control"]
    assert "a turn timer: no reserve" not in help_of["time_control"]
    assert f"0-{MAX_TIMER}" in help_of["turn_timer"]
    assert "replaces the time control" in help_of["turn_timer"]


def test_the_settings_help_names_the_defaults() -> None:
    help_of = described()
    on_off = {True: "on", False: "off"}
    assert f"default: {on_off[DEFAULTS.threads]}" in help_of["threads"]
    assert f"default: {on_off[DEFAULTS.pictures]}" in help_of["pictures"]
    assert f"default: {DEFAULTS.seasons}" in help_of["seasons"]
    ru = tr_for("ru")
    for name in ("threads", "pictures", "seasons", "time_control", "turn_timer"):
        assert "по умолчанию" in ru(help_of[name]), name


def test_every_settings_help_fits_discords_100_characters_in_every_language() -> None:
    for language in languages():
        tr = tr_for(language)
        for name, text in described().items():
            assert 1 <= len(tr(text)) <= 100, (language, name, tr(text))


def test_english_capitalises_the_rule_sets_and_russian_keeps_its_words() -> None:
    assert (variant_word(EN, "english"), variant_word(EN, "russian")) == ("English", "Russian")
    line = settings_summary(GuildSettings(guild_id=1, variant="russian"), EN, "en")
    assert "Defaults for new matches:\n- Rules: Russian\n" in line, line
    ru = tr_for("ru")
    assert (variant_word(ru, "english"), variant_word(ru, "russian")) == ("английские",
                                                                           "русские")
