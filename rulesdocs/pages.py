"""The rules pages: their addresses, their sections, and the titles of both in each language.

The long text of every page is a template per language (``templates/rulesdocs/<lang>/<slug>.html``),
written in that language rather than translated string by string; each section of it is a named
partial whose name is the section's id here, so ``?section=<id>`` can serve it alone. Titles live
here, next to the ids, because the table of contents, the links between pages and the headings
all need them, and a title written three times in three templates would drift.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import get_language

LANGS = ("en", "he", "ru")


def doc_language() -> str:
    """The language the rules are shown in: the active one, or English for anything else."""
    code = (get_language() or "en").split("-")[0]
    return code if code in LANGS else "en"


@dataclass(frozen=True)
class Text:
    """One short text written in each language."""

    en: str
    he: str
    ru: str

    def __str__(self) -> str:
        return str(getattr(self, doc_language()))


@dataclass(frozen=True)
class Section:
    id: str
    title: Text


@dataclass(frozen=True)
class Page:
    slug: str
    title: Text
    summary: Text
    sections: tuple[Section, ...]
    # The hand reader's game code for "try it on your own cards" (None: no reader on this page).
    hand_game: str | None = None
    group: str = "games"  # "games" or "reference": where the index lists it

    @property
    def section_ids(self) -> frozenset[str]:
        return frozenset(s.id for s in self.sections)


def _s(id: str, en: str, he: str, ru: str) -> Section:
    return Section(id, Text(en, he, ru))


PAGES: dict[str, Page] = {
    p.slug: p
    for p in (
        Page(
            "patchpatch",
            Text("Patch-Patch rules", "החוקים של Patch-Patch", "Правила Patch-Patch"),
            Text(
                "Twelve cards, three boards, pot-sized bets only: the site's own game, from the "
                "deal to the last chip.",
                "שנים-עשר קלפים, שלושה בורדים והימורים בגודל הקופה בלבד: המשחק של האתר, "
                "מהחלוקה ועד הז'יטון האחרון.",
                "Двенадцать карт, три борда и ставки только размером банка: фирменная игра "
                "сайта от раздачи до последней фишки.",
            ),
            (
                _s("glance", "At a glance", "המשחק בקצרה", "Коротко об игре"),
                _s("deck", "Deck and seats", "החפיסה והמושבים", "Колода и места"),
                _s("hand", "A hand, step by step", "יד, שלב אחרי שלב", "Раздача по шагам"),
                _s("boards", "Two plus three on each board", "שניים ועוד שלושה בכל בורד",
                   "Два плюс три на каждом борде"),
                _s("betting", "Pot-only betting", "הימורים בגודל הקופה בלבד",
                   "Ставки только размером банка"),
                _s("pot", "One pot, three boards", "קופה אחת, שלושה בורדים",
                   "Один банк на три борда"),
                _s("split", "A tie on a board", "תיקו על בורד", "Ничья на борде"),
                _s("scoop", "The scoop", "סקופ", "Скуп"),
                _s("side-pots", "Side pots", "קופות צד", "Побочные банки"),
                _s("folding", "Folding", "פולד", "Пас"),
                _s("clock", "Clocks and breaks", "שעונים והפסקות", "Время на ход и перерывы"),
                _s("rake", "Rake", "רייק", "Рейк"),
                _s("chips", "Play chips", "ז'יטונים למשחק", "Игровые фишки"),
            ),
            hand_game="patchpatch",
        ),
        Page(
            "rankings",
            Text("Hand rankings", "דירוג הידיים", "Старшинство комбинаций"),
            Text(
                "The ten hands from royal flush down, how ties are settled, the two-plus-three "
                "traps, and how often each hand comes.",
                "עשר הידיים מרויאל פלאש ומטה, איך מכריעים תיקו, המלכודות של שניים ועוד שלושה, "
                "וכמה פעמים כל יד מגיעה.",
                "Десять комбинаций от роял-флеша вниз, как решается ничья, ловушки правила "
                "«два плюс три» и как часто приходит каждая рука.",
            ),
            (
                _s("order", "The order", "הסדר", "Порядок"),
                _s("hands", "The ten hands", "עשר הידיים", "Десять комбинаций"),
                _s("ties", "Breaking a tie", "הכרעת תיקו", "Как решается ничья"),
                _s("two-plus-three", "Omaha and Patch-Patch: two plus three",
                   "אומהה ו-Patch-Patch: שניים ועוד שלושה", "Омаха и Patch-Patch: два плюс три"),
                _s("five-cards", "How often: five cards", "כמה נדיר: חמישה קלפים",
                   "Как часто: пять карт"),
                _s("seven-cards", "How often by the river", "כמה נדיר עד הריבר",
                   "Как часто к риверу"),
                _s("patchpatch-odds", "How often in Patch-Patch", "כמה נדיר ב-Patch-Patch",
                   "Как часто в Patch-Patch"),
            ),
            hand_game="omaha",
            group="reference",
        ),
        Page(
            "baseball",
            Text("Baseball poker", "פוקר בייסבול", "Бейсбол-покер"),
            Text(
                "The club's seven-card stud with wild threes and nines and a free card for an "
                "open four.",
                "הסטאד בן שבעת הקלפים של המועדון, עם שלושות ותשיעיות ג'וקר וקלף מתנה על ארבע "
                "פתוח.",
                "Клубный семикарточный стад с дикими тройками и девятками и бесплатной картой "
                "за открытую четвёрку.",
            ),
            (
                _s("profile", "Our house version", "הגרסה של הבית", "Наш домашний вариант"),
                _s("deal", "The deal", "החלוקה", "Раздача"),
                _s("fours", "An open four earns a card", "ארבע פתוח מביא קלף",
                   "Открытая четвёрка приносит карту"),
                _s("wild", "Threes and nines are wild", "שלושות ותשיעיות הן ג'וקר",
                   "Тройки и девятки — джокеры"),
                _s("betting", "Betting: one unit, three raises", "הימורים: יחידה אחת, עד שלוש העלאות",
                   "Торговля: ставка 1 и три рейза"),
                _s("opener", "Who opens", "מי פותח", "Кто открывает торговлю"),
                _s("showdown", "Showdown and five of a kind", "חשיפה וחמישה מאותו ערך",
                   "Вскрытие и пять одинаковых"),
                _s("fractions", "Splits in fractions", "חלוקה בשברים", "Делёж дробями"),
                _s("session", "An eight-pot session", "סשן של שמונה קופות",
                   "Сессия из восьми банков"),
                _s("examples", "Two worked examples", "שתי דוגמאות", "Два разобранных примера"),
            ),
            hand_game="baseball",
        ),
        Page(
            "holdem",
            Text("Texas Hold'em", "טקסס הולדם", "Техасский холдем"),
            Text(
                "Two cards in the hand, five on the board; limit, pot-limit and no-limit.",
                "שני קלפים ביד וחמישה על הבורד; לימיט, פוט-לימיט ונו-לימיט.",
                "Две карты на руках, пять на столе; лимит, пот-лимит и безлимит.",
            ),
            (
                _s("overview", "The game", "המשחק", "Об игре"),
                _s("blinds", "Button, blinds and order", "דילר, בליינדים וסדר הפעולה",
                   "Баттон, блайнды и очерёдность"),
                _s("hand", "A hand, street by street", "יד, רחוב אחרי רחוב", "Раздача по улицам"),
                _s("limit", "Fixed limit", "לימיט", "Фиксированный лимит"),
                _s("pot-limit", "Pot limit", "פוט-לימיט", "Пот-лимит"),
                _s("no-limit", "No limit", "נו-לימיט", "Безлимит"),
                _s("all-in", "Table stakes, all-in and side pots", "מה שעל השולחן, אול-אין וקופות צד",
                   "Фишки на столе, ва-банк и побочные банки"),
                _s("showdown", "Showdown", "חשיפה", "Вскрытие"),
            ),
            hand_game="holdem",
        ),
        Page(
            "omaha",
            Text("Omaha and Omaha Hi-Lo", "אומהה ואומהה היי-לו", "Омаха и Омаха хай-лоу"),
            Text(
                "Four cards in the hand, exactly two of them with exactly three from the board; "
                "and the split-pot version.",
                "ארבעה קלפים ביד, בדיוק שניים מהם עם בדיוק שלושה מהבורד; וגם הגרסה שבה הקופה "
                "מתחלקת.",
                "Четыре карты на руках, ровно две из них и ровно три со стола; и вариант с "
                "делёжом банка.",
            ),
            (
                _s("overview", "The game", "המשחק", "Об игре"),
                _s("two-plus-three", "Two plus three", "שניים ועוד שלושה", "Два плюс три"),
                _s("hand", "A hand", "מהלך היד", "Ход раздачи"),
                _s("betting", "Betting", "הימורים", "Ставки"),
                _s("hi-lo", "Omaha Hi-Lo", "אומהה היי-לו", "Омаха хай-лоу"),
            ),
            hand_game="omaha",
        ),
        Page(
            "draw",
            Text("Five-card draw", "דרו חמישה קלפים", "Пятикарточное дро"),
            Text(
                "Five closed cards, one draw, two betting rounds.",
                "חמישה קלפים סגורים, החלפה אחת, שני סבבי הימורים.",
                "Пять закрытых карт, один обмен, два круга торговли.",
            ),
            (
                _s("overview", "The game", "המשחק", "Об игре"),
                _s("hand", "A hand", "מהלך היד", "Ход раздачи"),
                _s("betting", "Betting", "הימורים", "Ставки"),
            ),
            hand_game="draw",
        ),
        Page(
            "stud5",
            Text("Five-card stud", "סטאד חמישה קלפים", "Пятикарточный стад"),
            Text(
                "One card down, four up, four betting rounds.",
                "קלף אחד סגור, ארבעה פתוחים, ארבעה סבבי הימורים.",
                "Одна карта закрыта, четыре открыты, четыре круга торговли.",
            ),
            (
                _s("overview", "The game", "המשחק", "Об игре"),
                _s("hand", "A hand", "מהלך היד", "Ход раздачи"),
                _s("bring-in", "The bring-in and who acts first", "הברינג-אין ומי פותח",
                   "Бринг-ин и кто ходит первым"),
                _s("limits", "Small bet, big bet", "הימור קטן, הימור גדול",
                   "Малая и большая ставка"),
            ),
            hand_game="stud",
        ),
        Page(
            "stud7",
            Text("Seven-card stud", "סטאד שבעה קלפים", "Семикарточный стад"),
            Text(
                "Three down, four up, five betting rounds; the best five of seven.",
                "שלושה סגורים, ארבעה פתוחים, חמישה סבבי הימורים; חמשת הטובים מתוך שבעה.",
                "Три закрытые, четыре открытые, пять кругов торговли; лучшие пять из семи.",
            ),
            (
                _s("overview", "The game", "המשחק", "Об игре"),
                _s("streets", "Street by street", "רחוב אחרי רחוב", "Улица за улицей"),
                _s("bring-in", "The bring-in and who acts first", "הברינג-אין ומי פותח",
                   "Бринг-ин и кто ходит первым"),
                _s("limits", "Limits", "גובה ההימורים", "Лимиты"),
            ),
            hand_game="stud",
        ),
        Page(
            "razz",
            Text("Razz", "ראז", "Разз"),
            Text(
                "Seven-card stud played for the lowest hand: 5-4-3-2-A is the nuts.",
                "סטאד שבעה קלפים על היד הנמוכה ביותר, שבו חמש-ארבע-שלוש-שתיים-אס היא היד המנצחת.",
                "Семикарточный стад на самую младшую руку: лучше 5-4-3-2-A ничего нет.",
            ),
            (
                _s("overview", "The game", "המשחק", "Об игре"),
                _s("low", "Reading a low hand", "איך קוראים יד נמוכה", "Как читать младшую руку"),
                _s("bring-in", "The bring-in and who acts first", "הברינג-אין ומי פותח",
                   "Бринг-ин и кто ходит первым"),
            ),
            hand_game="razz",
        ),
        Page(
            "stud8",
            Text("Seven-card stud Hi-Lo", "סטאד היי-לו", "Стад хай-лоу"),
            Text(
                "Seven-card stud with the pot split between the best high and the best low of "
                "eight or better.",
                "סטאד שבעה קלפים שבו הקופה מתחלקת בין היד הגבוהה הטובה ביותר לנמוכה הטובה ביותר "
                "(שמונה ומטה).",
                "Семикарточный стад, где банк делят лучшая старшая рука и лучшая младшая не "
                "выше восьмёрки.",
            ),
            (
                _s("overview", "The game", "המשחק", "Об игре"),
                _s("split", "High and low", "גבוה ונמוך", "Старшая и младшая"),
                _s("bring-in", "The bring-in and who acts first", "הברינג-אין ומי פותח",
                   "Бринг-ин и кто ходит первым"),
            ),
            hand_game="stud8",
        ),
        Page(
            "hosting",
            Text("Hosting a home game", "לארח משחק ביתי", "Своя домашняя игра"),
            Text(
                "Clubs, invitations, game nights, private tables without rake, the host's controls, "
                "settling up, sessions and leaderboards.",
                "מועדונים, הזמנות, ערבים מתוכננים מראש, שולחנות פרטיים בלי רייק, כלי המארח, סגירת "
                "חשבונות, סשנים וטבלת המובילים.",
                "Клубы, приглашения, игровые вечера, закрытые столы без рейка, управление столом, "
                "расчёты, сессии и рейтинг.",
            ),
            (
                _s("overview", "Your game, online", "המשחק שלכם, ברשת", "Ваша игра в сети"),
                _s("club", "Creating a club", "פתיחת מועדון", "Как создать клуб"),
                _s("invite", "Inviting players", "הזמנת שחקנים", "Приглашения"),
                _s("tables", "Private tables", "שולחנות פרטיים", "Закрытые столы"),
                _s("nights", "Planning the evening", "לתכנן את הערב", "Как назначить вечер"),
                _s("at-the-table", "Running the table", "לנהל את השולחן", "Как вести стол"),
                _s("settling", "Settling up", "לסגור חשבונות", "Как рассчитаться"),
                _s("sessions", "Sessions and leaderboards", "סשנים וטבלת המובילים",
                   "Сессии и рейтинг"),
                _s("house-rules", "House rules", "חוקי הבית", "Правила дома"),
            ),
            group="reference",
        ),
    )
}

INDEX = Page(
    "index",
    Text("Rules", "חוקים", "Правила"),
    Text("", "", ""),
    (
        _s("games", "The games", "המשחקים", "Игры"),
        _s("reference", "Reference", "עיון", "Справка"),
    ),
)
