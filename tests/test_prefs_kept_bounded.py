"""Weeks of uptime: the members' choices kept in memory are those of members with a choice,
not of every member the bot ever heard from. Each interaction notes the member's client
language (``Preferences.saw_locale``); an English client is what a member never seen gets
too, and was kept all the same: one entry for every member who ever clicked anything."""

from __future__ import annotations

from tests.discord_helpers import World


async def test_members_with_an_english_client_are_not_kept_for_ever(
        world: World, locales: dict[int, str]) -> None:
    svc = world.bot.matches
    assert svc is not None
    before = len(svc.prefs._members)
    passers_by = [world.guild.add_member(world.env.create_user(f"m{i}")) for i in range(30)]
    for member in passers_by:
        seen = await member.slash(world.channel, "umtali rules")
        assert seen.acknowledged
    assert len(svc.prefs._members) == before
    # A member with another language is kept, and told in it in their DMs.
    ru = world.guild.add_member(world.env.create_user("ru"))
    locales[ru.id] = "ru"
    await ru.slash(world.channel, "umtali rules")
    assert svc.prefs.member_tr(ru.id).lang == "ru"
    assert ru.id in svc.prefs._members
    # Back on an English client: told in English, and nothing kept, here or at a restart.
    locales[ru.id] = "en-GB"
    await ru.slash(world.channel, "umtali rules")
    assert svc.prefs.member_tr(ru.id).lang == "en"
    assert ru.id not in svc.prefs._members
    await svc.prefs.load()
    assert svc.prefs.member_tr(ru.id).lang == "en"
    assert len(svc.prefs._members) == before
