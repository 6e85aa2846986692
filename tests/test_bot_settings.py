"""Tests for bot.py: reading the settings and failing clearly without a token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import DEFAULT_DB_PATH
from settings import Settings, SettingsError, load_settings

REPO_ROOT = Path(__file__).resolve().parent.parent
BOT_PY = REPO_ROOT / "bot.py"


def test_defaults_with_only_a_token() -> None:
    settings = load_settings({"DISCORD_TOKEN": "abc.def.ghi"})
    assert settings == Settings(
        token="abc.def.ghi",
        db_path=Path("data/umtali.sqlite3"),
        dev_guild_id=None,
        log_level="INFO",
    )
    assert settings.db_path == DEFAULT_DB_PATH


def test_empty_values_count_as_unset() -> None:
    settings = load_settings(
        {
            "DISCORD_TOKEN": " abc ",
            "UMTALI_DB_PATH": "",
            "UMTALI_DEV_GUILD_ID": " ",
            "UMTALI_LOG_LEVEL": "",
        }
    )
    assert settings == Settings(token="abc")


def test_all_settings_given() -> None:
    settings = load_settings(
        {
            "DISCORD_TOKEN": "tok",
            "UMTALI_DB_PATH": "/tmp/x.sqlite3",
            "UMTALI_DEV_GUILD_ID": "123456789012345678",
            "UMTALI_LOG_LEVEL": "debug",
        }
    )
    assert settings.db_path == Path("/tmp/x.sqlite3")
    assert settings.dev_guild_id == 123456789012345678
    assert settings.log_level == "DEBUG"


def test_settings_are_frozen_and_hide_the_token() -> None:
    settings = load_settings({"DISCORD_TOKEN": "very-secret"})
    with pytest.raises(AttributeError):
        settings.token = "other"  # type: ignore[misc]
    assert "very-secret" not in repr(settings)


@pytest.mark.parametrize("token", [None, "", "   "])
def test_missing_token(token: str | None) -> None:
    environ = {} if token is None else {"DISCORD_TOKEN": token}
    with pytest.raises(SettingsError) as info:
        load_settings(environ)
    message = str(info.value)
    assert "DISCORD_TOKEN" in message
    assert "https://discord.com/developers/applications" in message
    assert ".env.example" in message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("guild_id", ["abc", "-5", "0", "12.5", "1e9", "٣", str(2**64)])
def test_bad_guild_id(guild_id: str) -> None:
    with pytest.raises(SettingsError, match="UMTALI_DEV_GUILD_ID"):
        load_settings({"DISCORD_TOKEN": "tok", "UMTALI_DEV_GUILD_ID": guild_id})


@pytest.mark.parametrize("level", ["verbose", "WARN", "10", "info!"])
def test_bad_log_level(level: str) -> None:
    with pytest.raises(SettingsError, match="UMTALI_LOG_LEVEL"):
        load_settings({"DISCORD_TOKEN": "tok", "UMTALI_LOG_LEVEL": level})


def _run_bot(cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BOT_PY)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _env_without_settings() -> dict[str, str]:
    return {
        k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("UMTALI_")
    }


def test_bot_without_token_exits_2_with_a_clear_message(tmp_path: Path) -> None:
    assert not (tmp_path / ".env").exists()
    result = _run_bot(tmp_path, _env_without_settings())
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr
    assert "developer portal" in result.stderr
    assert "Traceback" not in result.stderr


def test_bot_reads_dotenv_from_the_working_directory(tmp_path: Path) -> None:
    # The bad log level can only come from the .env file: its error proves the file was read,
    # and stops the bot before it tries to reach Discord.
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-dotenv\nUMTALI_LOG_LEVEL=LOUD\n")
    result = _run_bot(tmp_path, _env_without_settings())
    assert result.returncode == 2, result.stderr
    assert "UMTALI_LOG_LEVEL" in result.stderr and "LOUD" in result.stderr
    assert "from-dotenv" not in result.stderr + result.stdout
    assert "Traceback" not in result.stderr


def test_bot_with_bad_guild_id_exits_2(tmp_path: Path) -> None:
    env = _env_without_settings() | {"DISCORD_TOKEN": "tok", "UMTALI_DEV_GUILD_ID": "nope"}
    result = _run_bot(tmp_path, env)
    assert result.returncode == 2
    assert "UMTALI_DEV_GUILD_ID" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_token_discord_refuses_ends_with_one_sentence(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import discord

    import bot

    async def refuse(self: bot.UmtaliBot, token: str, **kwargs: object) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setattr(bot.UmtaliBot, "start", refuse)
    assert bot.main() == 2
    err = capsys.readouterr().err
    assert "Discord refused DISCORD_TOKEN" in err and "Reset" not in err.splitlines()[0][:5]
    assert "Traceback" not in err
    assert "not-a-real-token" not in err


def test_an_unreachable_discord_ends_with_one_sentence(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import bot

    async def offline(self: bot.UmtaliBot, token: str, **kwargs: object) -> None:
        raise OSError("Network is unreachable")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setattr(bot.UmtaliBot, "start", offline)
    assert bot.main() == 1
    assert "could not reach Discord" in capsys.readouterr().err


def test_a_start_that_failed_before_login_does_not_read_as_a_clean_stop(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """discord.py's own start and close, the login failing as a DNS failure does: the closing
    line must not say that play was stopped cleanly (nothing was played)."""
    import discord.http

    import bot

    async def offline(self: discord.http.HTTPClient, token: str) -> None:
        raise OSError("Temporary failure in name resolution")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setattr(discord.http.HTTPClient, "static_login", offline)
    caplog.set_level("INFO", logger="umtali.bot")
    assert bot.main() == 1
    assert "could not reach Discord" in capsys.readouterr().err
    closing = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Closed")]
    assert closing == ["Closed after an unfinished start: nothing was played; "
                       "the database closed."], closing
