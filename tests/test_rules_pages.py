"""``/umtali rules`` in each language: every page worded, within Discord's embed limits."""

from __future__ import annotations

import pytest

from cogs.umtali.rules_text import PAGES, command, pages
from umtali.i18n import EN, languages, tr_for
from umtali.rules import RuleSet

OTHER_LANGUAGES = [lang for lang in languages() if lang != "en"]
#: Discord's limits: an embed's description, and its title less the "Umtali rules · " the
#: command puts before a page's title (kept generous for a long translation of it).
DESCRIPTION_LIMIT = 4096
TITLE_LIMIT = 256 - 64


@pytest.mark.parametrize("language", ["en", *OTHER_LANGUAGES])
def test_every_page_fits_an_embed(language: str) -> None:
    for title, text in pages(tr_for(language)):
        assert 0 < len(title) <= TITLE_LIMIT, title
        assert 0 < len(text) <= DESCRIPTION_LIMIT, title
        assert "{" not in text and "}" not in text, title  # every command name filled in


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_page_is_in_the_language(language: str) -> None:
    english, other = pages(EN), pages(tr_for(language))
    assert len(other) == len(english) == 6
    titles = [title for title, _ in other]
    assert len(set(titles)) == len(titles)
    for (en_title, en_text), (title, text) in zip(english, other, strict=True):
        assert title != en_title and text != en_text, en_title


def test_russian_pages_use_the_card_terms() -> None:
    text = "\n".join(body for _, body in pages(tr_for("ru")))
    for term in ("последовательность", "группа", "марьяж", "одиночный валет", "добавление",
                 "колод", "сброс", "рубашкой вверх", "раздач", "партия", "матч", "сдающ"):
        assert term.lower() in text.lower(), term
    # The move notation is the same in every language.
    for move in ("`draw`", "`take 2`", "`meld 8D 9D 10D`", "`extend 7D 8D`", "`discard KS up`"):
        assert move in text, move


def test_pages_name_the_commands_as_the_readers_client_shows_them() -> None:
    ru = tr_for("ru")
    last = pages(ru)[-1][1]
    assert f"`{command(ru, ('umtali', 'challenge'))}`" in last
    assert "`/umtali challenge`" in PAGES[-1][1]


def test_the_playing_page_names_every_player_command() -> None:
    """A player who reads the rules in Discord learns every command there is to play with:
    practice against the computer (with its hint), the records, how their panels look."""
    from cogs.umtali.commands import UmtaliCog

    names = {c.name for c in UmtaliCog.__cog_app_commands__} - {"rules"}
    for tr in (EN, tr_for("ru")):
        last = pages(tr)[-1][1]
        for name in names:
            assert f"`{command(tr, ('umtali', name))}`" in last, (tr.lang, name)
        assert tr.ctx("button", "Hint") in last


def test_the_playing_page_says_how_to_check_the_deals() -> None:
    for tr, doc in ((EN, "docs/FAIR_DEALS.md"), (tr_for("ru"), "docs/FAIR_DEALS.ru.md")):
        assert "python3 -m umtali verify" in pages(tr)[-1][1]
        assert doc in pages(tr)[-1][1]


def test_english_pages_are_the_default() -> None:
    assert list(PAGES) == pages(EN)
    assert PAGES[0][0] == "The game"


#: Each ruling of docs/RULES.md the pages must tell a player, by the words that tell it, in
#: each language (one phrase a ruling: rewording a page means rewording its phrase here).
RULINGS = {
    "tie after four hands plays on": (
        "more hands are played until one player leads at the end of a hand",
        "играют дальше, пока после очередной раздачи кто-то не окажется впереди"),
    "equal cards draw again, both shown": (
        "on equal ranks both draw again, and the bot shows both cards",
        "при картах одного достоинства оба тянут снова, и бот показывает обе карты"),
    "dealer alternates across games": (
        "alternates every hand, across the games of a session too",
        "меняется каждую раздачу, в том числе на стыке партий матча"),
    # review164: "it stays on your side" while the table shows it with the meld it extends.
    "an extension scores for its layer, shown with its meld": (
        "the table shows it with the meld it extends, marked with your name",
        "на столе она показана вместе с комбинацией, к которой приложена, и подписана вашим "
        "именем"),
    "extensions chain": ("either player may extend it in turn",
                         "любой из игроков может приложить следующую"),
    "sequences end at the king and the ace": ("never above K nor below A",
                                              "не выше короля и не ниже туза"),
    "a marriage grows downward like a sequence": ("its J, then the 10, and so on",
                                                  "валет его масти, потом 10 и так далее"),
    "a lone jack's first extension decides": ("its first extension decides which",
                                              "решает первое добавление"),
    "no pair of jacks": ("two cards of one rank, not jacks", "одного достоинства, но не валеты"),
    "a pair takes no extension": ("nothing extends it", "к паре ничего не прикладывают"),
    # review103: "it may even leave a card you could have melded" read as if any card left
    # after a going-out pair would do; under compulsory melding it must be one that cannot be.
    "under compulsory melding the card left after a pair cannot be melded": (
        "Under compulsory melding that last card must be one you cannot meld once the pair "
        "is down",
        "Если выкладывать обязательно, эта последняя карта должна быть такой, которую уже "
        "нельзя выложить, когда пара на столе"),
    "priority: pairs do not count": ("a possible pair does not count",
                                     "возможная пара здесь не в счёт"),
    "priority is judged move by move": ("judged move by move", "проверяется ход за ходом"),
    "the top discard may be taken unused": ("whether or not you can use it",
                                            "пригодится она вам или нет"),
    "take two: one meld or two": ("in one meld or two", "в одной комбинации или в двух"),
    "jacks and extensions are compulsory": ("not even a jack or an extension",
                                            "ни валета, ни добавления"),
    "the choice of melds is the player's": ("which melds you make is yours", "решаете вы"),
    "a pair is never compulsory": ("a pair is never compulsory",
                                   "пару выкладывать никогда не обязательно"),
    "no discard after an empty hand": (
        "If your melds empty your hand, there is no discard",
        "Если после комбинаций на руке не осталось карт, сбрасывать нечего"),
    "an empty stock is checked as a turn begins": (
        "When a turn begins with the stock empty", "Когда ход начинается с пустой колодой"),
    "a hand ended without going out scores no leftovers": (
        "melded points stand, and the cards left in hands score for nobody",
        "очки за выложенное остаются, а карты на руках не приносят очков никому"),
    "no progress: six turns each": ("(six each)", "(по шесть у каждого)"),
    "the opponent's last turn is a full turn": ("**one last full turn**",
                                                "**последний полный ход**"),
    "the opponent's last card may go face down too": (
        "face down too, if it is their last card", "тоже рубашкой вверх, если она последняя"),
    "nothing is taken from under a face-down card": (
        "while a face-down card lies on top of the pile, nothing can be taken from it",
        "пока сверху сброса лежит карта рубашкой вверх, из сброса ничего брать нельзя"),
    # review103: the page said only "threads off"; the bot plays in the channel too where it
    # cannot make a thread (permissions.can_make_thread).
    "the table goes in the channel where no thread can be made": (
        "or where the challenge was made, when the server has threads off, the bot may not "
        "make threads there, the channel is a voice or stage channel's chat, or it is a thread "
        "already",
        "или там, где сделан вызов, если ветки на сервере выключены, бот не может их там "
        "создавать, это чат голосового канала или трибуны либо это уже ветка"),
    "the last turn without a draw still scores leftovers": (
        "it is played without a draw or a take, and the cards left still score for you",
        "он играется без взятия карты, и оставшиеся карты всё равно приносят очки вам"),
}


@pytest.mark.parametrize("ruling", RULINGS)
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_pages_explain_every_ruling(language: str, ruling: str) -> None:
    text = "\n".join(body for _, body in pages(tr_for(language)))
    phrase = RULINGS[ruling][0 if language == "en" else 1]
    assert phrase in text, ruling


def test_the_pages_quote_the_engines_numbers() -> None:
    rules = RuleSet()
    number = {2: ("two", "двух"), 3: ("three", "трёх"), 4: ("four", "четыре"),
              6: ("six", "шесть"), 12: ("Twelve", "двенадцать")}
    en, ru = ("\n".join(body for _, body in pages(tr)) for tr in (EN, tr_for("ru")))
    games = 2 * rules.games_to_win - 1
    assert f"best of {number[games][0]} **games** " \
           f"(the first to win {number[rules.games_to_win][0]})" in en
    assert f"до {number[rules.games_to_win][1]} побед в {number[games][1]} **партиях**" in ru
    assert f"a game is {number[rules.hands_per_game][0]} **hands**" in en
    assert f"партия — это {number[rules.hands_per_game][1]} **раздачи**" in ru
    assert f"{number[rules.stall_turns][0]} turns in a row " \
           f"({number[rules.stall_turns // 2][0]} each)" in en
    assert f"{number[rules.stall_turns][1]} ходов подряд " \
           f"(по {number[rules.stall_turns // 2][1]} у каждого)" in ru
