"""The rule book for players: texts without the book's sources or markup, and a search that
finds a question in everyday words ("can I play on Ben's train", "how many tiles").

``plain`` drops what only the book's authors need: the sources ("(seed 000)", "— seeds
000, 001", "(000 forrás)", "(सीड 000)"), the id patterns in headings ("(`mt.*`)") and
markdown backticks. ``search`` scores every rule of a game against the question: the words
of both are folded (lower case, accents and possessives dropped), cut to a stem by a few
suffix rules of the language (English, Hungarian, Hindi, Punjabi: the longest ending that
leaves three letters), widened by a small list of everyday synonyms (which also tie each
language's words to the English words of the rule ids), and weighted by how rare each stem
is in the book (idf), so "train" counts less than "marker". A rule's titles weigh more: its
id's words, and its lead sentence. A rule that answers every part of the question ranks
above one that repeats one part. "Who" asks for a player; numbers in words are digits.
Words the book never uses add nothing; little words (stop words) and verbs too general to
tell rules apart are ignored. Plain Python, no index to build: a book has about a hundred
rules. ``tests/web/rule_search_questions.json`` holds the questions it must answer.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from referee.rules.book import Rule, rules_for

# ----------------------------------------------------------------------------- plain text

_SOURCE_IN_BRACKETS = re.compile(r"\s*\([^()]*\b00\d\b[^()]*\)")
_SOURCE_AFTER_DASH = re.compile(r"\s*—\s*[^—]*\b00\d\b[^—]*$")
_ID_PATTERN = re.compile(r"\s*\(`?[a-z]{2}\.\*`?\)")
_BACKTICK = re.compile(r"`")


# Sources named inside a sentence, by language: said without their numbers.
_SOURCE_WORDS = [
    (re.compile(r"\bthe seeds? 00\d table"), "a common table rule"),
    (re.compile(r"\bThe seed says\b"), "The usual rule is"),
    (re.compile(r"\bseeds? 00\d(?:[/, ]+00\d)*'s\b"), "one source's"),
    (re.compile(r"\bseeds? 00\d(?:[/, ]+00\d)*"), "one source"),
    (re.compile(r"\ba 00\d forrás asztalánál"), "egyes asztaloknál"),
    (re.compile(r"\b[Aa] 00\d forrás"), "egy forrás"),
    (re.compile(r"\b00\d(?:[/, ]+00\d)* forrás"), "egy forrás"),
    (re.compile(r"सीड 00\d की टेबल में"), "कुछ टेबलों में"),
    (re.compile(r"सीड 00\d(?:[/, ]+00\d)*"), "एक स्रोत"),
    (re.compile(r"ਸੀਡ 00\d ਦੇ ਮੇਜ਼ ਵਿੱਚ"), "ਕੁਝ ਮੇਜ਼ਾਂ ਵਿੱਚ"),
    (re.compile(r"ਸੀਡ 00\d(?:[/, ]+00\d)*"), "ਇੱਕ ਸਰੋਤ"),
]


def plain(text: str) -> str:
    """A rule text or heading as players read it: no sources, no markup."""
    text = _SOURCE_IN_BRACKETS.sub("", text)
    text = _ID_PATTERN.sub("", text)
    parts = text.split(" — ")
    text = " — ".join(part for part in parts if not re.search(r"\b00\d\b", part)) or parts[0]
    text = _SOURCE_AFTER_DASH.sub("", text)
    for pattern, words_ in _SOURCE_WORDS:
        text = pattern.sub(words_, text)
    return _BACKTICK.sub("", text).strip()


# ----------------------------------------------------------------------------- words

STOP = {
    "en": set(
        [
            "a",
            "an",
            "the",
            "i",
            "you",
            "we",
            "he",
            "she",
            "it",
            "they",
            "me",
            "my",
            "your",
            "his",
            "her",
            "its",
            "our",
            "their",
            "do",
            "does",
            "did",
            "is",
            "are",
            "was",
            "were",
            "be",
            "been",
            "am",
            "on",
            "in",
            "at",
            "of",
            "to",
            "for",
            "from",
            "with",
            "by",
            "and",
            "or",
            "but",
            "if",
            "what",
            "when",
            "where",
            "which",
            "who",
            "whom",
            "why",
            "how",
            "there",
            "this",
            "that",
            "these",
            "those",
            "any",
            "some",
            "so",
            "not",
            "no",
            "yes",
            "than",
            "then",
            "just",
            "only",
            "also",
            "still",
            "have",
            "has",
            "had",
            "will",
            "would",
            "shall",
            "should",
            "go",
            "goes",
            "going",
            "get",
            "gets",
            "got",
            "happen",
            "happens",
            "happened",
            "much",
            "thing",
            "things",
            "then",
            "now",
            "really",
            "happen",
        ]
    ),
    "hu": set(
        [
            "a",
            "az",
            "egy",
            "és",
            "vagy",
            "de",
            "ha",
            "hogy",
            "nem",
            "is",
            "mi",
            "mit",
            "mikor",
            "hol",
            "ki",
            "kinek",
            "miért",
            "hogyan",
            "lehet",
            "kell",
            "van",
            "vannak",
            "volt",
            "én",
            "te",
            "ő",
            "mi",
            "ti",
            "ők",
            "az",
            "ez",
            "ezt",
            "azt",
            "meg",
            "még",
            "csak",
            "már",
            "rá",
            "re",
            "ra",
        ]
    ),
    "hi": set(
        [
            "क्या",
            "मैं",
            "में",
            "पर",
            "का",
            "के",
            "की",
            "को",
            "है",
            "हैं",
            "कि",
            "और",
            "या",
            "से",
            "तो",
            "भी",
            "यह",
            "वह",
            "कैसे",
            "कब",
            "कौन",
            "जो",
            "ही",
            "कर",
            "हूँ",
            "हूं",
        ]
    ),
    "pa": set(
        [
            "ਕੀ",
            "ਮੈਂ",
            "ਵਿੱਚ",
            "'ਤੇ",
            "ਤੇ",
            "ਦਾ",
            "ਦੇ",
            "ਦੀ",
            "ਨੂੰ",
            "ਹੈ",
            "ਹਨ",
            "ਕਿ",
            "ਅਤੇ",
            "ਜਾਂ",
            "ਤੋਂ",
            "ਵੀ",
            "ਇਹ",
            "ਉਹ",
            "ਕਿਵੇਂ",
            "ਕਦੋਂ",
            "ਕੌਣ",
            "ਜੋ",
            "ਹੀ",
            "ਕਰ",
            "ਹਾਂ",
        ]
    ),
}

# "Ben की ट्रेन", "Ben ਦੀ ਟ੍ਰੇਨ": another player's (like "Ben's" in English), when it follows
# a name (a word the book does not use, or one in another script).
POSSESSIVE = {"hi": ("की", "का", "के"), "pa": ("ਦੀ", "ਦਾ", "ਦੇ")}

# "Who …?" asks for a player: the question word stands for the book's word for a player.
WHO = {
    "en": ({"who", "whom"}, "player"),
    "hu": ({"ki", "kinek", "kié"}, "játékos"),
    "hi": ({"कौन"}, "खिलाड़ी"),
    "pa": ({"ਕੌਣ"}, "ਖਿਡਾਰੀ"),
}

# Numbers said in words, as the book writes them (in digits): "five doubles" is "5 doubles".
NUMBER_WORDS = {
    "en": {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7"},
    "hu": {
        "egy": "1",
        "kettő": "2",
        "két": "2",
        "három": "3",
        "négy": "4",
        "öt": "5",
        "hat": "6",
        "hét": "7",
    },
    "hi": {"एक": "1", "दो": "2", "तीन": "3", "चार": "4", "पाँच": "5", "पांच": "5", "छह": "6", "सात": "7"},
    "pa": {"ਇੱਕ": "1", "ਦੋ": "2", "ਤਿੰਨ": "3", "ਚਾਰ": "4", "ਪੰਜ": "5", "ਛੇ": "6", "ਸੱਤ": "7"},
}

# Everyday words and the book's words for the same thing (after stemming, both ways). A
# group that names an English word of the rule ids ("goat", "fish", "marker") also lets a
# question in another language find the rule named after it.
SYNONYMS = {
    "en": [
        ("tile", "domino", "bone", "piece", "stone"),
        ("many", "number", "count", "deal", "each", "per"),
        ("boneyard", "yard", "bazaar", "pile", "stock"),
        ("pass", "knock", "skip"),
        ("draw", "pick", "take"),
        ("point", "score", "pip", "worth", "value"),
        ("win", "winner", "lowest", "low"),
        ("start", "first", "lead", "begin"),
        ("play", "lay", "put"),
        ("end", "finish", "over", "out"),
        ("marker", "mark", "flag", "coin"),
        ("can", "could", "may", "allowed", "available", "open"),
        ("other", "another", "someone", "opponent"),
        ("cannot", "can't", "nothing", "unable", "stuck"),
        ("redeal", "again", "throw", "thrown"),
        ("remove", "off", "lift", "comes"),
    ],
    "hu": [
        ("csont", "dominó", "kő", "lap", "tile"),
        ("hány", "szám", "darab", "oszt", "mennyi", "játékosonként", "fejenként", "mindenki"),
        ("bazár", "talon", "készlet", "húzópakli", "boneyard"),
        ("passz", "kopog", "kopogás", "pass"),
        ("pont", "pontszám", "pötty", "ér", "score"),
        ("rak", "lerak", "tesz", "játsz", "play"),
        ("kecske", "goat"),
        ("hal", "fish"),
        ("jelző", "marker", "jelzőt"),
        ("vonat", "train"),
        ("kezd", "kezdő", "első", "start"),
        ("húz", "húzás", "draw"),
        ("dupla", "double"),
        ("újraoszt", "újra", "bedob", "redeal"),
        ("lekerül", "levesz", "vehet", "remove"),
        ("tyúkláb", "ujj", "double"),
    ],
    "hi": [
        ("टाइल", "टाइलें", "डोमिनो", "गोटी", "tile"),
        ("कितनी", "कितने", "कितना", "संख्या", "गिनती", "हर", "deal"),
        ("other", "दूसरे", "दूसरा", "किसी"),
        ("बकरी", "goat"),
        ("मछली", "फिश", "fish"),
        ("मार्कर", "marker"),
        ("ट्रेन", "train"),
        ("पहले", "पहला", "शुरू", "start"),
        ("खींचना", "खींचता", "खींचे", "draw"),
        ("हटता", "हटाना", "हटे", "remove"),
        ("अंक", "पिप्स", "गिनती", "score"),
        ("डबल", "double"),
        ("फिर", "तुरंत", "follow"),
    ],
    "pa": [
        ("ਟਾਈਲ", "ਟਾਈਲਾਂ", "ਡੋਮੀਨੋ", "ਗੋਟੀ", "tile"),
        ("ਕਿੰਨੀਆਂ", "ਕਿੰਨੇ", "ਕਿੰਨਾ", "ਗਿਣਤੀ", "ਸੰਖਿਆ", "ਹਰ", "deal"),
        ("other", "ਦੂਜੇ", "ਦੂਜਾ", "ਹੋਰ", "ਕਿਸੇ"),
        ("ਬੱਕਰੀ", "goat"),
        ("ਮੱਛੀ", "ਫ਼ਿਸ਼", "fish"),
        ("ਮਾਰਕਰ", "marker"),
        ("ਟ੍ਰੇਨ", "train"),
        ("ਪਹਿਲਾਂ", "ਪਹਿਲਾ", "ਸ਼ੁਰੂ", "start"),
        ("ਖਿੱਚਣਾ", "ਖਿੱਚਦਾ", "ਖਿੱਚੇ", "draw"),
        ("ਹਟਦਾ", "ਹਟਾਉਣਾ", "remove"),
        ("ਅੰਕ", "ਬਿੰਦੀਆਂ", "ਗਿਣਤੀ", "score"),
        ("ਡਬਲ", "double"),
        ("ਫਿਰ", "ਤੁਰੰਤ", "follow"),
    ],
}

_WORD = re.compile(r"[\w\u0900-\u097F\u0A00-\u0A7F]+(?:'\w+)?", re.UNICODE)
# Suffixes cut from a word's end (longest first), leaving a stem of at least three letters.
SUFFIXES = {
    "en": ("ations", "ation", "ings", "ing", "ies", "ied", "ers", "er", "ed", "es", "s", "'s"),
    "hu": (
        "jának",
        "jával",
        "okat",
        "eket",
        "akat",
        "oknak",
        "eknek",
        "ában",
        "ében",
        "ából",
        "éből",
        "jára",
        "jére",
        "ani",
        "eni",
        "hoz",
        "hez",
        "höz",
        "nak",
        "nek",
        "ban",
        "ben",
        "ból",
        "ből",
        "ról",
        "ről",
        "tól",
        "től",
        "val",
        "vel",
        "ra",
        "re",
        "ni",
        "am",
        "em",
        "om",
        "ám",
        "ém",
        "ba",
        "be",
        "on",
        "en",
        "ön",
        "ok",
        "ek",
        "ak",
        "at",
        "et",
        "ot",
        "ja",
        "je",
        "ja",
        "t",
        "k",
        "m",
        "a",
        "e",
        "i",
    ),
    # (Hindi and Punjabi: plural and case endings, and a verb's "-ता/-ती/-ने", "-ਦਾ/-ਦੀ/-ਣਾ")
    "hi": ("ियों", "ियाँ", "ाएँ", "ाओं", "ता", "ती", "ते", "ना", "नी", "ने", "ों", "ें", "ूँ", "ी", "े", "ा", "ि"),
    "pa": ("ੀਆਂ", "ਿਆਂ", "ਦੀਆਂ", "ਦਾ", "ਦੀ", "ਦੇ", "ਣਾ", "ਣੀ", "ਣੇ", "ਾਂ", "ੀਆ", "ੇ", "ੀ", "ਾ", "ਿ", "ੰ"),
}


def _fold(word: str) -> str:
    word = word.lower().replace("’", "'")
    if word.endswith("'s"):
        word = word[:-2]
    return word


def stem(word: str, lang: str) -> str:
    word = _fold(word)
    # the longest ending that leaves a stem of three letters or more
    for suffix in sorted(SUFFIXES.get(lang, SUFFIXES["en"]), key=len, reverse=True):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if lang in ("en", "hu"):  # accents do not split a stem ("húzás" / "huzas")
        word = "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))
    return word


# Verbs too general to tell rules apart ("get", "kap", "मिलना"), by their stems.
GENERAL_STEMS = {"hu": {"kap", "lesz"}, "hi": {"मिल", "बन"}, "pa": {"ਮਿਲ", "ਬਣ"}}


def _is_name(word: str, lang: str) -> bool:
    """Whether ``word`` reads as a player's name in a question: capitalised, or in Latin
    letters inside a Hindi or Punjabi question."""
    if not word:
        return False
    latin = all(ord(c) < 0x0250 for c in word)
    return word[:1].isupper() or (lang in POSSESSIVE and latin)


def words(text: str, lang: str, question: bool = False) -> list[str]:
    """The stems of ``text``; numbers said in words become digits ("five" is "5"); in a
    question, a name's possessive ("Ben's train", "Ben की ट्रेन") stands for another player's."""
    stop = STOP.get(lang, set()) | STOP["en"]
    numbers = NUMBER_WORDS["en"] | NUMBER_WORDS.get(lang, {})
    out = []
    previous = ""
    for raw in _WORD.findall(text):
        folded = _fold(raw)
        if question and (
            raw.lower().replace("’", "'").endswith("'s")
            or (raw in POSSESSIVE.get(lang, ()) and _is_name(previous, lang))
        ):
            out.append(stem("other", "en"))  # (the synonyms hold "another", "दूसर", "ਹੋਰ")
            previous = raw
            continue
        previous = raw
        if question and folded in WHO.get(lang, WHO["en"])[0]:
            out.append(stem(WHO.get(lang, WHO["en"])[1], lang))
            continue
        if folded in numbers:
            out.append(numbers[folded])
            continue
        if folded in stop or (folded.isdigit() and len(folded) > 2):
            continue
        stemmed = stem(folded, lang)
        if stemmed not in GENERAL_STEMS.get(lang, ()):
            out.append(stemmed)
    return out


@cache
def _synonyms(lang: str) -> dict[str, frozenset[str]]:
    """Each stem's synonyms. Groups that share a word are one ("पहले" is "start", which is
    "first" too), so a language's words reach the English words of the rule ids."""
    table: dict[str, frozenset[str]] = {}
    for group in SYNONYMS.get(lang, []) + (SYNONYMS["en"] if lang != "en" else []):
        stems = frozenset(stem(w, lang) for w in group) | frozenset(stem(w, "en") for w in group)
        for s in stems:
            table[s] = table.get(s, frozenset()) | stems
    return {s: frozenset().union(*(table[t] for t in group)) for s, group in table.items()}


_SENTENCE_END = re.compile(r"(?<=[.!?।])\s+")


@dataclass(frozen=True)
class Hit:
    rule: Rule
    score: float


@cache
def _index(game: str, lang: str) -> tuple[tuple[Rule, dict[str, float], int, frozenset[str]], ...]:
    """Each rule with its stems counted and its length in words. A rule's titles weigh
    more: the id's words count three times ("mt.train.available" is about trains), the
    words of its lead sentence (what the rule is about) twice."""
    rules = rules_for(game, lang) if lang != "en" else rules_for(game)
    out = []
    for rule in rules:
        counts: dict[str, float] = {}
        text = plain(rule.text)
        lead = _SENTENCE_END.split(text, maxsplit=1)[0]
        # the section's own part ("Scoring"), not the game's name every rule of it shares
        section = plain(rule.section).partition(" — ")[2]
        for word in words(f"{section} {text} {lead}", lang):
            counts[word] = counts.get(word, 0) + 1
        id_words = words(rule.id.replace(".", " ").replace("-", " "), "en")
        for word in id_words:
            counts[word] = counts.get(word, 0) + 3
        out.append((rule, counts, max(1, int(sum(counts.values()))), frozenset(id_words)))
    return tuple(out)


def _tf(term_group: Iterable[str], counts: dict[str, float]) -> float:
    # a stem matches itself, or a longer word of the book that starts with it (4+ letters)
    return sum(
        n for s, n in counts.items() if any(s == t or (len(t) >= 4 and s.startswith(t)) for t in term_group)
    )


def search(game: str, query: str, lang: str = "en") -> list[Hit]:
    """The rules of ``game`` that answer ``query``, best first (empty: nothing matched).
    Okapi BM25 over the stems (k1 1.2, b 0.75)."""
    index = _index(game, lang)
    total = len(index)
    average = sum(entry[2] for entry in index) / max(1, total)
    terms = []
    for term in dict.fromkeys(words(query, lang, question=True)):
        group = _synonyms(lang).get(term, frozenset()) | {term}
        df = sum(1 for entry in index if _tf(group, entry[1]))
        if df:
            terms.append((group, math.log(1 + (total - df + 0.5) / (df + 0.5))))
    if not terms:
        return []
    hits = []
    for rule, counts, length, id_words in index:
        score = 0.0
        matched = 0
        for group, idf in terms:
            tf = _tf(group, counts)
            if tf:
                matched += 1
                score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / average))
                if any(_tf((t,), {w: 1.0 for w in id_words}) for t in group):
                    # the rule is named after it ("mt.train.available"): strong, however common
                    score += max(idf, 1.0)
        if score:
            # a rule that answers every part of the question beats one that repeats a part
            hits.append(Hit(rule, score * (matched / len(terms)) ** 0.5))
    hits.sort(key=lambda hit: -hit.score)
    return hits
