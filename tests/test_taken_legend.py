"""The hand picture's legend for the cards taken from the pile says how many: after "take 2"
two cards are outlined, and the Russian legend said «взята» (one card) of them."""

from __future__ import annotations

from cogs.umtali.pictures.scene import hand_scene
from tests.test_drawn_mark import RU, _views
from umtali.i18n import EN


def test_the_legend_of_cards_taken_from_the_pile_agrees_with_their_number() -> None:
    told = {}
    for took in (1, 2):
        for view in _views(took):
            if view.taken is None:
                continue  # drawn from the stock: no outline, no legend
            scene = hand_scene(view, RU)
            assert len(scene.taken) == took
            told[took] = scene.words.taken
            assert hand_scene(view, EN).words.taken == "taken from the pile"
    assert told == {1: "взята из сброса", 2: "взяты из сброса"}, told
