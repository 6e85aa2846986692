"""Each process's name, which its leases carry: its setting, else its shards, else ``main``
(docs/processes.md)."""

from __future__ import annotations

import pytest


def test_a_process_is_named_by_its_setting_else_its_shards_else_main() -> None:
    from settings import SettingsError, load_settings, process_name

    assert process_name({}) == "main"
    assert process_name({"UMTALI_PROCESS": " p2 "}) == "p2"
    assert process_name({}, (1, 0)) == "shards-0-1"
    with pytest.raises(SettingsError, match="UMTALI_PROCESS"):
        process_name({"UMTALI_PROCESS": "two words"})
    assert load_settings({"DISCORD_TOKEN": "x", "UMTALI_PROCESS": "p2"}).process == "p2"
    assert load_settings({"DISCORD_TOKEN": "x"}).process == "main"
