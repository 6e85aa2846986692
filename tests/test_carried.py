"""What a DM panel carries (``cogs.umtali.carried``): known only once an upload landed with no
other on its way or begun since; else unknown, and the next edit uploads (never a picture
left in place that the panel may not have)."""

from __future__ import annotations

from cogs.umtali.carried import Carried


def test_an_upload_that_landed_is_known_on_its_message_only() -> None:
    carried = Carried()
    carried.upload(1, "x")(True)
    assert carried.on(1) == "x"
    assert carried.on(2) == "" and carried.on(None) == ""


def test_an_upload_that_failed_leaves_it_unknown() -> None:
    carried = Carried()
    carried.upload(1, "x")(True)
    carried.upload(1, "y")(False)
    assert carried.on(1) == ""  # (its old picture, or the new: Discord may have taken it)


def test_an_upload_on_its_way_leaves_it_unknown() -> None:
    carried = Carried()
    carried.upload(1, "x")(True)
    carried.upload(1, "y")
    assert carried.on(1) == ""


def test_two_uploads_at_once_leave_it_unknown_whichever_lands_last() -> None:
    for first_lands_first in (True, False):
        carried = Carried()
        first, second = carried.upload(1, "x"), carried.upload(1, "y")
        for ended in ((first, second) if first_lands_first else (second, first)):
            ended(True)
        # Discord took both, in an order this copy cannot know.
        assert carried.on(1) == "", first_lands_first
        carried.upload(1, "z")(True)
        assert carried.on(1) == "z"


def test_an_end_told_twice_counts_once() -> None:
    carried = Carried()
    ended = carried.upload(1, "x")
    ended(True)
    ended(False)
    assert carried.on(1) == "x"
    carried.upload(1, "y")(True)
    assert carried.on(1) == "y"
