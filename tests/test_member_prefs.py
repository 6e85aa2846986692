"""Members' own choices in the store: defaults, saved, kept when the file is opened again."""

from __future__ import annotations

from pathlib import Path

from data.models import MemberPrefs
from data.store import Store


async def test_a_member_without_choices_has_the_defaults(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        assert await store.member_prefs([7, 8]) == {7: MemberPrefs(7), 8: MemberPrefs(8)}
        assert await store.member_prefs([]) == {}
    finally:
        await store.close()


async def test_a_chosen_hand_order_is_kept_per_member_across_openings(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    await store.set_hand_order(7, "rank")
    await store.set_hand_order(7, "melds")  # changed again: one row, the last choice
    await store.set_hand_order(8, "rank")
    await store.close()
    store = await Store.open(path)
    try:
        prefs = await store.member_prefs([7, 8, 9])
        assert [prefs[u].hand_order for u in (7, 8, 9)] == ["melds", "rank", "suit"]
        rows = await store.db.fetchall("SELECT * FROM member_prefs ORDER BY user_id")
        assert [(r["user_id"], r["hand_order"]) for r in rows] == [(7, "melds"), (8, "rank")]
    finally:
        await store.close()


async def test_a_chosen_look_is_kept_apart_from_the_hand_order(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    await store.set_hand_order(7, "rank")
    await store.set_look(7, False, True)
    await store.set_look(8, True, False)  # the defaults, said aloud
    await store.set_language(9, "ru")
    await store.close()
    store = await Store.open(path)
    try:
        assert await store.chosen_prefs() == {7: MemberPrefs(7, "rank", False, True),
                                              9: MemberPrefs(9, language="ru")}
        prefs = await store.member_prefs([7, 8])
        assert prefs[8] == MemberPrefs(8)
    finally:
        await store.close()
