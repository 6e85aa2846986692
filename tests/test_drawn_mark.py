"""The card a player just took, marked on their hand: after it in the text (explained once in
the panel), and tagged "new" on the picture (a picture of its own in the cache)."""

from __future__ import annotations

import dataclasses
import io
from itertools import pairwise

from PIL import Image

from cogs.umtali.arrange import HandOrder, hand_text, new_legend, new_mark
from cogs.umtali.pictures import CACHE, draw_hand_png, encode, hand_png
from cogs.umtali.pictures.hand import NEW, draw_hand
from cogs.umtali.pictures.scene import hand_scene
from cogs.umtali.render import hand_embed
from umtali.i18n import EN, tr_for
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import PlayerView

RU = tr_for("ru")
NAMES = ("ada", "ben")
#: The mark after a card taken, in English (a word: "✱" was read "heavy asterisk").
NEW_MARK = new_mark(EN)


def _views(took: int) -> list[PlayerView]:
    """Views of a seat melding after taking ``took`` cards it still holds (a few deals)."""
    found: list[PlayerView] = []
    for seed in range(40):
        session = Session(RuleSet.english(), seed)
        for _ in range(150):
            if session.over:
                break
            seat = session.to_act
            view = session.view(seat)
            if len([c for c in view.drawn if c in view.hand]) == took:
                found.append(view)
            session.apply(GreedyPlayer().choose(view), seat)
        if len(found) >= 6:
            return found
    return found


def _marked(text: str) -> set[str]:
    """The cards marked, each glued to its mark by a no-break space (``str.split`` parts at
    it too: the word before the mark is the card)."""
    words = text.replace("\u00a0", " ").split()
    return {before.strip("[]") for before, word in pairwise(words)
            if word.rstrip(";]") == NEW_MARK}


def test_the_hand_text_marks_each_card_taken_this_turn_and_no_other() -> None:
    for took in (1, 2):
        views = _views(took)
        assert views, f"no deal where a seat took {took}"
        for view in views:
            new = {str(c) for c in view.drawn}
            for order in HandOrder:
                assert _marked(hand_text(view, order, EN)) == new, (order, view.drawn)
            # Said once, in the panel's words.
            for tr in (EN, RU):
                embed = hand_embed(view, NAMES, 1, tr=tr, order=HandOrder.SUIT)
                assert (embed.description or "").count(new_mark(tr)) == 1
                assert new_legend(view, tr) in (embed.description or "")
    assert new_legend(_views(2)[0], RU).startswith("Карты с пометкой (новая) — те")


def test_nothing_is_marked_when_nothing_was_taken() -> None:
    session = Session(RuleSet.english(), 3)
    for _ in range(30):
        view = session.view(session.to_act)
        if not view.drawn:
            assert NEW_MARK not in hand_text(view, HandOrder.MELDS, EN)
            assert NEW_MARK not in (hand_embed(view, NAMES, 1, tr=EN, order=HandOrder.SUIT)
                                    .description or "")
            assert not any(hand_scene(view, EN).drawn)
        session.apply(GreedyPlayer().choose(view), session.to_act)


def _tag_pixels(png: bytes) -> int:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    colours = img.getcolors(img.width * img.height) or []
    return sum(n for n, colour in colours if colour == NEW)


def test_the_hand_picture_tags_the_card_taken() -> None:
    for took in (1, 2):
        view = _views(took)[0]
        scene = hand_scene(view, RU)
        assert {c for c, new in zip(scene.cards, scene.drawn, strict=True) if new} == set(
            view.drawn)
        assert scene.words.new == "новая" and scene.words.new_two == "новые"
        plain = dataclasses.replace(scene, drawn=tuple(False for _ in scene.cards))
        # A tag big enough to read where Discord shows the picture at ~400 px wide.
        assert _tag_pixels(encode(draw_hand(scene))) > 1000
        assert _tag_pixels(encode(draw_hand(plain))) == 0


def test_the_cache_tells_a_hand_with_a_card_taken_from_the_same_hand_without() -> None:
    view = _views(1)[0]
    scene = hand_scene(view, EN)
    plain = dataclasses.replace(scene, drawn=tuple(False for _ in scene.cards))
    assert plain != scene
    CACHE.clear()
    # The same cards without the tag drawn first: the tagged hand is not taken for it.
    CACHE.get(plain, lambda: encode(draw_hand(plain)))
    assert hand_png(view) == draw_hand_png(view)
    assert _tag_pixels(hand_png(view)) > 0
