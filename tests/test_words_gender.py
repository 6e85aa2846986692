"""Russian verbs in the past tense, and some adjectives, take the gender of who they are about;
a member's nickname does not tell it. So the Russian never says a player "сдался" or "вышел",
"завершил(а)" or deals "первым" on their name alone: it words it in the present ("Маша
сдаётся"; a noun before the name, "игрок Маша сдался", read "игрок Игрок 1 сдался" for a name
that shows nothing), or with the player out of the subject.
Names cannot be declined either: none stands where Russian would decline it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.discord_helpers import World, flush, start_match, thread_of
from umtali.catalogue import placeholders, read
from umtali.events import SessionEnded
from umtali.i18n import tr_for
from umtali.text import HOW, describe

#: The placeholders that hold a member's name (or a mention of one).
NAMES = {"name", "other", "a", "b", "first", "second", "dealer", "member", "challenger",
         "opponent", "winner", "loser", "admin"}
#: Words that would give a player a gender: a verb in the past (…л, …лся), "(а)" for a guess,
#: and "первым"/"первой" said of a player.
GENDERED = re.compile(r"(?<![А-Яа-яЁё])([А-Яа-яЁё]+(?:л|лся)|первым|первой)(?![А-Яа-яЁё])|\(а\)",
                      re.IGNORECASE)
#: Nouns that end as such a verb does.
NOUNS = {"канал", "стол", "файл"}


def _about_a_player(text: str) -> list[str]:
    """The gendered words of a Russian message with a name in it, but for those that agree
    with a noun before the name ("игрок {name} сдался") or with a non-player."""
    found = []
    for clause in re.split(r"[.;:!?]", text):
        if not placeholders(clause) & NAMES:
            continue
        if re.search(r"(игрок|соперник|участник)\w* \{", clause):
            continue
        found += [m.group(0) for m in GENDERED.finditer(clause)
                  if m.group(0).lower() not in NOUNS]
    return found


def test_no_russian_message_gives_a_named_player_a_gender() -> None:
    wrong = []
    for entry in read("ru"):
        if not entry.id:
            continue
        forms = [entry.string] if isinstance(entry.string, str) else list(entry.string or ())
        for form in forms:
            if bad := _about_a_player(form):
                wrong.append(f"{form!r}: {bad}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("how", sorted(HOW))
def test_how_a_session_ended_agrees_with_the_noun_not_the_name(how: str) -> None:
    ru = tr_for("ru")
    said = ru("{name} {how}", name="Маша", how=ru(HOW[how]))
    assert said.startswith("Маша ") and not GENDERED.search(said), said
    ended = describe(SessionEnded(winner=0, games_won=(1, 0), how=how),
                     ["egor", "Маша"], ru)
    assert "(Маша " in ended, ended


def test_the_tag_of_a_player_who_went_out_has_no_gender() -> None:
    """The picture puts it after the name, as the other tag: "Маша · сдаёт · выходит". It
    read "выход" (a noun, "an exit", where a player is meant): now the verb the messages
    use ("{name} выходит"), in the present as "сдаёт", which gives no gender. (The test
    looked up the word without its context, so it checked the English.)"""
    ru = tr_for("ru")
    tag = ru.ctx("beside a name", "went out")
    assert tag != "went out" and not GENDERED.search(tag)
    assert ru("{name} went out", name="Маша") == f"Маша {tag}"


def _russian_world(world: World) -> World:
    guild = world.env.create_guild("Шахматный клуб", preferred_locale="ru")
    return World(world.env, guild, guild.create_text_channel("игры"),
                 guild.add_member(world.env.create_user("Маша")),
                 guild.add_member(world.env.create_user("egor")),
                 guild.add_member(world.env.create_user("fyodor")), world.clock)


def _text(result: Any) -> str:
    assert result.acknowledged and result.response is not None
    parts = [str(result.response.content or "")]
    for e in result.response.embeds:
        parts += [e.title or "", e.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in e.fields]
    return "\n".join(parts)


async def test_a_resignation_on_a_russian_server_reads_for_any_player(
        world: World, locales: dict[int, str]) -> None:
    ru = _russian_world(world)
    for member in (ru.alice, ru.bob, ru.carol):
        locales[member.id] = "ru"
    live = await start_match(ru)
    challenge = ru.channel.history()[0]
    assert "Первую раздачу сдаёт" in (challenge.embeds[0].description or "")
    ask = await ru.alice.slash(ru.channel, "umtali resign")
    done = await ru.alice.click(ask.response,
                                custom_id=f"umtali:m:{live.id}:{live.version}:loss:resign")
    assert done.acknowledged
    await flush(ru)
    assert live.over
    said = "\n".join(m.content for m in thread_of(ru, live).history())
    assert "(Маша сдаётся)" in said, said
    stats = _text(await ru.bob.slash(ru.channel, "umtali stats"))
    # History tells a finished session in the past, of a noun: the name beside it (review142).
    assert "игрок сдался: Маша" in stats and "Маша сдаётся" not in stats, stats
    nobody = _text(await ru.carol.slash(ru.channel, "umtali stats"))
    assert "fyodor: пока нет завершённых матчей." in nobody, nobody


async def test_a_russian_replay_file_says_how_the_session_ended(
        world: World, locales: dict[int, str]) -> None:
    ru = _russian_world(world)
    locales[ru.bob.id] = "ru"
    live = await start_match(ru)
    ask = await ru.alice.slash(ru.channel, "umtali resign")
    assert (await ru.alice.click(
        ask.response, custom_id=f"umtali:m:{live.id}:{live.version}:loss:resign")).acknowledged
    await flush(ru)
    history = await ru.bob.slash(ru.channel, "umtali history")
    chosen = await ru.bob.select(history.response, [str(live.id)],
                                 custom_id=f"umtali:rp:{ru.guild.id}")
    [attachment, _] = chosen.response.attachments
    header = [line for line in (await attachment.read()).decode().splitlines()
              if line.startswith("#")]
    assert "# Здесь: Маша сдаётся." in header, header
    assert "# Итог: побеждает egor (Маша сдаётся); выиграно партий 0:0" in header, header
