"""``/umtali-admin settings`` answers one setting a line (review166: nine settings in one
run-on sentence), under three headings, in English and in natural Russian ("Выкладка по
желанию: включена", not "выкладывать по желанию — вкл."). SimCord, a real SQLite file."""

from __future__ import annotations

from typing import Any

from tests.discord_helpers import World, manager


def _said(result: Any) -> str:
    return str(result.response.content)


async def test_the_settings_answer_is_one_setting_a_line(
        world: World, locales: dict[int, str]) -> None:
    boss = manager(world)
    ok = await boss.slash(world.channel, "umtali-admin settings", optional_melding=True,
                          seasons="monthly", season_channel=world.channel)
    assert ok.ephemeral and _said(ok) == (
        "Defaults for new matches:\n"
        "- Rules: English\n"
        "- Optional melding: on\n"
        "- Clock: 5 minutes\n"
        "- Threads: on\n"
        "For every match here, matches in play too:\n"
        "- Pictures: on\n"
        "- Language: server default (English)\n"
        "Leaderboard:\n"
        "- Seasons: monthly\n"
        f"- Season summaries: <#{world.channel.id}>"), _said(ok)
    locales[boss.id] = "ru"
    ok = await boss.slash(world.channel, "umtali-admin settings", threads=False)
    assert _said(ok) == (
        "Для новых матчей по умолчанию:\n"
        "- Правила: английские\n"
        "- Выкладка по желанию: включена\n"
        "- Контроль времени: 5 минут\n"
        "- Ветки: выключены\n"
        "Для всех матчей сервера, и уже идущих тоже:\n"
        "- Картинки: включены\n"
        "- Язык: как на сервере (английский)\n"
        "Таблица лидеров:\n"
        "- Сезоны: помесячно\n"
        f"- Итоги сезона: <#{world.channel.id}>"), _said(ok)
