"""Numbers with one decimal as the reader's language writes them."""

from __future__ import annotations

import pytest

from cogs.umtali.numbers import one_decimal
from umtali.i18n import tr_for


@pytest.mark.parametrize(("value", "en", "ru"), [
    (25.34, "25.3", "25,3"), (-3.25, "\u22123.2", "\u22123,2"), (0.0, "0.0", "0,0"),
    # A rating change that rounds to nothing is no loss: never "-0.0".
    (-0.04, "0.0", "0,0"), (-0.0, "0.0", "0,0"), (0.04, "0.0", "0,0"),
])
def test_one_decimal(value: float, en: str, ru: str) -> None:
    assert one_decimal(tr_for("en"), value) == en
    assert one_decimal(tr_for("ru"), value) == ru
