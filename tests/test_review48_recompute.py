"""Records recomputed independently (review48): many sessions recorded through the store, on
both backends, and every figure the store shows (stats, ratings, places, pages, season boards,
ratings before and after) worked out again from the results alone, with openskill and code of
this file's own."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from cogs.umtali.saved import finish_of
from data.models import GuildSettings, PlayerStats
from data.records import GLOBAL
from data.seasons import SKEW
from data.store import Store
from umtali.codec import session_to_json
from umtali.events import Event, HandEnded, Melded
from umtali.melds import PlayKind
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session

SEASONAL, PLAIN = 10, 20  # a server with monthly seasons, one without
COMPUTER = 999
PEOPLE = [11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23]
#: The names each person plays under (some change theirs along the way).
NAMES = {p: [f"P{p}", f"P{p} renamed"] for p in PEOPLE}
FRESH = list(range(300, 316))
PER_PAGE = 10


def at(year: int, month: int, day: int, hour: int = 12) -> float:
    return dt.datetime(year, month, day, hour, tzinfo=dt.UTC).timestamp()


# -- the model: what the figures should be ------------------------------------------------

MODEL = PlackettLuce()  # openskill's own defaults: README names no other


def start() -> PlackettLuceRating:
    return MODEL.rating()


def soft(r: PlackettLuceRating) -> PlackettLuceRating:
    """README: each season rating moves halfway back toward the starting rating (and is made
    less certain, halfway back toward the starting uncertainty)."""
    s = start()
    return MODEL.rating(s.mu + (r.mu - s.mu) / 2, min(s.sigma, r.sigma + (s.sigma - r.sigma) / 2))


def ordinal(r: PlackettLuceRating) -> float:
    return r.mu - 3 * r.sigma


@dataclass
class Totals:
    won: int = 0
    lost: int = 0
    games_won: int = 0
    games_lost: int = 0
    hands_won: int = 0
    hands_lost: int = 0
    points: int = 0
    best: int | None = None  # none until a hand is scored (fix133)
    marriages: int = 0
    went_out: int = 0
    forfeits: int = 0
    name: str = ""

    def stats(self) -> PlayerStats:
        return PlayerStats(self.won, self.lost, self.games_won, self.games_lost, self.hands_won,
                           self.hands_lost, self.points, self.best, self.marriages,
                           self.went_out, self.forfeits)


@dataclass
class Season:
    ratings: dict[int, PlackettLuceRating] = field(default_factory=dict)
    won: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    lost: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    names: dict[int, str] = field(default_factory=dict)


@dataclass
class Model:
    totals: dict[tuple[int, int, int], Totals] = field(
        default_factory=lambda: defaultdict(Totals))
    ratings: dict[tuple[int, int], PlackettLuceRating] = field(default_factory=dict)
    seasons: dict[str, Season] = field(default_factory=dict)
    open: str | None = None
    changes: dict[int, dict[int, tuple[float, float]]] = field(default_factory=dict)
    #: (guild, person) -> their sessions there, oldest first: (match id, won, opponent)
    history: dict[tuple[int, int], list[tuple[int, bool, int]]] = field(
        default_factory=lambda: defaultdict(list))
    #: Practice sessions' match ids: in history, but no head-to-head (review142).
    practice: set[int] = field(default_factory=set)

    def end_season(self, next_season: str | None) -> None:
        assert self.open is not None
        ended = self.seasons[self.open]
        self.open = next_season
        if next_season is not None:
            self.seasons[next_season] = Season(
                {p: soft(r) for p, r in ended.ratings.items()}, names=dict(ended.names))

    def season_at(self, when: float) -> str:
        name = f"{dt.datetime.fromtimestamp(when, dt.UTC):%Y-%m}"
        if self.open is None:
            self.seasons[name] = Season()
            self.open = name
        elif self.open != name:
            self.end_season(name)
        return name


@dataclass
class Played:
    match_id: int
    guild: int
    ids: tuple[int, int]
    names: tuple[str, str]
    computer: bool
    winner: int
    how: str
    games_won: tuple[int, int]
    hands: list[tuple[tuple[int, int], int | None]]
    marriages: tuple[int, int]
    when: float


def count(model: Model, s: Played) -> None:
    practice = int(s.computer)
    people = [0] if s.computer else [0, 1]
    for seat in people:
        other = 1 - seat
        for scope in (s.guild, GLOBAL):
            t = model.totals[(scope, s.ids[seat], practice)]
            won = s.winner == seat
            t.won += won
            t.lost += not won
            t.games_won += s.games_won[seat]
            t.games_lost += s.games_won[other]
            t.hands_won += sum(sc[seat] > sc[other] for sc, _ in s.hands)
            t.hands_lost += sum(sc[seat] < sc[other] for sc, _ in s.hands)
            t.points += sum(sc[seat] for sc, _ in s.hands)
            t.best = max([*([] if t.best is None else [t.best]), *(sc[seat] for sc, _ in s.hands)],
                         default=None)
            t.marriages += s.marriages[seat]
            t.went_out += sum(out == seat for _, out in s.hands)
            t.forfeits += (not won) and s.how in ("resigned", "timed out")
            t.name = s.names[seat]
        model.history[(s.guild, s.ids[seat])].append(
            (s.match_id, s.winner == seat, s.ids[other]))
    if s.computer:
        model.practice.add(s.match_id)
        return
    ranks: list[float] = [0, 1] if s.winner == 0 else [1, 0]
    for scope in (s.guild, GLOBAL):
        before = [model.ratings.get((scope, p), start()) for p in s.ids]
        after = MODEL.rate([[before[0]], [before[1]]], ranks=ranks)
        for seat, p in enumerate(s.ids):
            model.ratings[(scope, p)] = after[seat][0]
            if scope == s.guild:
                model.changes.setdefault(s.match_id, {})[seat] = (
                    ordinal(before[seat]), ordinal(after[seat][0]))
    if s.guild == SEASONAL:
        season = model.seasons[model.season_at(s.when)]
        before = [season.ratings.get(p, start()) for p in s.ids]
        after = MODEL.rate([[before[0]], [before[1]]], ranks=ranks)
        for seat, p in enumerate(s.ids):
            season.ratings[p] = after[seat][0]
            season.won[p] += s.winner == seat
            season.lost[p] += s.winner != seat
            season.names[p] = s.names[seat]


def places(values: list[float]) -> list[int]:
    """Standard competition ranking of values already sorted best first, alike to one decimal
    sharing a place (README)."""
    shown = [f"{v:.1f}" for v in values]
    return [1 + sum(1 for o in shown if float(o) > float(v)) for v in shown]


def board(entries: list[tuple[int, float, str, int, int]]) -> list[tuple[int, int, str, int, int]]:
    """(place, user, name, won, sessions) of (user, rating, name, won, sessions), best first."""
    ordered = sorted(entries, key=lambda e: (-e[1], e[0]))
    return [(place, e[0], e[2], e[3], e[4])
            for place, e in zip(places([e[1] for e in ordered]), ordered, strict=True)]


# -- the sessions, through the store --------------------------------------------------------


def greedy(rules: RuleSet, seed: int) -> list[object]:
    s = Session(rules, seed)
    while not s.over:
        s.apply(GreedyPlayer().choose(s.view(s.to_act)))
    return list(s.moves)


def state(session: Session) -> str:
    return json.dumps(session_to_json(session))


async def play(store: Store, match_id: int, guild: int, ids: tuple[int, int],
               names: tuple[str, str], rules: RuleSet, seed: int, kind: str, cut: int,
               loser: int, when: float, computer: bool) -> Played | None:
    """Record one session's end as the bot does: the last move of one played out saved with
    its finish, a forfeit's finish after ``cut`` moves, an abandoned one's end with none."""
    moves = greedy(rules, seed)
    session = Session(rules, seed)
    events: list[Event] = []
    upto = len(moves) - 1 if kind == "played out" else min(cut, len(moves) - 1)
    for move in moves[:upto]:
        events += session.apply(move)  # type: ignore[arg-type]
    got = await store.create_match(
        guild_id=guild, channel_id=1, players=((ids[0], names[0]), (ids[1], names[1])),
        variant=rules.name, turn_timer=0, state=state(session), deadline=None,
        computer=(1, "easy") if computer else None, now=when - 600)
    assert got == match_id
    if kind in ("abandoned", "cancelled"):
        assert await store.abandon_match(match_id, kind, now=when) is not None
        return None
    if kind == "played out":
        last = moves[-1]
        seat = session.to_act
        events += session.apply(last)  # type: ignore[arg-type]
        assert session.over
        await store.record_move(match_id=match_id, version=0, seat=seat, move=str(last),
                                state=state(session), deadline=None,
                                finish=finish_of(session), now=when)
    else:
        session.resign(loser, kind)
        await store.finish_match(match_id=match_id, version=0, state=state(session),
                                 finish=finish_of(session), now=when)
    assert session.winner is not None
    hands = [(e.scores, e.went_out) for e in events if isinstance(e, HandEnded)]
    wed = [sum(1 for e in events if isinstance(e, Melded) and e.kind is PlayKind.MARRIAGE
               and e.player == seat) for seat in (0, 1)]
    return Played(match_id, guild, ids, names, computer, session.winner, session.how or "",
                  (session.games_won[0], session.games_won[1]),
                  [((a, b), out) for (a, b), out in hands], (wed[0], wed[1]), when)


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def read_board(store: Store, scope: int | str) -> list[tuple[int, int, str, int, int]]:
    rows: list[tuple[int, int, str, int, int]] = []
    page, pages = 1, 1
    while page <= pages:
        if isinstance(scope, str):
            got = await store.seasons.board(SEASONAL, scope, page)
        else:
            got = await store.records.leaderboard(scope, page)
        assert got.page == page and len(got.rows) <= PER_PAGE
        pages = got.pages
        rows += [(r.rank, r.user_id, r.name, r.sessions_won, r.sessions) for r in got.rows]
        page += 1
    assert pages == max(1, -(-len(rows) // PER_PAGE))
    return rows


async def test_every_figure_recomputed_from_the_results(store: Store) -> None:
    await store.save_guild_settings(GuildSettings(SEASONAL, seasons="monthly",
                                                  season_channel_id=77))
    rng = random.Random(48)
    model = Model()
    when = at(2026, 12, 2)
    # The tick ends December (past its turn by the tick's wait for other processes' clocks);
    # January ends with a session.
    ticked = {at(2027, 1, 1, 0) + SKEW}
    tick_times = sorted(ticked)
    # Seeds whose greedy play ties a game after four hands (tie-break hands), then others.
    seeds = [("english", 35), ("russian", 9), ("russian", 27)]
    kinds = (["played out"] * 10 + ["resigned"] * 5 + ["timed out"] * 4 + ["abandoned"] * 2
             + ["cancelled"])
    match_id = 0
    for n in range(70):
        when += rng.uniform(0.3, 1.4) * 86400
        while tick_times and tick_times[0] <= when:
            tick = tick_times.pop(0)
            ended = await store.seasons.end_due(tick)
            if model.open is not None:
                assert [e.season for e in ended] == [model.open]
                model.end_season(f"{dt.datetime.fromtimestamp(tick, dt.UTC):%Y-%m}")
        computer = n % 7 == 3
        guild = SEASONAL if computer or rng.random() < 0.7 else PLAIN
        one, other = rng.sample(PEOPLE, 2)
        ids = (one, COMPUTER) if computer else (one, other)
        names = tuple("Computer (easy)" if p == COMPUTER else NAMES[p][int(n > 40 and p % 2 == 0)]
                      for p in ids)
        variant, seed = seeds[n] if n < len(seeds) else (
            rng.choice(["english", "russian"]), rng.randrange(1, 10_000))
        rules = RuleSet.english() if variant == "english" else RuleSet.russian()
        kind = "played out" if n < len(seeds) else rng.choice(kinds)
        match_id += 1
        result = await play(store, match_id, guild, ids, (names[0], names[1]), rules, seed,
                            kind, rng.randrange(0, 300), rng.randrange(2), when,
                            computer)
        if result is not None:
            count(model, result)
    # Newcomers who each played one session: those who won tie, as do those who lost, across
    # the pages' starts.
    for winner, loser in zip(FRESH[::2], FRESH[1::2], strict=True):
        when += 60
        match_id += 1
        result = await play(store, match_id, SEASONAL, (winner, loser), (f"F{winner}", f"F{loser}"),
                            RuleSet.english(), winner, "resigned", 0, 1, when, False)
        assert result is not None
        count(model, result)
    # February ends at the next month's tick: March opens with everyone carried, softly reset.
    ended = await store.seasons.end_due(SKEW + (at(2027, 3, 1, 0) if when < at(2027, 3, 1, 0)
                                                else at(2027, 4, 1, 0)))
    assert [e.season for e in ended] == [model.open]
    model.end_season(ended[0].next_season)

    # Every person's record, in every scope.
    for scope in (SEASONAL, PLAIN, GLOBAL):
        for p in [*PEOPLE, *FRESH, COMPUTER]:
            record = await store.records.record(scope, p)
            rated = model.totals.get((scope, p, 0), Totals())
            practice = model.totals.get((scope, p, 1), Totals())
            assert (record.rated, record.practice) == (rated.stats(), practice.stats()), (scope, p)
            expected = model.ratings.get((scope, p))
            if expected is None:
                assert record.rating is None
                continue
            assert record.rating is not None
            assert record.rating.mu == pytest.approx(expected.mu, abs=1e-9)
            assert record.rating.sigma == pytest.approx(expected.sigma, abs=1e-9)
            assert record.rating.value == pytest.approx(ordinal(expected), abs=1e-9)
    # Every board, page by page, with its places.
    for scope in (SEASONAL, PLAIN, GLOBAL):
        entries = []
        for (s, p), r in model.ratings.items():
            if s == scope:
                t = model.totals[(scope, p, 0)]
                entries.append((p, ordinal(r), t.name, t.won, t.won + t.lost))
        expected_board = board(entries)
        assert await read_board(store, scope) == expected_board, scope
        for place, p, *_ in expected_board:
            record = await store.records.record(scope, p)
            assert record.rating is not None
            assert (record.rating.rank, record.rating.players) == (place, len(entries))
    # Every season's board, the carried ratings included.
    assert sorted(s.season for s in await store.seasons.of(SEASONAL)) == sorted(model.seasons)
    for name, season in model.seasons.items():
        entries = [(p, ordinal(r), season.names[p], season.won[p],
                    season.won[p] + season.lost[p])
                   for p, r in season.ratings.items() if season.won[p] + season.lost[p]]
        assert await read_board(store, name) == board(entries), name
        kept = {r["user_id"]: (r["mu"], r["sigma"]) for r in await store.db.fetchall(
            "SELECT user_id, mu, sigma FROM season_ratings WHERE guild_id = ? AND season = ?",
            (SEASONAL, name))}
        assert kept.keys() == season.ratings.keys(), name
        for p, r in season.ratings.items():
            assert kept[p] == pytest.approx((r.mu, r.sigma), abs=1e-9), (name, p)
    # Each rated session's rating before and after, as its final card shows it.
    for match, changes in model.changes.items():
        got = await store.records.rating_changes(match)
        assert got.keys() == changes.keys()
        for seat, (before, after) in changes.items():
            assert got[seat] == pytest.approx((before, after), abs=1e-9), (match, seat)
    # History and head-to-head.
    for (guild, p), lines in model.history.items():
        recent = await store.records.recent(guild, p)
        assert [line.match_id for line in recent] == [m for m, _, _ in lines[::-1][:5]]
        for other in {o for _, _, o in lines}:
            versus = [(m, w) for m, w, o in lines if o == other and m not in model.practice]
            h2h = await store.records.head_to_head(guild, p, other)
            assert (h2h.won, h2h.lost) == (sum(w for _, w in versus),
                                           sum(not w for _, w in versus))
