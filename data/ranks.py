"""Places on a board: players whose ratings show the same share a place, and the next place
counts them all (1, 2, 2, 4: standard competition ranking), on every page of a board and in a
person's stats alike.

A rating shows to one decimal, so "the same" is the same to one decimal (``shown``). That is
decided here, in Python, once: SQL's ROUND would not do. PostgreSQL has none for a DOUBLE
PRECISION; through NUMERIC, as SQLite's, it rounds the decimal a rating reads as (0.15 and 0.25
to 0.2 and 0.3), where what is shown rounds the binary value itself (0.1 and 0.2), so a board
would rank apart two players it shows alike. The SQL only counts exact ratings, which both
backends read alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from data.db import Reads

#: Ratings shown alike lie less than 0.1 apart: those within this much above a rating are read
#: to see which of them show as it does.
NEAR = 0.2


def shown(rating: float) -> float:
    """A rating as boards and stats show it, to one decimal (``numbers.one_decimal`` writes
    this value); -0.0 is 0.0."""
    return round(rating, 1) + 0.0


class Board:
    """A board's ratings, read by two statements: ``above`` counts the ratings above a rating,
    ``near`` lists those strictly between two; both take the board's own parameters first,
    then the ratings. Read with the page's rows in one snapshot (``Database.snapshot``): a
    session that ends meanwhile would otherwise place the page's rows on another board."""

    def __init__(self, above: str, near: str) -> None:
        self.above, self.near = above, near

    async def ahead(self, db: Reads, params: Sequence[object], rating: float) -> int:
        """How many players of the board show a higher rating than ``rating`` does."""
        count = await db.fetchone(self.above, (*params, rating))
        near = await db.fetchall(self.near, (*params, rating, rating + NEAR))
        tied = sum(1 for r in near if shown(r[0]) == shown(rating))
        return (int(count[0]) if count else 0) - tied

    async def within(self, db: Reads, params: Sequence[object], rating: float) -> int:
        """How many players of the board show ``rating`` or a higher one."""
        low = rating - NEAR
        count = await db.fetchone(self.above, (*params, low))
        near = await db.fetchall(self.near, (*params, low, rating))
        lower = sum(1 for r in near if shown(r[0]) < shown(rating))
        return (int(count[0]) if count else 0) - lower

    async def places(self, db: Reads, params: Sequence[object], first: int,
                     ratings: Sequence[float]) -> list[int]:
        """The places of a page's ratings (best first), the page starting at the ``first``
        (0-based) of the whole board: a rating shown as the one before it shares its place,
        across a page's start too; any other's place is its position."""
        out: list[int] = []
        for i, rating in enumerate(ratings):
            if i and shown(rating) == shown(ratings[i - 1]):
                out.append(out[-1])
            elif i or not first:
                out.append(first + i + 1)
            else:
                out.append(await self.ahead(db, params, rating) + 1)
        return out
