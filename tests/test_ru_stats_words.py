"""Russian wording of the stats, the final card, the clock and the end of a hand, as review117
found it: «сдачи» (a deal, in docs/RULES.ru.md) for resignations, decimal commas in a comma
list, «24-0» beside «3–1», two colons in «контроль времени: Обычный: 5 мин…», and «на руках»
for one player's hand where everything else says «на руке». SimCord, a real SQLite file."""

from __future__ import annotations

from typing import Any

from cogs.umtali.stats import record_text
from data.models import GuildSettings, PlayerRecord, PlayerStats, Rating
from tests.discord_helpers import World
from tests.test_hand_summary import hands_ended
from umtali import RuleSet
from umtali.i18n import EN, tr_for
from umtali.text import describe

RU = tr_for("ru")


def test_the_record_says_resigned_and_out_of_time_without_a_deal() -> None:
    rec = PlayerRecord("ada", PlayerStats(sessions_won=3, sessions_lost=2, forfeits=2),
                       PlayerStats(), Rating(mu=22.41, sigma=8.07, value=-1.8, rank=2,
                                             players=9))
    said = record_text(rec, RU)
    assert "сдач" not in said, said
    assert "матчей сдано или проиграно по времени: 2" in said, said
    # Decimal commas in the list: its items parted by «;».
    assert "(μ 22,4; σ 8,1)" in said, said
    assert "(μ 22.4, σ 8.1)" in record_text(rec, EN)


def test_the_end_of_a_hand_says_on_the_hand_as_everything_else() -> None:
    for e in hands_ended(1, RuleSet.russian()):
        said = describe(e, ("ada", "ben"), tr=RU)
        accounts = said.split("\n")[1:]
        assert all("; на руке " in a for a in accounts) and "на руках" not in said, said


def _description(result: Any) -> str:
    assert result.acknowledged and not result.ephemeral, result
    return str(result.response.embeds[0].description or "")


async def test_a_time_control_reads_as_part_of_the_sentence(world: World) -> None:
    world.clock.advance(60)
    said = _description(await world.alice.slash(world.channel, "umtali challenge",
                                                opponent=world.bob, time_control="normal"))
    assert ("· clock: normal (5 minutes a turn + 5 minutes reserve); run out of time and you "
            "lose the session.\n") in said, said
    svc = world.bot.matches
    assert svc is not None
    await svc.store.save_guild_settings(GuildSettings(guild_id=world.guild.id, language="ru"))
    await svc.prefs.load()
    world.clock.advance(60)
    said = _description(await world.alice.slash(world.channel, "umtali challenge",
                                                opponent=world.carol, time_control="blitz"))
    assert ("· контроль времени: блиц (30 секунд на ход + 2 минуты запаса); не успеете — "
            "матч проигран.\n") in said, said
