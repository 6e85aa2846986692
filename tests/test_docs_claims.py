"""What README.md, docs/*.md and .env.example promise, held to the code: the commands and options
the tables name, the make targets, the settings, the tests cited, and the figures quoted."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest
from discord import app_commands

from cogs.umtali.admin import UmtaliAdminCog
from cogs.umtali.arrange import HandOrder
from cogs.umtali.challenges import CHALLENGE_TTL
from cogs.umtali.claims import LEASE
from cogs.umtali.clock import GRACE
from cogs.umtali.clock_state import LATE, NOTICE_AFTER
from cogs.umtali.commands import UmtaliCog, move_choices
from cogs.umtali.names import MAX_ECHO, MAX_NAME
from cogs.umtali.options import MAX_TIMER
from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.pictures import hand, table
from cogs.umtali.pictures.cache import PictureCache
from cogs.umtali.play_panel import MAX_BUTTONS, hand_panel
from cogs.umtali.retries import FAILURES_LOGGED, RETRY_FIRST, RETRY_MAX, TRIES
from cogs.umtali.rules_text import PAGES, pages
from cogs.umtali.tables import TABLE_AGAIN
from cogs.umtali.time_control import PRESETS, time_control
from data.challenges import Limits
from data.db import BUSY_TIMEOUT
from data.models import GuildSettings
from data.pg_db import COMMAND_TIMEOUT, POOL_SIZE
from data.record_reads import PER_PAGE
from data.seasons import KEEP
from tests.helpers import position
from umtali import Move, Session
from umtali.i18n import EN, tr_for
from umtali.moves import side_chosen, typed
from umtali.rules import RuleSet
from umtali.seeds import MAX_TYPED

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md")}
#: The README's Reliability section, in full (the README keeps a summary and a link).
RELIABILITY = DOCS["RELIABILITY.md"]
ENV_EXAMPLE = (ROOT / ".env.example").read_text(encoding="utf-8")
#: The code the bot runs (tests and benches read variables of their own).
SOURCES = [ROOT / "bot.py", ROOT / "scale.py", *(ROOT / "data").rglob("*.py"),
           *(ROOT / "cogs").rglob("*.py"), *(ROOT / "umtali").rglob("*.py")]


def _commands() -> dict[str, list[str]]:
    """Every slash command's path ("umtali challenge") and its options, as registered."""
    out: dict[str, list[str]] = {}
    for cog in (UmtaliCog, UmtaliAdminCog):
        for c in cog.__cog_app_commands__:
            assert isinstance(c, app_commands.Command)
            out[f"{cog.__cog_group_name__} {c.name}"] = [p.name for p in c.parameters]
    return out


def _table_rows(text: str) -> list[tuple[str, list[str]]]:
    """The command tables' rows: the command's path and the options its first cell names."""
    rows = []
    for cell in re.findall(r"^\| `/(umtali[^`]*)` \|", text, re.M):
        words = cell.replace("…", "").split()
        path = " ".join(words[:2])
        rows.append((path, [w.strip("[]") for w in words[2:]]))
    return rows


@pytest.mark.parametrize("part", ["English", "Russian"])
def test_every_command_in_the_readme_tables_is_registered_with_those_options(part: str) -> None:
    english, russian = README.split("## Как играть", 1)
    rows = _table_rows(english if part == "English" else russian)
    registered = _commands()
    assert rows
    for path, options in rows:
        assert path in registered, f"/{path} is not a command"
        if path != "umtali-admin settings":  # its options are named in the text
            assert options == registered[path], f"/{path}: the table names {options}"
    # Every command is in each table.
    assert {path for path, _ in rows} == set(registered)


def test_the_admin_settings_the_readme_names_are_options() -> None:
    options = set(_commands()["umtali-admin settings"])
    named = set(re.findall(r"`(?:/umtali-admin settings )?([a-z_]+):(?!//)", README))
    assert {"seasons", "season_channel", "clear_season_channel", "language"} <= named
    assert named - {"season"} <= options  # season: is /umtali leaderboard's


def test_every_make_target_named_exists() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z-]+):", makefile, re.M))
    # In code: `make x`, a line of a shell block, or after a variable (A=b make run).
    named = set(re.findall(r"(?:`|^|[A-Z_]=\S+ )make ([a-z][a-z-]*)",
                           README + "".join(DOCS.values()), re.M))
    assert {"run", "test", "play", "backup", "proxy", "copy-to-postgres"} <= named
    assert named - targets == set()


def test_every_test_cited_exists() -> None:
    for text in (README, *DOCS.values()):
        for file, name in re.findall(r"`(?:tests/)?(test_[a-z0-9_]+\.py)(?:::(test_[a-z0-9_]+))?`",
                                     text):
            path = next(ROOT.joinpath("tests").rglob(file), None)
            assert path is not None, file
            if name:
                assert re.search(rf"def {name}\(", path.read_text(encoding="utf-8")), \
                    f"{file}::{name}"


def test_every_setting_read_is_in_env_example_and_every_one_there_in_the_readme() -> None:
    read: set[str] = set()
    for path in SOURCES:
        read |= set(re.findall(r"\b((?:UMTALI|DISCORD)_[A-Z_]+)\b", path.read_text("utf-8")))
    listed = set(re.findall(r"^#? ?([A-Z_]+)=", ENV_EXAMPLE, re.M))
    # Not settings: Discord's own base URL constant, and the proxy's own variable.
    assert read - listed - {"DISCORD_API"} == set(), "read by the bot, not in .env.example"
    table = README.split("## Configuration", 1)[1].split("## Operating", 1)[0]
    assert {n for n in listed if f"`{n}" not in table} == set(), "not in the README's table"


def test_the_figures_quoted_are_the_codes() -> None:
    assert CHALLENGE_TTL == 10 * 60 and "it expires after 10 minutes" in README
    limits = Limits()
    assert (limits.open_challenges, limits.challenge_cooldown, limits.practice_cooldown) == \
        (3, 20, 30)
    assert "at most 3 open challenges per member, one challenge every 20\n  seconds and one " \
           "practice session every 30 seconds" in RELIABILITY
    assert PER_PAGE == 10 and "ten a page" in README
    assert TABLE_AGAIN == 60 and "once a minute per match" in README
    assert GuildSettings(guild_id=1).turn_timer == 5 * 60 and "(default 5 minutes;" in README
    assert MAX_NAME == 32 and MAX_ECHO == 100
    assert "at most 32" in README and "cut to 100" in README
    assert PictureCache().size == 512 and "an LRU of 512 PNGs" in README
    assert (table.WIDTH, hand.WIDTH) == (720, 640)
    assert (RENEW_EVERY, LEASE) == (5, 15) and "renewed every 5 seconds" in README
    blitz, normal, corr = PRESETS["blitz"], PRESETS["normal"], PRESETS["correspondence"]
    assert (blitz.turn, blitz.reserve, normal.turn, normal.reserve, corr.turn) == \
        (30, 120, 300, 300, 86400)
    assert corr.warn_before == 2 * 3600 and "a reminder comes two hours before its end" in README


def test_the_rules_in_both_languages_have_the_same_shape() -> None:
    def shape(text: str) -> list[tuple[str, int]]:
        sections = re.split(r"^## ", text, flags=re.M)[1:]
        return [(s.split()[0], len(re.findall(r"^(?:- |\d\. |\| )", s, re.M)))
                for s in sections]
    assert shape(DOCS["RULES.md"]) == shape(DOCS["RULES.ru.md"])


#: Numbers as the docs write them in words, in English and Russian.
WORDS = {2: ("two", "двух"), 3: ("three", "трёх"), 4: ("four", "четыре"), 5: ("five", "пять"),
         6: ("six", "шесть"), 12: ("twelve", "двенадцать")}


def halves() -> tuple[str, str]:
    english, russian = README.split("## Как играть", 1)
    return english, russian


def test_the_turn_timers_range_and_warnings_are_the_codes() -> None:
    english, russian = halves()
    ranges = {(p.min_value, p.max_value) for cog in (UmtaliCog, UmtaliAdminCog)
              for c in cog.__cog_app_commands__ if isinstance(c, app_commands.Command)
              for p in c.parameters if p.name == "turn_timer"}
    assert ranges == {(0, MAX_TIMER)}
    assert f"1 to {MAX_TIMER} minutes per server and per challenge; can be off,\n  0)" in english
    assert f"(от 1 до {MAX_TIMER} минут или без\nограничения, 0)" in russian
    # A minute before the deadline; half a one-minute turn; blitz its own.
    assert time_control("", 300).warn_before == 60 == PRESETS["normal"].warn_before
    assert time_control("", 60).warn_before == 30
    blitz = int(PRESETS["blitz"].warn_before)
    assert "a warning in the thread a minute before the deadline (half-way through a one-minute" \
           f"\n  turn; {blitz} seconds before it in blitz)" in english
    assert f"за минуту до конца (на ходу в одну минуту — на его середине, в блице — за {blitz}\n" \
        "секунд)" in russian


def test_the_spam_limits_are_the_codes_in_both_halves() -> None:
    english, russian = halves()
    limits = Limits()
    opened, every = limits.open_challenges, int(limits.challenge_cooldown)
    practice, offers = int(limits.practice_cooldown), limits.practice_offers
    assert f"On a server you may have at most {opened} challenges open, and send one every " \
           f"{every} seconds." in english
    assert f"На сервере открытых вызовов у вас может быть не больше {opened}, и отправлять их " \
           f"можно не чаще раза в {every} секунд." in russian
    # Each member's own limits (``Limits``: per member per server), not the server's (review103).
    assert f"you may start one every {practice} seconds on a server, and ask for at most " \
           f"{offers} there within {practice} seconds" in english
    assert f"на одном сервере вы можете начинать тренировку не чаще раза в {practice} секунд, а " \
           f"просить — не больше {offers} раз за {practice} секунд" in russian
    hold, pair = int(limits.pair_window // 60), limits.pair_challenges
    # From the "no", and growing with a second (fix162): no longer from the sending.
    again, daily = int(limits.repeat_hold // 3600), limits.pair_daily
    assert f"can be challenged again {hold} minutes after they declined it ({again} hours after " \
           f"a second \"no\" within a day), and at most {pair} challenges to one member, not " \
           f"accepted, go out in {hold} minutes (at most {daily} in a day" in english
    assert f"можно вызвать снова через {hold} минут после отказа (после второго отказа за сутки " \
           f"— через {again} часа), и одному участнику за {hold} минут уходит не больше {pair} " \
           f"непринятых вызовов (за сутки — не больше {daily}" in russian
    assert limits.day == 86400  # "within a day", "in a day"


def test_the_rules_figures_in_the_docs_are_the_engines() -> None:
    rules = RuleSet()
    quiet, hands = rules.stall_turns, rules.hands_per_game
    games = 2 * rules.games_to_win - 1
    english, _ = halves()
    assert f"A game is {WORDS[hands][0]} hands" in english
    assert f"a session is best of {WORDS[games][0]} games" in english
    assert f"after {WORDS[quiet][0]} turns in a row with no\n  stock draw" in english
    assert f"if {WORDS[quiet][0]} turns in a row ({WORDS[quiet // 2][0]} each)" in DOCS["RULES.md"]
    assert f"если {WORDS[quiet][1]} ходов подряд (по {WORDS[quiet // 2][1]} у каждого)" \
        in DOCS["RULES.ru.md"]
    assert f"A **game** is {WORDS[hands][0]} hands" in DOCS["RULES.md"]
    assert f"**Партия** — {WORDS[hands][1]} раздачи" in DOCS["RULES.ru.md"]


def test_the_playing_page_quotes_the_default_clock() -> None:
    default = GuildSettings(guild_id=1).turn_timer // 60
    corr = PRESETS["correspondence"].turn
    assert corr == 24 * 3600
    en, ru = PAGES[-1][1], pages(tr_for("ru"))[-1][1]
    assert f"a time limit ({WORDS[default][0]} minutes unless the server" in en
    assert f"({WORDS[default][1]} минут, если сервер или вызов" in ru
    assert "by correspondence (a day a turn)" in en and "по переписке (сутки на ход)" in ru
    english, russian = halves()
    assert f"(default {default} minutes;" in english
    assert f"На ход даётся {WORDS[default][1]} минут, если сервер" in russian


def test_more_figures_quoted_are_the_codes() -> None:
    english, russian = halves()
    late = int(LATE)
    assert f"up to {late} seconds late" in english and \
        f"only {late} seconds after its deadline" in english
    assert f"с опозданием до {late} секунд" in russian and \
        f"лишь через {late} секунды после конца хода" in russian
    assert f"({int(RETRY_FIRST)} seconds, doubling up to {int(RETRY_MAX // 60)} minutes)" \
        in RELIABILITY
    assert f"({TRIES} tries)" in RELIABILITY and \
        f"an error at the {FAILURES_LOGGED}th try" in RELIABILITY
    assert f"up to its {int(BUSY_TIMEOUT)}-second busy timeout" in RELIABILITY
    assert f"(up to {MAX_TYPED} characters" in english and f"(до {MAX_TYPED} знаков" in russian
    assert f"one menu when there are more than {WORDS[MAX_BUTTONS][0]}" in english
    assert GRACE == 60 and "(at least a minute," in RELIABILITY
    assert PRESETS["correspondence"].warn_before == 2 * 3600 and "два часа до конца хода" \
        in russian
    blitz, normal = PRESETS["blitz"], PRESETS["normal"]
    # Units in words, as the bot says them (a bare "s" is read as the letter).
    assert f"блиц ({int(blitz.turn)} секунд на ход + {int(blitz.reserve // 60)} минуты запаса), " \
           f"обычный ({int(normal.turn // 60)} минут на ход + {int(normal.reserve // 60)} минут " \
           "запаса), по переписке (сутки на ход)" in russian
    assert f"`blitz` ({int(blitz.turn)} seconds a turn + {int(blitz.reserve // 60)} minutes\n" \
           f"  reserve), `normal` ({int(normal.turn // 60)} minutes a turn + " \
           f"{int(normal.reserve // 60)} minutes reserve)" in english
    assert KEEP == 0.5 and "moves halfway" in english and "сдвигается наполовину" in russian
    assert f"a pool (up to {POOL_SIZE} connections)" in DOCS["DATABASE.md"]
    assert f"fails after {int(COMMAND_TIMEOUT)} s (`COMMAND_TIMEOUT`" in DOCS["DATABASE.md"]
    assert f"in the channel after {int(NOTICE_AFTER)} s or more" in DOCS["processes.md"]
    assert f"(after {int(NOTICE_AFTER)} seconds or more offline" in RELIABILITY


def test_a_last_discard_is_offered_both_ways_as_the_rules_say() -> None:
    """docs/RULES.md: the panel's menu offers face down first, ``/umtali play`` both ways."""
    session = Session(RuleSet.english(), 0)
    session.hand = position(hands=("8D 9D 10D KS", "3H 5C"))
    session.apply(Move.parse("meld 8D 9D 10D"))
    view = session.view(0)
    offered = [c.value for c in move_choices(view, "discard", EN)]
    assert sorted(offered) == ["discard KS down", "discard KS up"]
    # Typed, the side unsaid is face down; 'up' says face up.
    legal = view.legal_moves
    assert side_chosen(typed("discard KS", "en")[0], legal).face_down
    assert not typed("discard KS up", "en")[0].face_down and not typed("discard KS up", "en")[1]
    panel = hand_panel(view, 1, 1, tr=EN, order=HandOrder.SUIT)
    items = [getattr(i, "item", i) for i in panel.children]
    menu = [o for i in items if isinstance(i, discord.ui.Select)
            and i.custom_id.endswith(":discard") for o in i.options]
    assert [o.value for o in menu] == ["discard KS down", "discard KS"]
    assert "typed, with\n  `/umtali play` or in the terminal, `discard KS` of your last card " \
        "lays it face down" in DOCS["RULES.md"]
    assert "если ход набран, в `/umtali play` или в терминале,\n  `discard KS` последней карты " \
        "кладёт её рубашкой вверх" in DOCS["RULES.ru.md"]


def test_both_halves_say_the_table_changes_when_a_turn_ends() -> None:
    # Not after every move: a turn's melds and discard show together, with its announcement.
    english, russian = halves()
    assert "edited when each turn ends" in english
    assert "обновляется в конце каждого хода" in russian and "после каждого хода" not in russian


def test_every_place_that_tells_the_variants_tells_both_differences() -> None:
    # The Russian variant differs in two things: the deal (an upcard) and the draw for dealer.
    english, _ = halves()
    brief = english.split("## Rules in brief", 1)[1].split("## ", 1)[0]
    assert "the higher card drawn (ace high) deals first" in brief
    assert "the lower card drawn (ace low) deals first" in brief
    assert RuleSet.english().high_card_deals and not RuleSet.russian().high_card_deals
