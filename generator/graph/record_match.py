"""Which record of one run is which record of the other: pairing by what records are.

An analysis run again numbers its records afresh, so an ID is one signal, not the key.
Within a kind, the records of the two runs are paired one to one by a combined score
(``Basis``) of what they are:

- **anchors** (weight ``W_ANCHORS``): the files both cite, whatever the source's ID (a
  file is keyed by its source's location and revision, ``record_features``), each shared
  file weighed by how rare it is among the records (a file every record cites says
  little), and by ``DISJOINT_LINES`` when both cite line ranges that do not overlap; the
  whole scaled by the square root of the rarest shared file's rarity (two records citing nothing but the
  README share everything they cite, and it says little); a source's own
  "file" is its location, so sources pair by location and revision first;
- **label** (``W_LABEL``): the labels' content words compared with rapidfuzz (the mean of
  its token-sort and token-set ratios);
- **text** (``W_TEXT``): the content words of all their text (IDs left out), each
  weighed by its rarity, as a cosine;
- **neighbours** (``W_NEIGHBOURS``): the records each cites or is cited by that are
  themselves paired with each other (iterated: a round's pairs feed the next round,
  ``ROUNDS`` at most, until nothing moves);
- **profile axes** (``W_AXES``): the axes of the memory-comparison profile naming both.

A signal counts only when both records have something to compare (two records without
anchors are judged on the rest); the score is the weighted mean of those that count,
plus ``SAME_ID_BONUS`` when the IDs agree. An optimal assignment
(``scipy.optimize.linear_sum_assignment``) per kind maximises the total score; a pair
scoring under ``THRESHOLD`` is no pair, its records are added or removed.

Candidates come from an inverted index (cited file → records, label and rare text words
→ records, ID → record), all pairs only in a kind small enough (``ALL_PAIRS``); a key
held by more than ``MAX_POSTINGS`` records of either run makes no candidates (it still
counts in the score), each record offers only its rarest keys and keeps only its
``MAX_CANDIDATES`` best candidates on either side, and the assignment runs per
connected group of candidates, so pairing stays near-linear in the records whatever
their text. A group of more than ``MAX_ASSIGNMENT``
records on a side (the optimal assignment costs the cube of its size) is paired
greedily, by descending score.

A pair whose labels share few words may name different things. Its labels' overlap is
the share of content words the shorter label has in common with the other: below
``REFERENT_OVERLAP``, on a pair scoring under ``SURE``, the pair is flagged, and still
compared as one record.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from generator.graph.record_features import (
    Features,
    content_words,
    features_of,
    normalised,
    preferred_member,
    ranges_overlap,
)
from generator.model.records import RecordBase
from generator.model.system import SystemRecords

__all__ = [
    "Basis",
    "Matching",
    "Pair",
    "candidate_count",
    "label_overlap",
    "match_records",
    "normalised",
    "possibly_different",
]

W_ANCHORS = 0.35
W_LABEL = 0.25
W_TEXT = 0.25
W_NEIGHBOURS = 0.10
W_AXES = 0.05
SAME_ID_BONUS = 0.10
# A single result's record is paired with the set member that would carry it first (the
# memory report for a memory route or object, before the epistemic report that may carry
# a like one): the assignment weighs such a pair this much more. Its confidence, and the
# threshold, stay the signals' alone.
MEMBER_PRIORITY = 0.25
THRESHOLD = 0.33  # a pair scoring less is no pair
DISJOINT_LINES = 0.3  # a shared file whose cited line ranges do not overlap counts this much
SURE = 0.45  # a pair scoring this much is not flagged whatever its labels
REFERENT_OVERLAP = 0.5  # labels sharing less than half of the shorter one's words are flagged
ROUNDS = 4
ALL_PAIRS = 4_096  # a kind with at most this many (old × new) pairs compares them all
MAX_POSTINGS = 32  # an index key held by more records of either run makes no candidates
RARE_WORDS = 8  # each record's rarest text words that make candidates
RARE_KEYS = 8  # each record's rarest label words, and rarest cited files, that make candidates
MAX_CANDIDATES = 16  # each record's best candidates kept (by the rarity of the keys shared)
MAX_ASSIGNMENT = 1_000  # a group with more records on a side is assigned greedily


@dataclass(frozen=True, slots=True)
class Basis:
    """Why two records are paired: the score and each signal that made it."""

    confidence: float  # the combined score, 0 to 1 (rounded to two places)
    same_id: bool
    shared_files: tuple[str, ...]  # the cited files (paths or locators) both cite, sorted
    label_similarity: float | None  # None: one of them has no label
    text_similarity: float | None
    paired_neighbours: int  # cited or citing records paired with each other
    profile_axes: tuple[str, ...]  # axes naming both
    carrying_member: bool = False  # a single result's record and the set member carrying such records

    @property
    def weight(self) -> float:
        """What the assignment maximises: the confidence, and first the carrying member (a
        pair under the threshold is none, and weighs nothing)."""
        if self.confidence < THRESHOLD:
            return 0.0
        return self.confidence + (MEMBER_PRIORITY if self.carrying_member else 0.0)

    def reasons(self) -> tuple[str, ...]:
        """The signals in words, strongest kinds first ('3 shared files: a.ts, …')."""
        found = []
        if self.shared_files:
            shown = ", ".join(self.shared_files[:3]) + (", …" if len(self.shared_files) > 3 else "")
            count = len(self.shared_files)
            found.append(f"{count} shared cited file{'s' * (count > 1)}: {shown}")
        if self.label_similarity is not None and self.label_similarity >= 0.5:
            found.append(f"label {self.label_similarity:.0%} similar")
        if self.text_similarity is not None and self.text_similarity >= 0.2:
            found.append(f"text {self.text_similarity:.0%} similar")
        if self.paired_neighbours:
            found.append(f"{self.paired_neighbours} paired neighbour{'s' * (self.paired_neighbours > 1)}")
        if self.profile_axes:
            found.append("named by profile axes " + ", ".join(self.profile_axes))
        if self.same_id:
            found.append("same ID")
        if self.carrying_member:
            found.append("the set member that carries such a record")
        return tuple(found)


@dataclass(frozen=True, slots=True)
class Pair:
    old: RecordBase
    new: RecordBase
    basis: Basis


@dataclass(frozen=True, slots=True)
class Matching:
    """The pairs, in the old run's order, and what is left on each side."""

    pairs: tuple[Pair, ...]
    removed: tuple[RecordBase, ...]
    added: tuple[RecordBase, ...]


def label_overlap(old: str | None, new: str | None) -> float | None:
    """The share of the shorter label's content words the other has; None when either
    label has none (nothing to compare)."""
    a, b = frozenset(content_words(old or "")), frozenset(content_words(new or ""))
    if not a or not b:
        return None
    return len(a & b) / min(len(a), len(b))


def possibly_different(old: str | None, new: str | None, confidence: float = 0.0) -> float | None:
    """The labels' overlap when it is low enough to flag the pair (and the pair is not
    sure on other grounds), else None."""
    overlap = label_overlap(old, new)
    flagged = overlap is not None and overlap < REFERENT_OVERLAP and confidence < SURE
    return overlap if flagged else None


def match_records(old: SystemRecords, new: SystemRecords) -> Matching:
    """Pair two runs' records one to one within each kind (see the module's docstring)."""
    return _Pairing(features_of(old), features_of(new)).run(old.records, new.records)


@dataclass(slots=True)
class _Static:
    """A candidate pair's signals that do not depend on other pairs."""

    anchors: float | None
    files: tuple[str, ...]
    label: float | None
    text: float | None
    axes: tuple[str, ...]
    same_id: bool
    member: bool  # a single result's record and the set member that would carry it


class _Pairing:
    def __init__(self, old: list[Features], new: list[Features]) -> None:
        self.old, self.new = old, new
        both = [*old, *new]
        total = max(len(both), 1)
        file_df = Counter(key for f in both for key in f.files)
        word_df = Counter(word for f in both for word in f.words)
        path_df = Counter(path for f in both for path in f.paths)
        self.path_idf = {path: math.log(1 + total / n) for path, n in path_df.items()}
        self.file_idf = {key: math.log(1 + total / n) for key, n in file_df.items()}
        self.rare_file = math.log(1 + total / 2)  # a file one record of each run cites
        self.word_idf = {word: math.log(1 + total / n) for word, n in word_df.items()}
        self.word_norm = [self._norm(f.words) for f in old], [self._norm(f.words) for f in new]
        self.static: dict[tuple[int, int], _Static] = {}

    def run(self, old_records: Sequence[RecordBase], new_records: Sequence[RecordBase]) -> Matching:
        groups = self._candidate_groups()
        mapping: dict[str, str] = {}
        chosen: dict[tuple[int, int], Basis] = {}
        for _ in range(ROUNDS):
            chosen = {}
            for group in groups:
                chosen.update(self._assign(group, mapping))
            new_mapping = {self.old[i].id: self.new[j].id for i, j in chosen}
            if new_mapping == mapping:
                break
            mapping = new_mapping
        paired_old = {i for i, _ in chosen}
        paired_new = {j for _, j in chosen}
        pairs = tuple(
            Pair(old_records[i], new_records[j], chosen[i, j]) for i, j in sorted(chosen, key=lambda p: p[0])
        )
        return Matching(
            pairs,
            tuple(r for i, r in enumerate(old_records) if i not in paired_old),
            tuple(r for j, r in enumerate(new_records) if j not in paired_new),
        )

    # ------------------------------------------------------------------ candidates

    def _candidate_groups(self) -> list[tuple[list[int], list[int], set[tuple[int, int]]]]:
        """Per kind, the connected groups of candidate pairs: (old indices, new indices, pairs)."""
        by_kind: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
        for i, f in enumerate(self.old):
            by_kind[f.kind][0].append(i)
        for j, f in enumerate(self.new):
            by_kind[f.kind][1].append(j)
        groups = []
        for kind in sorted(by_kind):
            olds, news = by_kind[kind]
            if not olds or not news:
                continue
            if len(olds) * len(news) <= ALL_PAIRS:
                candidates = {(i, j) for i in olds for j in news}
            else:
                candidates = self._indexed(olds, news)
            groups.extend(_components(candidates))
        return groups

    def _indexed(self, olds: list[int], news: list[int]) -> set[tuple[int, int]]:
        """Candidate pairs sharing a cited file, a label word, a rare text word or the ID.

        Capped on both sides, so that no text makes them quadratic: a key held by more
        than ``MAX_POSTINGS`` records of either run makes none, each record offers its
        rarest keys alone (``RARE_KEYS``, ``RARE_WORDS``), and each record keeps its
        ``MAX_CANDIDATES`` best (weighed by the rarity of the keys shared) on either side;
        so at most ``2 · MAX_CANDIDATES`` candidates per record."""
        old_keys = {i: self._keys(self.old[i]) for i in olds}
        new_keys = {j: self._keys(self.new[j]) for j in news}
        old_index: dict[object, list[int]] = defaultdict(list)
        new_index: dict[object, list[int]] = defaultdict(list)
        for i, keys in old_keys.items():
            for key in keys:
                old_index[key].append(i)
        for j, keys in new_keys.items():
            for key in keys:
                new_index[key].append(j)
        usable = {
            key: math.log(1 + (len(olds) + len(news)) / (len(posting) + len(new_index[key])))
            for key, posting in old_index.items()
            if key in new_index and len(posting) <= MAX_POSTINGS and len(new_index[key]) <= MAX_POSTINGS
        }
        candidates: set[tuple[int, int]] = set()
        for i in olds:
            best = _best(old_keys[i], usable, new_index)
            candidates.update((i, j) for j in best)
        for j in news:
            best = _best(new_keys[j], usable, old_index)
            candidates.update((i, j) for i in best)
        return candidates

    def _keys(self, f: Features) -> list[object]:
        keys: list[object] = [("id", f.id)]
        rare_files = sorted(f.files, key=lambda k: (-self.file_idf[k], k))[:RARE_KEYS]
        keys.extend(("file", key) for key in rare_files)
        labels = sorted(set(f.label.split()), key=lambda w: (-self.word_idf.get(w, 0.0), w))[:RARE_KEYS]
        keys.extend(("label", word) for word in labels)
        rare = sorted(f.words, key=lambda w: (-self.word_idf[w], w))[:RARE_WORDS]
        keys.extend(("word", word) for word in rare)
        if not f.files:
            paths = sorted(f.paths, key=lambda p: (-self.path_idf[p], p))[:RARE_KEYS]
            keys.extend(("path", path) for path in paths)
        return keys

    def candidate_count(self) -> int:
        """How many candidate pairs are scored (what pairing's cost grows with)."""
        return sum(len(pairs) for _, _, pairs in self._candidate_groups())

    # ------------------------------------------------------------------ scores

    def _assign(
        self, group: tuple[list[int], list[int], set[tuple[int, int]]], mapping: dict[str, str]
    ) -> dict[tuple[int, int], Basis]:
        # Imported here: NumPy takes longer to import than a check of a few systems, and only
        # pairing runs needs it (kbgen check and most builds have one run per system).
        import numpy as np

        from generator.graph.assignment import linear_sum_assignment

        olds, news, candidates = group
        large = max(len(olds), len(news)) > MAX_ASSIGNMENT
        scores = np.zeros((0, 0) if large else (len(olds), len(news)))
        bases: dict[tuple[int, int], Basis] = {}
        row = {i: r for r, i in enumerate(olds)}
        column = {j: c for c, j in enumerate(news)}
        for i, j in candidates:
            basis = self._basis(i, j, mapping)
            bases[i, j] = basis
            if not large:
                scores[row[i], column[j]] = basis.weight
        if max(len(olds), len(news)) > MAX_ASSIGNMENT:
            return _greedy(bases)
        rows, columns = linear_sum_assignment()(scores, maximize=True)
        chosen = {}
        for r, c in zip(rows.tolist(), columns.tolist(), strict=True):
            pair = (olds[r], news[c])
            if pair in bases and bases[pair].confidence >= THRESHOLD:
                chosen[pair] = bases[pair]
        return chosen

    def _basis(self, i: int, j: int, mapping: dict[str, str]) -> Basis:
        static = self.static.get((i, j))
        if static is None:
            static = self.static[i, j] = self._static(i, j)
        a, b = self.old[i], self.new[j]
        signals = [(W_ANCHORS, static.anchors), (W_LABEL, static.label), (W_TEXT, static.text)]
        paired = 0
        if a.neighbours and b.neighbours and mapping:
            paired = sum(1 for x in a.neighbours if mapping.get(x) in b.neighbours)
            signals.append((W_NEIGHBOURS, 2 * paired / (len(a.neighbours) + len(b.neighbours))))
        if a.axes and b.axes:
            signals.append((W_AXES, len(a.axes & b.axes) / len(a.axes | b.axes)))
        counted = [(weight, value) for weight, value in signals if value is not None]
        weight = sum(w for w, _ in counted)
        score = sum(w * v for w, v in counted) / weight if weight else 0.0
        score = min(1.0, score + (SAME_ID_BONUS if static.same_id else 0.0))
        return Basis(
            confidence=round(score, 2),
            same_id=static.same_id,
            shared_files=static.files,
            label_similarity=round(static.label, 2) if static.label is not None else None,
            text_similarity=round(static.text, 2) if static.text is not None else None,
            paired_neighbours=paired,
            profile_axes=static.axes,
            carrying_member=static.member,
        )

    def _static(self, i: int, j: int) -> _Static:
        a, b = self.old[i], self.new[j]
        anchors, files = self._anchors(a, b)
        label = None
        if a.label and b.label:
            label = (fuzz.token_sort_ratio(a.label, b.label) + fuzz.token_set_ratio(a.label, b.label)) / 200
        text = None
        norms = self.word_norm[0][i] * self.word_norm[1][j]
        if norms:
            shared = sum(self.word_idf[w] ** 2 for w in a.words & b.words)
            text = shared / norms
        return _Static(
            anchors, files, label, text, tuple(sorted(a.axes & b.axes)), a.id == b.id, _carried_by(a, b)
        )

    def _anchors(self, a: Features, b: Features) -> tuple[float | None, tuple[str, ...]]:
        if not a.files or not b.files:
            return self._named_paths(a, b)
        shared = 0.0
        rarity = 0.0
        names = []
        for key in a.files.keys() & b.files.keys():
            overlap = ranges_overlap(a.files[key], b.files[key])
            shared += self.file_idf[key] * (1.0 if overlap else DISJOINT_LINES)
            rarity = max(rarity, self.file_idf[key])
            names.append(key[1] or key[0])
        total = sum(self.file_idf[k] for k in a.files) + sum(self.file_idf[k] for k in b.files)
        # Two records citing README.md alone share all they cite, and say little by it.
        specific = math.sqrt(min(1.0, rarity / self.rare_file))
        return 2 * shared / total * specific, tuple(sorted(names))

    def _named_paths(self, a: Features, b: Features) -> tuple[float | None, tuple[str, ...]]:
        """The files two records cite or name in prose, by path alone: the signal of a
        record whose run states its evidence in prose (a set member's record naming
        ``src/consolidate.rs``) against one citing it in anchors."""
        if not a.paths or not b.paths:
            return None, ()
        shared = a.paths & b.paths
        if not shared:
            return 0.0, ()
        total = sum(self.path_idf[p] for p in a.paths) + sum(self.path_idf[p] for p in b.paths)
        rarity = max(self.path_idf[p] for p in shared)
        specific = math.sqrt(min(1.0, rarity / self.rare_file))
        return 2 * sum(self.path_idf[p] for p in shared) / total * specific, tuple(sorted(shared))

    def _norm(self, words: frozenset[str]) -> float:
        return math.sqrt(sum(self.word_idf[w] ** 2 for w in words))


def _carried_by(a: Features, b: Features) -> bool:
    """One record of a single result, the other of the set member that would carry it."""
    if (a.member is None) == (b.member is None):
        return False
    single, member = (a, b) if a.member is None else (b, a)
    return member.member == preferred_member(single)


def _best(keys: list[object], usable: dict[object, float], index: dict[object, list[int]]) -> list[int]:
    """The records of the other run sharing the most (by rarity) of ``keys``, at most
    ``MAX_CANDIDATES``, best first (ties by index)."""
    weight: dict[int, float] = defaultdict(float)
    for key in keys:
        rarity = usable.get(key)
        if rarity is not None:
            for other in index[key]:
                weight[other] += rarity
    return sorted(weight, key=lambda other: (-weight[other], other))[:MAX_CANDIDATES]


def candidate_count(old: SystemRecords, new: SystemRecords) -> int:
    """How many candidate pairs pairing the two runs scores (see ``_Pairing._indexed``)."""
    return _Pairing(features_of(old), features_of(new)).candidate_count()


def _greedy(bases: dict[tuple[int, int], Basis]) -> dict[tuple[int, int], Basis]:
    """Pairs by descending score, each record taken once: the assignment of a group too
    large for the optimal one (its cost grows with the cube of the group)."""
    chosen: dict[tuple[int, int], Basis] = {}
    taken_old: set[int] = set()
    taken_new: set[int] = set()
    for (i, j), basis in sorted(bases.items(), key=lambda item: (-item[1].weight, item[0])):
        if basis.confidence >= THRESHOLD and i not in taken_old and j not in taken_new:
            chosen[i, j] = basis
            taken_old.add(i)
            taken_new.add(j)
    return chosen


def _components(
    candidates: set[tuple[int, int]],
) -> list[tuple[list[int], list[int], set[tuple[int, int]]]]:
    """The connected groups of a bipartite candidate graph, each in index order."""
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def find(node: tuple[str, int]) -> tuple[str, int]:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for i, j in candidates:
        a, b = find(("o", i)), find(("n", j))
        if a != b:
            parent[a] = b
    grouped: dict[tuple[str, int], set[tuple[int, int]]] = defaultdict(set)
    for i, j in candidates:
        grouped[find(("o", i))].add((i, j))
    found = []
    for pairs in grouped.values():
        found.append((sorted({i for i, _ in pairs}), sorted({j for _, j in pairs}), pairs))
    return sorted(found, key=lambda group: (group[0][0], group[1][0]))
