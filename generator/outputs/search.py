"""Record search: one entry per record, a lunr index shared by ``kbgen search`` and the site.

``kbgen search`` builds the index with lunr (Python). The site ships each document's
counted terms in ``search/search_index.json`` (``record_index.py`` says why); the site's
search worker (``overrides/assets/javascripts/kb-search.js``) builds lunr.js's index from
them with lunr's formulas and runs the same query plan, so a query ranks the same records
in the terminal and in the browser.

Tokens are runs of letters, digits and ``_`` joined by hyphens, so an ID (``RTE-11``,
``MEM-RTE-knowledge-store``) is one token; a hyphenated word also yields its parts, so
``knowledge`` finds ``knowledge-store``. Fields: ``id`` (boost 50), ``label`` (boost 10),
``body`` (every other text of the record, boost 1).

The query plan, per query token: an exact clause (stemmed like the index) plus a
trailing-wildcard clause with a small boost (the word being typed); a token that matches
nothing retries with edit distance 1 (a typo). Every token must match (quoted phrases
too); scores add up; ties are broken by system, then record order.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, fields, replace
from html import unescape as html_unescape
from html.parser import HTMLParser
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import Any

from lunr.builder import Builder
from lunr.index import Index
from lunr.pipeline import Pipeline
from lunr.query import Query, QueryPresence
from lunr.stemmer import stemmer

from generator.graph.system_graph import SystemGraph
from generator.model.ids import anchor_of, grammar, kind_of
from generator.model.inline_markup import plain_text
from generator.model.kinds import spec_of_id
from generator.model.walk import collect
from generator.outputs.record_index import MAX_TOKEN_CHARS, FieldTerms, index_term, serialized_index
from generator.pipeline import PerGraph
from generator.render import urls
from generator.render.graph_memo import GraphMemo
from generator.render.registry import REVIEW_PAGE, SYSTEM_PAGE, active_pages, cross_pages
from generator.render.summary import published_pages
from generator.render.text import Linker
from generator.render.views import evidence_basis, system_name

# Kept in step with TOKEN in overrides/assets/javascripts/kb-search.js.
TOKEN = re.compile(r"[^\W]+(?:-[^\W]+)*")
FIELD_BOOSTS = {"id": 50, "label": 10, "body": 1}
PREFIX_BOOST = 0.1
CONTEXT_CHARS = 160
INDEX_VERSION = 2  # 2: counted terms per document; the worker builds the index
SECTION_KIND = "section"  # a prose section of a generated page
PAGE_KIND = "page"  # a section of a hand-written page; a generated page's is its type's


@dataclass(frozen=True, slots=True)
class Entry:
    """One searchable record: what a hit shows."""

    id: str
    kind: str
    label: str
    system: str
    url: str  # site-relative, with the record's anchor
    context: str  # the start of the record's text
    run: str = ""  # the run's ID when the entry is of an earlier run; "" for the current one


@dataclass(frozen=True, slots=True)
class Hit:
    entry: Entry
    score: float


def tokens(text: str) -> list[str]:
    """Query tokens: lower-cased ID-or-word runs (``RTE-11`` stays whole), each at most
    ``MAX_TOKEN_CHARS`` long (longer ones are left out)."""
    return [token.lower() for token in TOKEN.findall(text) if len(token) <= MAX_TOKEN_CHARS]


def query_tokens(query: str) -> list[str]:
    """The tokens every hit must match: a stop word the index leaves out ('and', 'the') is
    dropped, unless it is the last token, the word being typed (a prefix of longer words)."""
    found = tokens(query)
    return [token for at, token in enumerate(found) if at == len(found) - 1 or index_term(token) is not None]


def index_tokens(text: str) -> list[str]:
    """Index tokens: the query tokens plus the parts of hyphenated words (not of numbered IDs)."""
    numbered = grammar().numbered
    return [word for found in TOKEN.findall(text) for word in _token_words(found, numbered)]


def _token_words(found: str, numbered: re.Pattern[str]) -> list[str]:
    """The index words of one token as found: none when it is too long, else the token
    lower-cased and, when hyphenated and not a numbered ID, its parts."""
    if len(found) > MAX_TOKEN_CHARS:
        return []
    token = found.lower()
    if "-" not in token or numbered.match(token.upper()):
        return [token]
    return [token, *(part for part in token.split("-") if part)]


# Each token as found in text → the index terms it gives (itself and, hyphenated, its
# parts), per numbered-ID pattern (of the grammar it was read with). A KB's texts repeat a
# few thousand words; a memo is emptied when it would hold too many.
_TOKEN_TERMS: dict[re.Pattern[str], dict[str, tuple[str, ...]]] = {}
_TOKEN_TERMS_KEPT = 1 << 17


def text_terms(text: str) -> FieldTerms:
    """``FieldTerms.of(index_tokens(text))``, each distinct token read once: the words are
    looked up and counted without a Python step per word."""
    numbered = grammar().numbered
    memo = _TOKEN_TERMS.setdefault(numbered, {})
    found = TOKEN.findall(text)
    try:  # most texts hold no token not met before: the lookups need no set of the tokens
        terms = list(chain.from_iterable(map(memo.__getitem__, found)))
    except KeyError:
        missing = set(found).difference(memo)
        if len(memo) + len(missing) > _TOKEN_TERMS_KEPT:
            memo.clear()
            missing = set(found)
        for token in missing:
            memo[token] = _token_terms(token, numbered)
        terms = list(chain.from_iterable(map(memo.__getitem__, found)))
    return FieldTerms(len(terms), dict(Counter(terms)))


def _token_terms(found: str, numbered: re.Pattern[str]) -> tuple[str, ...]:
    words = _token_words(found, numbered)
    return tuple(term for term in map(index_term, map(str.lower, words)) if term is not None)


def _strings(value: Any, found: list[str]) -> list[str]:
    """Every string inside a dumped record, in field order, added to ``found``."""
    if isinstance(value, str):
        found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, found)
    elif isinstance(value, list):
        for item in value:
            _strings(item, found)
    return found


def _kind_name(record_id: str) -> str:
    spec = spec_of_id(record_id)
    return spec.singular.lower() if spec is not None else str(kind_of(record_id) or "record")


def _page_url(graph: SystemGraph, page: str, anchor: str) -> str:
    return urls.site_url(urls.page_path(page, graph.slug), anchor)


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= CONTEXT_CHARS else flat[: CONTEXT_CHARS - 1].rstrip() + "…"


def _snippet(text: str) -> str:
    """The start of a text as a reader sees it (its Markdown's text, without the markers),
    shortened: only a bounded head of the text is read."""
    return _short(plain_text(text[: CONTEXT_CHARS * 8]))


@dataclass(frozen=True, slots=True)
class Document:
    entry: Entry
    body: str
    # The label as written, indexed in the label field; a record without one shows a
    # stand-in from its body in ``entry.label``, whose words the body field indexes already.
    label: str = ""


def _earlier_run(graph: SystemGraph) -> str:
    """The run's ID when the graph is an earlier run of its system (its entries say so)."""
    run = graph.run
    return run.label if run is not None and not graph.is_current else ""


def graph_documents(graph: SystemGraph) -> list[Document]:
    """One document per record of one system (by ID), per prose section, and per supplied
    ID; each marked with its run when that is an earlier one."""
    earlier = _earlier_run(graph)
    found = _graph_documents(graph)
    if not earlier:
        return found
    return [Document(replace(doc.entry, run=earlier), doc.body, doc.label) for doc in found]


def _graph_documents(graph: SystemGraph) -> list[Document]:
    found: list[Document] = []
    for record in graph.records_in_id_order:
        record_id = record.id
        place = graph.place_of(record_id)
        assert place is not None  # every record has a home page
        dumped = record.model_dump(mode="json", exclude={"id", "label"})
        body = " ".join(_strings(dumped, []))
        url = _page_url(graph, place.page, place.anchor)
        # The record's own prose reads best; titles and snippets show its text, not its markers.
        context = _snippet(record.body or body)
        shown = plain_text(record.shown_label() or "")
        entry = Entry(record_id, _kind_name(record_id), shown, graph.slug, url, context)
        found.append(Document(entry, body, plain_text(record.label or "")))
    found.extend(section_documents(graph))
    for supplied in graph.supplied_in_id_order:
        record_id = supplied.id
        body = f"declared elsewhere: {supplied.declared_in}"
        url = _page_url(graph, SYSTEM_PAGE, anchor_of(record_id))
        label = plain_text(supplied.label or "")
        entry = Entry(record_id, _kind_name(record_id), label, graph.slug, url, _snippet(body))
        found.append(Document(entry, body, label))
    return found


def review_documents(graph: SystemGraph) -> Iterator[Document]:
    """The review page of a system's current run, one document: its title and evidence
    basis, and the titles of what it projects (its synthesis is the result page's section)."""
    if not any(spec.key == REVIEW_PAGE for spec in published_pages(graph)):
        return
    title = f"{system_name(graph)} — review"
    basis = _text_of(str(evidence_basis(graph, Linker(graph, REVIEW_PAGE, html=True))))
    body = f"Evidence basis: {basis} Bounded synthesis. Limitations."
    url = _page_url(graph, REVIEW_PAGE, "")
    kind = active_pages().spec(REVIEW_PAGE).search_kind
    yield Document(Entry("", kind, title, graph.slug, url, _short(body)), body, title)


# Each system's review document, kept while its graph is (serve indexes the reviews of
# every system on each rebuild).
_REVIEWS: GraphMemo[list[Document]] = GraphMemo()


def _review_documents(graph: SystemGraph) -> list[Document]:
    return _REVIEWS.get(graph, "review", lambda: list(review_documents(graph)))


_ANCHOR = re.compile(r"[\w-]+\Z")
_FRONTMATTER = re.compile(r"---\n.*?\n---\n", re.DOTALL)


def _heading(line: str) -> tuple[str, str] | None:
    """A heading of a generated page with the anchor the generator gives it (``## Title {
    #anchor }``): its title and anchor. Read from the line's ends, one pass over it."""
    level = len(line) - len(line.lstrip("#"))
    text = line.rstrip()
    if not 1 <= level <= 6 or line[level : level + 1] not in (" ", "\t") or not text.endswith("}"):
        return None
    brace = text.rfind("{")
    attribute = text[brace + 1 : -1].strip()
    if brace < 0 or not attribute.startswith("#") or not _ANCHOR.match(attribute[1:]):
        return None
    title = text[level:brace].strip()
    return (title, attribute[1:]) if title else None


# Per cross-system page, each section's Markdown and its text, from the page's last
# reading: ``kbgen serve`` indexes these pages on every rebuild, the status matrix grows
# with the KB, and an edit changes one system's sections of it.
_SECTION_TEXTS: dict[str, dict[str, str]] = {}


def markdown_page_documents(path: str, markdown: str, kind: str = PAGE_KIND) -> list[Document]:
    """One document per headed section of a generated page that holds no records (the
    glossary, the status matrix, the comparisons): the heading as the label, the text up to
    the next heading (tags and Markdown markers left out) as the body, linked at its anchor,
    called ``kind`` (its page type's ``search_kind``). The page's top section links to the
    page itself."""
    found: list[Document] = []
    page_url = urls.site_url(path, "")
    title, anchor, lines = "", "", list[str]()
    known = _SECTION_TEXTS.get(path, {})
    read: dict[str, str] = {}

    def close() -> None:
        if not title:
            return
        section = "\n".join(lines)
        text = known.get(section)
        if text is None:
            text = _text_of(plain_text(section))
        read[section] = text
        url = page_url if anchor == "top" else urls.site_url(path, anchor)
        found.append(Document(Entry("", kind, title, "", url, _short(text)), text, title))

    body = markdown.removeprefix(match.group(0)) if (match := _FRONTMATTER.match(markdown)) else markdown
    for line in body.splitlines():
        heading = _heading(line) if line[:1] == "#" else None  # most lines of a long page are not
        if heading is None:
            lines.append(line)
            continue
        close()
        title, anchor, lines = _text_of(plain_text(heading[0])), heading[1], []
    close()
    _SECTION_TEXTS[path] = read
    return found


def generated_page_documents(graphs: Iterable[SystemGraph], pages: Mapping[str, str]) -> list[Document]:
    """The generated pages that hold no record of their own: each system's review (systems
    in order), then the cross-system pages among ``pages`` (path → Markdown: the glossary,
    the status matrix, the comparisons), in registry order. They come after the records."""
    found = [doc for graph in sorted(graphs, key=lambda g: g.slug) for doc in _review_documents(graph)]
    for spec in cross_pages():
        path = urls.page_path(spec.key)
        if path in pages:
            found.extend(markdown_page_documents(path, pages[path], spec.search_kind))
    return found


def section_documents(graph: SystemGraph) -> Iterator[Document]:
    """One document per prose section of the system's pages (Runtime account, Bounded
    synthesis, …): its title as the label, its own text as the body. The records a section
    places are their own documents; their IDs stay words of the section."""
    for place, value in graph.prose_sections:
        texts = [text.text for text in collect(value).texts]
        body = " ".join(" ".join(text.split()) for text in texts)
        if not body:
            continue
        url = _page_url(graph, place.page, place.anchor)
        entry = Entry("", SECTION_KIND, place.title, graph.slug, url, _snippet("\n\n".join(texts)))
        yield Document(entry, body, place.title)


def documents(graphs: Iterable[SystemGraph]) -> list[Document]:
    """One document per record and per supplied ID, systems in order, records by ID."""
    return [doc for graph in sorted(graphs, key=lambda g: g.slug) for doc in graph_documents(graph)]


def _field_texts(doc: Document) -> dict[str, str]:
    """The text of each indexed field (FIELD_BOOSTS' order)."""
    return {"id": doc.entry.id, "label": doc.label, "body": doc.body}


def _fields(doc: Document) -> dict[str, list[str]]:
    """The words of each indexed field (FIELD_BOOSTS' order)."""
    return {name: index_tokens(text) for name, text in _field_texts(doc).items()}


def remembered_terms(token: Any, i: int | None = None, tokens: list[Any] | None = None) -> Any:
    """lunr's indexing pipeline (trimmer, stop-word filter, stemmer), run once per word."""
    term = index_term(str(token))
    return None if term is None else token.update(lambda _string, _metadata: term)


Pipeline.register_function(remembered_terms, "kb-remembered-terms")


def page_kinds() -> frozenset[str]:
    """What search calls a hit on a page rather than a record or a prose section: a
    hand-written page's section, and each page type's ``search_kind``."""
    return frozenset({PAGE_KIND, *(spec.search_kind for spec in active_pages().specs)})


class _TextOnly(HTMLParser):
    """The text of an HTML snippet from the theme's index, without its tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


# A start or end tag as the generator writes them: a lower- or upper-case name, attributes
# with double-quoted values holding no '<' or '>' (its escaper writes those as entities).
_PLAIN_TAG = re.compile(
    r"</?[a-zA-Z][a-zA-Z0-9-]*(?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:\s*=\s*\"[^\"<>]*\")?)*\s*/?>"
)
# Elements whose content HTMLParser reads as raw text, not as markup and entities.
_RAW_TEXT_ELEMENT = re.compile(r"<(?:script|style)\b", re.IGNORECASE)


def _text_of(html: str) -> str:
    """The text of an HTML snippet, as ``HTMLParser`` reads it: tags left out, character
    references resolved, whitespace collapsed.

    The pages' sections are the generator's own HTML (the status matrix's are a few
    megabytes at a hundred systems): where every '<' opens a plain tag, the text between
    the tags is taken with one split, each stretch's references resolved apart (as the
    parser resolves each stretch of data); anything else goes through the parser."""
    if "<" not in html:
        parts = [html_unescape(html)] if "&" in html else [html]
    else:
        pieces = _PLAIN_TAG.split(html)
        if len(pieces) - 1 != html.count("<") or _RAW_TEXT_ELEMENT.search(html):
            parts = _parsed(html)
        else:
            parts = [html_unescape(piece) if "&" in piece else piece for piece in pieces]
    return " ".join("".join(parts).split())


def _parsed(html: str) -> list[str]:
    """What ``HTMLParser`` reads as data, in time linear in the text.

    For each '<' it cannot close the parser searches the rest of the text for a '>', so a
    text ending in many '<' and no '>' (a hand-written page can hold one) took time growing
    with their count times its length: 18 s for 80 KB. No '<' after the last '>' can open
    anything, and the parser reads that tail as data, references resolved (or, inside a
    script or a style never closed, not at all): the tail is taken so here, without it."""
    last = html.rfind(">")
    head, tail = html[: last + 1], html[last + 1 :]
    if "<" not in tail:
        head, tail = html, ""
    parser = _TextOnly()
    parser.feed(head)
    parser.close()
    if tail and not parser.cdata_elem:
        parser.parts.append(html_unescape(tail))
    return parser.parts


def page_documents(theme_docs: Iterable[Any]) -> list[Document]:
    """One document per section of a hand-written page, from the theme's own index.

    The theme indexes hand-written pages only: the kb-records plugin excludes the pages it
    generates (their records are indexed one by one). A section has no ID and no system;
    its title is the label, so it ranks like a record label.
    """
    found: list[Document] = []
    for doc in theme_docs:
        if not isinstance(doc, dict) or not isinstance(doc.get("location"), str):
            continue
        location = doc["location"]
        title = _text_of(str(doc.get("title", "")))
        text = _text_of(str(doc.get("text", "")))
        entry = Entry("", PAGE_KIND, title, "", location, _short(text))
        found.append(Document(entry, text, title))
    return found


def _builder() -> Builder:
    builder = Builder()
    # Indexing only; the search pipeline (shipped with the index for lunr.js) keeps lunr's own.
    builder.pipeline.add(remembered_terms)
    builder.search_pipeline.add(stemmer)
    builder.ref("ref")
    for name, boost in FIELD_BOOSTS.items():
        builder.field(name, boost)
    return builder


@dataclass(frozen=True, slots=True)
class Scored:
    """One index's hits for a query, best first, and whether a token matched only as a typo."""

    hits: list[Hit]
    near: bool  # a token matched nothing as written: every hit is a near miss (edit distance 1)


@dataclass
class RecordIndex:
    """The lunr index and the entries its refs (positions) point to; ``earlier``: the index
    of the systems' earlier runs, searched beside it (its scores its own)."""

    index: Index
    entries: list[Entry]
    earlier: RecordIndex | None = None

    def search(
        self, query: str, system: str | None = None, kind: str | None = None, here: str = ""
    ) -> list[Hit]:
        """Hits best first (``ranked``): every query token matches; filtered by system and
        kind. ``here``: the system (``slug``, or ``slug/runs/<run>``) of the page searched from."""
        lists = [self.scored(query)]
        if self.earlier is not None:
            lists.append(self.earlier.scored(query))
        hits = ranked(query, lists, here)
        return [
            hit
            for hit in hits
            if (system is None or _of_system(hit, system)) and (kind is None or _kind_matches(hit, kind))
        ]

    def scored(self, query: str) -> Scored:
        """This index's hits, by score: scores add up over the tokens; ties by record order."""
        totals: dict[int, float] | None = None
        near = False
        for token in query_tokens(query):
            scores, typo = self._token_scores(token)
            near = near or typo
            if totals is None:
                totals = scores
            else:
                totals = {ref: totals[ref] + score for ref, score in scores.items() if ref in totals}
        ranked_refs = sorted((totals or {}).items(), key=lambda item: (-round(item[1], 6), item[0]))
        # Rounding keeps the order the same as the browser's floating-point sums.
        return Scored([Hit(self.entries[ref], score) for ref, score in ranked_refs], near)

    def _token_scores(self, token: str) -> tuple[dict[int, float], bool]:
        for edit_distance in (0, 1):
            query = self.index.create_query()
            query.term(token, use_pipeline=True, edit_distance=edit_distance, presence=QueryPresence.OPTIONAL)
            query.term(token, use_pipeline=False, wildcard=Query.WILDCARD_TRAILING, boost=PREFIX_BOOST)
            results = self.index.query(query)
            if results:
                return {int(result["ref"]): result["score"] for result in results}, edit_distance > 0
        return {}, False


def ranked(query: str, lists: list[Scored], here: str = "") -> list[Hit]:
    """The hits of the current runs' index and the earlier runs' one, merged in tiers (the
    site's worker, kb-search.js ``ranked``, merges alike):

    1. the records whose ID is the query: the page's system's (``here``) first, then the
       current runs', then the earlier runs';
    2. the other hits matched as written: a current record or page whose label is the query
       (its words, in order) first; on an earlier run's page that run's first; then the
       current runs' (and pages'), then the earlier runs';
    3. the near misses (a token matched only with one edit): current runs', then earlier runs'.

    Within a tier, each index's own order (score, then record order).
    """
    found = query_tokens(query)
    wanted = found[0] if len(found) == 1 else ""
    phrase = tokens(query)
    keyed: list[tuple[tuple[int, int, int, int], Hit]] = []
    for position, scored in enumerate(lists):
        for at, hit in enumerate(scored.hits):
            tier = _tier(hit, wanted, here, scored.near)
            if tier[0] == 1 and not hit.entry.run and phrase and tokens(hit.entry.label or "") == phrase:
                tier = (1, -1)  # the label is the query: 'memory comparison' is that page
            keyed.append(((*tier, position, at), hit))
    keyed.sort(key=lambda item: item[0])
    return [hit for _, hit in keyed]


def _tier(hit: Hit, wanted: str, here: str, near: bool) -> tuple[int, int]:
    entry = hit.entry
    home = bool(here) and entry.system == here
    run = 1 if entry.run else 0
    if wanted and entry.id and entry.id.lower() == wanted:
        return (0, 0 if home else 1 + run)
    if near:
        return (2, run)
    # Only an earlier run's page puts its run's words first: on a current page the systems
    # rank by score together, as they always have.
    return (1, 0 if home and entry.run else 1 + run)


def _kind_matches(hit: Hit, kind: str) -> bool:
    """``--kind`` takes a kind code (``RTE``) or a kind's name (``route``)."""
    spec = spec_of_id(hit.entry.id)
    return hit.entry.kind == kind.lower() or (spec is not None and spec.code == kind.upper())


def build_index(
    graphs: Iterable[SystemGraph], pages: Iterable[Document] = (), earlier_runs: Iterable[SystemGraph] = ()
) -> RecordIndex:
    """The lunr index of every record of the linked systems' current runs, then of the
    ``pages`` given; beside it, the index of the ``earlier_runs`` (their scores their own,
    so the current runs rank as they would alone).

    Pages come after records, so on equal scores a record ranks first.
    """
    index = _index_of([*documents(graphs), *pages])
    earlier = list(earlier_runs)
    if earlier:
        index.earlier = _index_of(documents(earlier))
    return index


def _index_of(docs: list[Document]) -> RecordIndex:
    builder = _builder()
    for ref, doc in enumerate(docs):
        builder.add({"ref": str(ref), **_fields(doc)})
    return RecordIndex(builder.build(), [doc.entry for doc in docs])


def _of_system(hit: Hit, system: str) -> bool:
    """A hit of the system: of its current run (``slug``) or an earlier one (``slug/runs/…``)."""
    return hit.entry.system == system or hit.entry.system.startswith(f"{system}/runs/")


def load_index(records: Path) -> RecordIndex | None:
    """Check and link a records folder and index it as the site does: each system's current
    run and the cross-system pages (rendered: they are cheap), beside the earlier runs;
    None when it has errors. The pages of each run are not rendered."""
    # Imported here: the pipeline imports the renderer, which a plain search never needs.
    from generator.pipeline import link_records
    from generator.render.cross import render_cross_system

    linked = link_records(records)
    if not linked.systems or linked.errors:
        return None
    pages = generated_page_documents(linked.graphs, render_cross_system(linked.graphs))
    return build_index(linked.graphs, pages, linked.earlier_runs)


SITE_INDEX = "search/search_index.json"
# The earlier runs' records, an index of their own: the worker fetches it with the site's.
EARLIER_RUNS_INDEX = "search/kb-earlier-runs.json"


@dataclass(frozen=True)
class GraphParts:
    """One system's part of the site's record index, as JSON array items (no brackets) in
    UTF-8: its entry rows, and each document's counted terms per field. Bytes, so that the
    index file (megabytes at a hundred systems) is joined and written without re-encoding."""

    rows: bytes
    documents: bytes


_ENTRY_FIELDS = attrgetter(*(field.name for field in fields(Entry)))


def _entry_row(entry: Entry) -> list[Any]:
    return list(_ENTRY_FIELDS(entry))


def _items(values: list[Any]) -> str:
    """JSON array items, written as the whole index file is written."""
    return json.dumps(values, ensure_ascii=False, separators=(",", ":"))[1:-1]


def _document_terms(doc: Document) -> list[Any]:
    return [text_terms(text).as_row() for text in _field_texts(doc).values()]


def _graph_parts(graph: SystemGraph) -> GraphParts:
    return _KNOWN_ITEMS.parts((graph.slug, _earlier_run(graph)), graph_documents(graph))


def _page_parts(docs: list[Document]) -> GraphParts:
    return _KNOWN_ITEMS.parts(("", "pages"), docs)


class _KnownItems:
    """Documents as index items, each group's (a system's run, the pages) as last counted.

    ``kbgen serve`` writes the index on every rebuild: an edit to a record changes one
    system's part and one of its documents, and the pages' documents (reviews, cross-system
    pages, hand-written sections) rarely. Keyed by the document itself, so a changed one is
    counted anew; a group keeps only what its latest counting had."""

    def __init__(self) -> None:
        self._groups: dict[tuple[str, str], dict[Document, tuple[str, str]]] = {}

    def parts(self, group: tuple[str, str], docs: list[Document]) -> GraphParts:
        known, items = self._groups.get(group, {}), dict[Document, tuple[str, str]]()
        for doc in docs:
            found = known.get(doc)
            if found is None:
                found = (_items([_entry_row(doc.entry)]), _items([_document_terms(doc)]))
            items[doc] = found
        self._groups[group] = items
        return GraphParts(
            rows=",".join(items[doc][0] for doc in docs).encode(),
            documents=",".join(items[doc][1] for doc in docs).encode(),
        )


_KNOWN_ITEMS = _KnownItems()


def site_index_memo() -> PerGraph[GraphParts]:
    """``kbgen serve``: each system's part of the index, kept while its graph is."""
    return PerGraph(_graph_parts)


def site_index_text(
    graphs: Iterable[SystemGraph],
    memo: PerGraph[GraphParts] | None = None,
    pages: Iterable[Document] = (),
    earlier: str = "",
) -> str:
    """The record index the site ships (JSON): the fields and their boosts, each document's
    entry row and counted terms, records by system then ID, then the pages given; with
    ``earlier``, the name of the earlier runs' index beside it (below ``search/``).

    Assembled from each system's part, so ``kbgen serve`` writes an unchanged system's part
    as it was: the text is what ``json.dumps`` writes of ``site_index_data``.
    """
    return b"".join(_site_index_pieces(graphs, memo, pages, earlier)).decode()


def _site_index_pieces(
    graphs: Iterable[SystemGraph],
    memo: PerGraph[GraphParts] | None = None,
    pages: Iterable[Document] = (),
    earlier: str = "",
) -> list[bytes]:
    """``site_index_text`` in UTF-8, as pieces to be written one after the other."""
    ordered = sorted(graphs, key=lambda g: g.slug)
    parts = memo.values(ordered) if memo is not None else [_graph_parts(graph) for graph in ordered]
    parts = [*parts, _page_parts(list(pages))]
    rows = b",".join(part.rows for part in parts if part.rows)
    docs = b",".join(part.documents for part in parts if part.documents)
    fields = _items([list(FIELD_BOOSTS)])
    boosts = _items([list(FIELD_BOOSTS.values())])
    beside = f'"earlier":{json.dumps(earlier)},' if earlier else ""
    return [
        f'{{"boosts":{boosts},"documents":['.encode(),
        docs,
        f'],{beside}"entries":['.encode(),
        rows,
        f'],"fields":{fields},"version":{INDEX_VERSION}}}'.encode(),
    ]


def site_index_data(
    graphs: Iterable[SystemGraph], pages: Iterable[Document] = (), earlier: str = ""
) -> dict[str, Any]:
    """What ``site_index_text`` writes, as data: ``json.dumps(..., sort_keys=True)`` of it is that text."""
    docs = [*documents(graphs), *pages]
    return {
        "boosts": list(FIELD_BOOSTS.values()),
        "documents": [_document_terms(doc) for doc in docs],
        **({"earlier": earlier} if earlier else {}),
        "entries": [_entry_row(doc.entry) for doc in docs],
        "fields": list(FIELD_BOOSTS),
        "version": INDEX_VERSION,
    }


def index_of_site_data(data: dict[str, Any], earlier: dict[str, Any] | None = None) -> RecordIndex:
    """The lunr index the site's worker builds from the shipped data, built in Python;
    ``earlier``: the data of the earlier runs' index, searched beside it."""
    boosts = dict(zip(data["fields"], data["boosts"], strict=True))
    terms = [[FieldTerms.from_row(row) for row in document] for document in data["documents"]]
    index = RecordIndex(Index.load(serialized_index(terms, boosts)), [Entry(*row) for row in data["entries"]])
    if earlier is not None:
        index.earlier = index_of_site_data(earlier)
    return index


# Stands for the record index while the theme's index is written around it: JSON writes
# it as "\u0000kb-record-index\u0000", which no text of the theme's index holds.
_PLACEHOLDER = "\0kb-record-index\0"


def write_site_index(
    site_dir: Path,
    graphs: Iterable[SystemGraph],
    memo: PerGraph[GraphParts] | None = None,
    earlier_runs: Iterable[SystemGraph] = (),
    generated: Mapping[str, str] | None = None,
) -> int | None:
    """Put the record index into the search plugin's index file; returns its size in bytes.

    After the records come the reviews and the cross-system pages among the ``generated``
    pages (path → Markdown: the glossary, the status matrix, the comparisons;
    ``generated_page_documents``), then mkdocs-material's page documents (the sections of
    hand-written pages; generated pages are excluded from them).
    The index goes under ``config.kb``: the theme passes only ``config`` and ``docs`` on
    to the worker. None when search is not enabled.

    With ``earlier_runs``, their index (``EARLIER_RUNS_INDEX``) is written beside it, and
    the site's index names it: the worker fetches both. The current runs' scores stay
    untouched by the earlier runs' words.
    """
    path = site_dir / SITE_INDEX
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("config"), dict):
        return None  # not mkdocs-material's index: leave it alone
    graphs = list(graphs)
    pages = [*generated_page_documents(graphs, generated or {}), *page_documents(data.get("docs") or [])]
    data["docs"] = []
    data["config"]["kb"] = _PLACEHOLDER
    around = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    placeholder = json.dumps(_PLACEHOLDER)
    if around.count(placeholder) != 1:
        raise ValueError(f"{SITE_INDEX}: the theme's index holds the record index's placeholder")
    earlier = list(earlier_runs)
    beside = EARLIER_RUNS_INDEX.rpartition("/")[2] if earlier else ""
    before, after = around.split(placeholder)
    pieces = [before.encode(), *_site_index_pieces(graphs, memo, pages, beside), after.encode()]
    with path.open("wb") as index_file:
        index_file.writelines(pieces)
    if earlier:
        with (site_dir / EARLIER_RUNS_INDEX).open("wb") as earlier_file:
            earlier_file.writelines(_site_index_pieces(earlier))
    return sum(len(piece) for piece in pieces)


def hits_as_json(query: str, hits: list[Hit]) -> str:
    """``kbgen search --json``: the query and its hits, best first (documented in the README)."""
    rows = [{**asdict(hit.entry), "score": round(hit.score, 4)} for hit in hits]
    return json.dumps({"query": query, "hits": rows}, ensure_ascii=False, indent=2) + "\n"


def _printable(text: str) -> str:
    """Record text for a terminal: control characters shown escaped, never sent."""
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in text)


def hits_as_lines(hits: list[Hit]) -> list[str]:
    """Two lines per hit: ID, kind, label, system and URL; then the context, indented."""
    lines: list[str] = []
    for hit in hits:
        entry = hit.entry
        earlier = f"earlier run {entry.run}" if entry.run else ""
        where = ", ".join(part for part in (entry.kind, entry.system, earlier) if part)
        if entry.id:
            label = f" — {entry.label}" if entry.label else ""
            head = f"{entry.id} ({where}){label}"
        else:  # a section of a page: its title leads
            head = f"{entry.label} ({where})"
        lines.append(_printable(f"{head}  {entry.url}"))
        lines.append(_printable(f"    {entry.context}"))
    return lines
