"""Verdicts that moved between two runs: the sentences of the sections that carry each
run's conclusions, aligned across document types, whose claim reversed or whose status
word changed.

A run states its conclusions in prose as well as in status fields: "Reflection is wired
narrowly for consolidation" in one run's bounded synthesis, "Reflection … not
established" in the next run's overview. The sections compared are those
``model/section_roles.py`` gives a role (synthesis, limitations), whatever the document
type; each role's sentences in the old run are aligned with the new run's by their
content words (an inverted index with capped postings and candidates, each candidate
scored with rapidfuzz), so the alignment costs time linear in the sentences. An aligned
pair is a **moved verdict** when both sentences state a verdict (a negation, or a word of
the conclusion-status or epistemic vocabulary) and the two differ: a negation added or
removed ("is wired" → "not established", "does not", "no … observed"), or the status
words changed. A sentence without either states no verdict: silence is not a move.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from generator.graph.record_features import content_words, normalised
from generator.model.ids import grammar
from generator.model.prose import Section
from generator.model.section_roles import SECTION_ROLES, SectionRole, section_title
from generator.model.system import SystemRecords
from generator.model.vocab import ConclusionStatus, EpistemicStatus
from generator.model.walk import collect

MIN_SIMILARITY = 25.0  # an aligned pair's rarity-weighted share of content words (0–100)
MIN_WORDING = 45.0  # and the token-set ratio of their texts (0–100)
SUBJECT_BONUS = 20.0  # added when both sentences open on the same rare word (their subject)
SUBJECT_POSTINGS = 3  # a subject word more new sentences hold is no sign of one claim
MIN_SHARED = 2  # content words (beyond the vocabulary's) an aligned pair shares at least
MAX_POSTINGS = 32  # a word held by more sentences of the new run makes no candidates
RARE_WORDS = 8  # each sentence's rarest words that make candidates
MAX_CANDIDATES = 16  # candidates scored per sentence, best by shared rarity
MAX_SENTENCES = 4_000  # sentences of one role and run that count: a huge section costs no more
MAX_SENTENCE_CHARS = 2_000  # a sentence longer than this is compared by its head

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\[(\"“])|\n\s*\n")
_NEGATION = re.compile(
    r"\b(?:not|no|never|none|neither|nor|cannot|unestablished|without\s+(?:establishing|showing))\b|n't\b",
    re.IGNORECASE,
)
# The vocabulary words that say a conclusion is not established (the rest say how far it is).
_NOT_ESTABLISHED = frozenset(
    {ConclusionStatus.ABSENT, ConclusionStatus.INAPPLICABLE, ConclusionStatus.UNINSPECTED}
    | {EpistemicStatus.NO_ROUTE_FOUND, EpistemicStatus.NOT_DETERMINABLE}
)
_STATUS_WORDS = sorted(
    {status.value for status in ConclusionStatus} | {status.value for status in EpistemicStatus},
    key=len,
    reverse=True,
)
# A status word is the claim's verdict where it is predicated ('Reflection is wired', 'remains
# uninspected', 'is likewise not observed', 'status: afforded'), not where it qualifies a noun
# ('a wired closed host loop', 'its narrower afforded write route').
_PREDICATED = re.compile(
    r"(?:\b(?:is|are|was|were|be|been|being|remains?|remained|stays?|as|at)\s+"
    r"(?:(?:\w+ly|likewise|only|still|now|also|therefore|thus)\s+)*|:\s*)"
    r"(?P<negation>not\s+(?:\w+ly\s+)?)?"
    r"(?P<status>" + "|".join(re.escape(word) for word in _STATUS_WORDS) + r")\b",
    re.IGNORECASE,
)
_LINK_TARGET = re.compile(r"\]\([^)\s]{0,500}\)")  # a Markdown link's target is not its words
_EMPHASIS = re.compile(r"\*+")  # '**afforded**' states the verdict 'afforded'
_VOCABULARY = frozenset(word for status in _STATUS_WORDS for word in content_words(status))


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a role's section, where it is and the verdict it states."""

    document: str  # the document's key ('result', 'overview', …)
    section: str  # the section's key in it ('bounded_synthesis', …)
    title: str  # the section's title as its page shows it
    text: str
    asserted: tuple[str, ...]  # status words it predicates of its subject ('is wired')
    denied: tuple[str, ...]  # those saying a conclusion is not established ('uninspected', 'not wired')
    negated: bool  # it holds a negation ('not', 'no', 'does not', …)

    @property
    def verdict(self) -> str:
        """The verdict in words: what it asserts and denies, else 'not established'."""
        words = [*self.asserted, *self.denied]
        return ", ".join(words) or ("not established" if self.negated else "none")

    @property
    def states_verdict(self) -> bool:
        return bool(self.asserted or self.denied or self.negated)


@dataclass(frozen=True, slots=True)
class VerdictMove:
    """A sentence of one run's conclusions aligned with one of the next run's, whose claim
    reversed (``reversed``: a negation added or removed) or whose status words changed
    (``status changed``)."""

    role: SectionRole
    change: str  # 'reversed' or 'status changed'
    old: Sentence
    new: Sentence
    similarity: float  # how alike the two sentences' content words are (0–100)


def diff_verdicts(old: SystemRecords, new: SystemRecords) -> tuple[VerdictMove, ...]:
    """The verdicts that moved, role by role, in the old run's reading order."""
    moves: list[VerdictMove] = []
    for role in ("synthesis", "limitations"):
        before, after = sentences_of(old, role), sentences_of(new, role)
        for sentence, match, similarity in align(before, after):
            change = _change(sentence, match)
            if change is not None:
                moves.append(VerdictMove(role, change, sentence, match, round(similarity, 1)))
    return tuple(moves)


def sentences_of(system: SystemRecords, role: SectionRole) -> list[Sentence]:
    """The sentences of every section of ``role`` in the run's documents, in page order."""
    found: list[Sentence] = []
    for document, keys in SECTION_ROLES.items():
        doc = getattr(system, document, None)
        if doc is None:
            continue
        for key, section_role in keys.items():
            value = getattr(doc, key, None)
            if section_role != role or value is None:
                continue
            written = value.title if isinstance(value, Section) else None
            title = written or section_title(document, key)
            for text in _sentences(value):
                found.append(_sentence(document, key, title.strip(), text))
                if len(found) >= MAX_SENTENCES:
                    return found
    return found


def _sentences(value: object) -> Iterator[str]:
    texts = [value] if isinstance(value, str) else [t.text for t in collect(value).texts]
    for text in texts:
        for piece in _SENTENCE_END.split(text):
            piece = " ".join(piece.split())
            if piece:
                yield piece


def _sentence(document: str, key: str, title: str, text: str) -> Sentence:
    head = _EMPHASIS.sub("", text[:MAX_SENTENCE_CHARS])
    asserted: dict[str, None] = {}
    denied: dict[str, None] = {}
    for match in _PREDICATED.finditer(head):
        status = match.group("status").casefold()
        if match.group("negation"):
            denied[f"not {status}"] = None
        elif status in _NOT_ESTABLISHED:
            denied[status] = None
        else:
            asserted[status] = None
    negated = bool(_NEGATION.search(head))
    return Sentence(document, key, title, text, tuple(asserted), tuple(denied), negated)


def _words(sentence: Sentence) -> list[str]:
    """Content words without record IDs and without the vocabulary (the verdict itself)."""
    text = _LINK_TARGET.sub("]", sentence.text[:MAX_SENTENCE_CHARS])
    text = grammar().in_text.sub(" ", text)
    return [word for word in content_words(text) if word not in _VOCABULARY]


def align(
    before: Sequence[Sentence], after: Sequence[Sentence]
) -> Iterator[tuple[Sentence, Sentence, float]]:
    """Each old sentence stating a verdict with the new sentence most like it, when one is
    alike enough. Alike is the rarity-weighted Dice share of their content words (a word
    rare among the new run's sentences counts more) at least ``MIN_SIMILARITY``, and
    rapidfuzz's token-set ratio of the two texts at least ``MIN_WORDING``. Candidates come
    from an inverted index of the new sentences' words (a word held by more than
    ``MAX_POSTINGS`` makes none): each old sentence's ``RARE_WORDS`` rarest words, its
    ``MAX_CANDIDATES`` best by shared rarity scored."""
    new_ordered = [_words(sentence) for sentence in after]
    new_words = [frozenset(words) for words in new_ordered]
    postings: dict[str, list[int]] = defaultdict(list)
    for index, words in enumerate(new_words):
        for word in words:
            postings[word].append(index)

    def rarity(word: str) -> float:
        """log(1 + sentences / sentences holding it): a word no new sentence holds is rarest."""
        held = len(postings.get(word, ())) or 0.5
        return math.log(1 + len(after) / held)

    new_weight = [sum(rarity(w) for w in words) for words in new_words]
    for sentence in before:
        if not sentence.states_verdict:
            continue
        ordered = _words(sentence)
        words = frozenset(ordered)
        subject = ordered[0] if ordered and len(postings.get(ordered[0], ())) <= SUBJECT_POSTINGS else None
        keys = sorted(
            (w for w in words if 0 < len(postings.get(w, ())) <= MAX_POSTINGS), key=lambda w: (-rarity(w), w)
        )
        shared: Counter[int] = Counter()
        for word in keys[:RARE_WORDS]:
            for index in postings[word]:
                shared[index] += 1
        weight = sum(rarity(w) for w in words)
        scores = {
            index: 200 * sum(rarity(w) for w in words & new_words[index]) / (weight + new_weight[index])
            + (SUBJECT_BONUS if subject is not None and new_ordered[index][:1] == [subject] else 0.0)
            for index in shared
            if weight + new_weight[index]
        }
        candidates = sorted(scores, key=lambda i: (-scores[i], i))[:MAX_CANDIDATES]
        text = normalised(sentence.text[:MAX_SENTENCE_CHARS])
        for index in candidates:
            score = scores[index]
            if score < MIN_SIMILARITY:
                break
            if len(words & new_words[index]) < MIN_SHARED:
                continue
            if fuzz.token_set_ratio(text, normalised(after[index].text[:MAX_SENTENCE_CHARS])) >= MIN_WORDING:
                yield sentence, after[index], score
                break


def _change(old: Sentence, new: Sentence) -> str | None:
    """How a verdict moved: one side asserts a status and the other asserts none, denying or
    negating instead (``reversed``: 'is wired' → 'not established'), or both name statuses
    and they differ (``status changed``: 'afforded' → 'afforded … uninspected'). Two
    sentences that only deny or negate ('remains uninspected', 'is not established') state
    one verdict, and a sentence naming no status and negating nothing states none."""
    if not (old.states_verdict and new.states_verdict):
        return None
    if bool(old.asserted) != bool(new.asserted):
        return "reversed"
    before, after = {*old.asserted, *old.denied}, {*new.asserted, *new.denied}
    if before and after and before != after:
        return "status changed"
    return None
