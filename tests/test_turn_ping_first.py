"""fix157: a turn's announcement opens with its "your turn" line. Last, after up to ~600
characters of moves, a phone's notification preview cut it off and a screen reader read it
last. Its mention is still the only one that may ping; turns that piled up keep only the last
one's line, first; announcements saved by an older version (their line last) are still read.
Loopback Discord, SQLite file; the merging on its own, in both languages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.announcing import held, merged, turn_mention, turn_player, your_turn
from cogs.umtali.mentions import NO_MENTIONS, only, ping
from tests.loopback.driver import play_move, read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from umtali.i18n import EN, tr_for

RU = tr_for("ru")


async def test_the_turn_line_opens_the_announcement_and_alone_pings(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        first = saved.session.to_act
        while (now := read_match(db, saved.id)) is not None and now.session.to_act == first:
            await play_move(server, db, saved.id)
        nxt = saved.player_ids[1 - first]
        channel = f"/channels/{saved.channel_id}/messages"

        def posts() -> list[dict[str, Any]]:
            return [c.body for c in server.calls if c.method == "POST" and c.path == channel
                    and isinstance(c.body, dict)
                    and f"<@{nxt}>, your turn." in (c.body.get("content") or "")]
        [body, *_] = await until(posts, "the turn's announcement")
        lines = body["content"].split("\n")
        assert lines[0] == f"<@{nxt}>, your turn.", body["content"]
        assert len(lines) > 1 and all("<@" not in line for line in lines[1:]), body["content"]
        assert body["allowed_mentions"] == {"parse": [], "users": [nxt]}, body


def test_turns_that_piled_up_keep_the_last_turn_line_first() -> None:
    first = your_turn(EN, ping(1)) + "\nada discards 5♥."
    second = your_turn(RU, ping(2)) + "\nben берёт из колоды.\nben сбрасывает 9♣."
    assert merged([first, second]) == (
        "<@2>, ваш ход.\nada discards 5♥.\nben берёт из колоды.\nben сбрасывает 9♣.", 2)
    assert turn_mention(merged([first, second])[0]).to_dict() == only(2).to_dict()
    # The last without a turn line (the computer's turn next, a session's end): no mention.
    assert merged([first, "ada draws."]) == ("ada discards 5♥.\nada draws.", 2)
    assert turn_mention("ada discards 5♥.\nada draws.").to_dict() == NO_MENTIONS.to_dict()
    assert merged([first]) == (first, 1)
    for texts in ([first, second, "ada draws."], [second, first]):
        for count in range(1, len(texts) + 1):
            assert held(texts, merged(texts[:count])[0]) == count


def test_announcements_saved_before_keep_working() -> None:
    """Saved (still to post) by a version that wrote the line last."""
    old = "ada discards 5♥.\n" + your_turn(RU, ping(1))
    new = your_turn(EN, ping(2)) + "\nben discards 9♣."
    assert turn_player(old) == 1 and turn_mention(old).to_dict() == only(1).to_dict()
    assert turn_player(new) == 2 and turn_mention(new).to_dict() == only(2).to_dict()
    assert merged([old, new]) == ("<@2>, your turn.\nada discards 5♥.\nben discards 9♣.", 2)
    assert merged([new, old]) == ("<@1>, ваш ход.\nben discards 9♣.\nada discards 5♥.", 2)
    assert merged([old]) == (old, 1)


def test_a_turn_line_naming_its_player_pings_nobody_and_is_merged_as_one() -> None:
    """Named, not pinged (out of reach: ``out_of_reach.addressed``)."""
    named = your_turn(EN, "ben") + "\nada discards 5♥."
    pinged = your_turn(EN, ping(1)) + "\nben draws."
    assert turn_player(named) is None
    assert turn_mention(named).to_dict() == NO_MENTIONS.to_dict()
    assert merged([named, pinged]) == ("<@1>, your turn.\nada discards 5♥.\nben draws.", 2)
    assert merged([pinged, named]) == ("ben, your turn.\nben draws.\nada discards 5♥.", 2)


def test_a_score_line_ending_like_a_turn_line_stays_where_it_is() -> None:
    """review156: the last line of an older version's announcement was taken for its turn
    line in any form; a member named "Ben, your turn" ends a score line so. Last, only the
    pinging form is an (older version's) turn line."""
    session_over = "ada goes out.\nGame 3 to ada, 45-30. Games: ada 2 – 1 Ben, your turn."
    text, count = merged(["<@2>, your turn.\nada discards K♠.", session_over])
    assert count == 2
    assert text == "ada discards K♠.\n" + session_over, text
    # An older version's line, last and pinging, still moves first.
    text, _ = merged(["ada discards K♠.\n<@2>, your turn.", "ben draws.\n<@1>, your turn."])
    assert text == "<@1>, your turn.\nada discards K♠.\nben draws.", text
