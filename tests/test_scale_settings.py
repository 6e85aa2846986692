"""The settings for running at scale (scale.py): shards and the REST API's address."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from discord.ext import commands

from bot import Settings, SettingsError, UmtaliBot, load_settings, make_bot
from scale import ShardPlan, gateway_refusal, load_discord_api, load_shards, use_discord_api

BOT_PY = Path(__file__).resolve().parent.parent / "bot.py"


@pytest.mark.parametrize(("count", "ids", "plan"), [
    ("", "", None),
    (" ", "  ", None),
    ("4", "", ShardPlan(4)),
    ("auto", "", ShardPlan(None)),
    ("AUTO", "", ShardPlan(None)),
    ("2", "0,1", ShardPlan(2, (0, 1))),
    ("4", "0-3", ShardPlan(4, (0, 1, 2, 3))),
    ("8", " 1 , 4-5,7", ShardPlan(8, (1, 4, 5, 7))),
    ("1", "0", ShardPlan(1, (0,))),
])
def test_shard_settings(count: str, ids: str, plan: ShardPlan | None) -> None:
    assert load_shards({"UMTALI_SHARD_COUNT": count, "UMTALI_SHARD_IDS": ids}) == plan


@pytest.mark.parametrize(("count", "ids", "named"), [
    ("0", "", "UMTALI_SHARD_COUNT"),
    ("-2", "", "UMTALI_SHARD_COUNT"),
    ("two", "", "UMTALI_SHARD_COUNT"),
    ("2.5", "", "UMTALI_SHARD_COUNT"),
    ("٢", "", "UMTALI_SHARD_COUNT"),
    ("10001", "", "UMTALI_SHARD_COUNT"),
    ("", "0", "UMTALI_SHARD_COUNT"),
    ("auto", "0,1", "UMTALI_SHARD_COUNT"),
    ("2", "2", "UMTALI_SHARD_IDS"),
    ("2", "0,,1", "UMTALI_SHARD_IDS"),
    ("4", "3-1", "UMTALI_SHARD_IDS"),
    ("4", "0-", "UMTALI_SHARD_IDS"),
    ("4", "a", "UMTALI_SHARD_IDS"),
    ("4", "0,0-1", "twice"),
])
def test_bad_shard_settings_say_which_in_one_sentence(count: str, ids: str,
                                                       named: str) -> None:
    with pytest.raises(SettingsError) as info:
        load_settings({"DISCORD_TOKEN": "tok", "UMTALI_SHARD_COUNT": count,
                       "UMTALI_SHARD_IDS": ids})
    message = str(info.value)
    assert named in message and message.endswith(".") and "\n" not in message


def test_shard_ids_without_a_count_ask_for_the_count() -> None:
    # Not "UMTALI_SHARD_COUNT must be …, auto, or empty, not ''": empty is what it was.
    with pytest.raises(SettingsError) as info:
        load_settings({"DISCORD_TOKEN": "tok", "UMTALI_SHARD_IDS": "0-1"})
    assert str(info.value) == ("UMTALI_SHARD_IDS=0-1 needs UMTALI_SHARD_COUNT set to the "
                               "number of shards of the whole bot, the same in every process.")


@pytest.mark.parametrize(("given", "base"), [
    ("", None),
    ("http://127.0.0.1:8080/api/v10", "http://127.0.0.1:8080/api/v10"),
    ("https://proxy.example/discord/api/v10/", "https://proxy.example/discord/api/v10"),
])
def test_discord_api_setting(given: str, base: str | None) -> None:
    assert load_discord_api({"UMTALI_DISCORD_API": given}) == base


@pytest.mark.parametrize("given", ["127.0.0.1:8080/api/v10", "ftp://host/api/v10",
                                   "http://127.0.0.1:8080", "http:///api/v10",
                                   "http://host/api/v9", "http://host/api/v10?x=1"])
def test_bad_discord_api_setting(given: str) -> None:
    with pytest.raises(SettingsError, match="UMTALI_DISCORD_API"):
        load_settings({"DISCORD_TOKEN": "tok", "UMTALI_DISCORD_API": given})


def test_unset_means_a_plain_bot_as_before(tmp_path: Path) -> None:
    settings = load_settings({"DISCORD_TOKEN": "tok"})
    assert settings.shards is None and settings.discord_api is None
    bot = make_bot(settings)
    assert type(bot) is UmtaliBot and not isinstance(bot, discord.AutoShardedClient)


def test_shards_make_an_auto_sharded_bot(tmp_path: Path) -> None:
    settings = load_settings({"DISCORD_TOKEN": "tok", "UMTALI_SHARD_COUNT": "4",
                              "UMTALI_SHARD_IDS": "2-3"})
    bot = make_bot(settings, timers=False)
    assert isinstance(bot, UmtaliBot) and isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_count, bot.shard_ids) == (4, [2, 3])
    assert bot.timers is False
    everything = make_bot(Settings(token="tok", shards=ShardPlan(None)))
    assert isinstance(everything, discord.AutoShardedClient)
    assert everything.shard_count is None and everything.shard_ids is None


def test_the_api_base_is_where_discord_py_sends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    use_discord_api(None)
    assert discord.http.Route("GET", "/users/@me").url.startswith("https://discord.com/api/v10")
    use_discord_api("http://127.0.0.1:8080/api/v10")
    # Interaction answers go there too: discord.py's webhooks use the same Route.
    callback = discord.http.Route("POST", "/interactions/{id}/{token}/callback", id=1, token="t")
    assert callback.url == "http://127.0.0.1:8080/api/v10/interactions/1/t/callback"


def closed(code: int) -> discord.ConnectionClosed:
    """The error discord.py raises when the gateway closes the connection with ``code``."""
    return discord.ConnectionClosed(None, shard_id=None, code=code)  # type: ignore[arg-type]


def test_only_shard_refusals_are_worded() -> None:
    refusal = gateway_refusal(closed(4011))
    assert refusal is not None and "UMTALI_SHARD_COUNT" in refusal
    assert "UMTALI_SHARD_IDS" in (gateway_refusal(closed(4010)) or "")
    assert gateway_refusal(closed(4004)) is None
    assert gateway_refusal(OSError()) is None


def test_the_bot_with_bad_shard_ids_exits_2_with_one_sentence(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UMTALI_")}
    env |= {"DISCORD_TOKEN": "tok", "UMTALI_SHARD_COUNT": "2", "UMTALI_SHARD_IDS": "0-2"}
    result = subprocess.run([sys.executable, str(BOT_PY)], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert result.stderr.startswith("error: UMTALI_SHARD_IDS must list shard ids from 0 to 1")
    assert "Traceback" not in result.stderr
