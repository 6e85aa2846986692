"""What /umtali stats and /umtali leaderboard say, recomputed independently (review48): sessions
recorded through the bot's store (played out, resigned, timed out, abandoned, practice; members,
and people who left under a name changed since), then every figure of each member's record and
every line of every page of the board, turned by its buttons, compared with the model of
``tests/test_review48_recompute.py``."""

from __future__ import annotations

import random

from cogs.umtali.numbers import one_decimal
from data.records import GLOBAL
from tests.discord_helpers import World
from tests.test_records_discord import board_lines, text_of
from tests.test_review48_recompute import Model, Totals, board, count, ordinal, play
from umtali.i18n import tr_for
from umtali.rules import RuleSet

EN = tr_for("en")


def record_lines(model: Model, scope: int, user_id: int) -> list[str]:
    """The lines of a record as /umtali stats words them, from the model."""
    lines = []
    rating = model.ratings.get((scope, user_id))
    if rating is not None:
        entries = [(p, ordinal(r), "", 0, 0) for (s, p), r in model.ratings.items()
                   if s == scope]
        place = next(place for place, p, *_ in board(entries) if p == user_id)
        lines.append(f"Rating **{one_decimal(EN, ordinal(rating))}**, #{place} of "
                     f"{len(entries)} (μ {one_decimal(EN, rating.mu)}, "
                     f"σ {one_decimal(EN, rating.sigma)})")
    t = model.totals.get((scope, user_id, 0), Totals())
    if t.won + t.lost:
        best = "—" if t.best is None else f"{t.best} point" + ("" if t.best == 1 else "s")
        times = f"{t.went_out} time" + ("" if t.went_out == 1 else "s")
        lines += [f"Sessions: won {t.won}, lost {t.lost} · games: won {t.games_won}, lost "
                  f"{t.games_lost} · hands: won {t.hands_won}, lost {t.hands_lost}",
                  f"Points in all: {t.points} · best hand: {best} · marriages: {t.marriages} · "
                  f"went out: {times} · sessions resigned or lost on time: {t.forfeits}"]
    p = model.totals.get((scope, user_id, 1), Totals())
    if p.won + p.lost:
        lines.append(f"Practice: {p.won} of {p.won + p.lost} won against the computer")
    return lines or ["No finished sessions."]


async def test_stats_and_the_board_say_what_the_results_make(world: World) -> None:
    assert world.bot.matches is not None
    store = world.bot.matches.store
    guild = world.guild.id
    members = [world.alice, world.bob, world.carol]
    gone = [world.env.create_user(f"gone{i}") for i in range(9)]  # never on this server
    everyone = [u.id for u in (*members, *gone)]
    rng = random.Random(4848)
    model = Model()
    when = 1_000_000.0
    kinds = ["played out"] * 4 + ["resigned", "timed out", "abandoned"]
    for n in range(40):
        when += 3600
        practice = n % 9 == 4
        one, other = rng.sample(everyone, 2)
        ids = (one, 999) if practice else (one, other)
        names = tuple("Computer (easy)" if i == 999 else
                      f"name{i % 1000}" + (" (new)" if n > 25 else "") for i in ids)
        rules = rng.choice([RuleSet.english(), RuleSet.russian()])
        result = await play(store, n + 1, guild, ids, (names[0], names[1]), rules,
                            rng.randrange(1, 5000), rng.choice(kinds), rng.randrange(300),
                            rng.randrange(2), when, practice)
        if result is not None:
            count(model, result)

    for user in (*members, *gone):
        said = text_of(await world.alice.slash(world.channel, "umtali stats", member=user))
        if not any(model.totals.get((GLOBAL, user.id, k)) for k in (0, 1)):
            assert "has not finished a session yet" in said
            continue
        here, _, rest = said.partition("On this server\n")[2].partition("On all servers\n")
        assert here.strip().splitlines() == record_lines(model, guild, user.id), user.name
        assert rest.splitlines()[:len(record_lines(model, GLOBAL, user.id))] == \
            record_lines(model, GLOBAL, user.id), user.name

    entries = []
    for (scope, p), r in model.ratings.items():
        if scope == guild:
            t = model.totals[(scope, p, 0)]
            entries.append((p, ordinal(r), t.name, t.won, t.won + t.lost))
    expected = [f"`{str(place).rjust(3)}.` **{name}** · "
                f"{one_decimal(EN, dict((e[0], e[1]) for e in entries)[p])} · "
                f"won {won} of {sessions}" for place, p, name, won, sessions in board(entries)]
    assert len(expected) == len(everyone)  # all rated: two pages
    shown = await world.bob.slash(world.channel, "umtali leaderboard")
    lines = board_lines(shown)
    pages = -(-len(expected) // 10)
    for page in range(2, pages + 1):
        assert f"Page {page - 1} of {pages}" in text_of(shown)
        shown = await world.bob.click(shown.response,
                                      custom_id=f"umtali:lb:{guild}:server:{page}")
        lines += board_lines(shown)
    assert lines == expected
