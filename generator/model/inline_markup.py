"""Record text's inline Markdown: strong, emphasis, code spans and links, read by markdown-it-py.

Record text and labels may hold four inline constructs and nothing else: ``**strong**``,
``*emphasis*``, code spans and links ``[text](target)``; a backslash before punctuation
writes it as text (``\\*`` is a star, and a backslash that ends a line is dropped). Raw
HTML, autolinks, entities, reference links and images are off: ``<b>`` and an image
``![x](y)`` stay text as written. Underscores are text too: record text is full of
identifiers and paths (``__init__``, ``memory_summary``), so ``_x_`` is no emphasis. What
a link's target may be is the renderer's question (``generator.render.text``); the parser
accepts every target, so that none is left as bracket text.

Every link destination of a text is found in one pass before it is parsed
(``generator.model.link_tails``), and the parser's link and image rules ask for it
instead of scanning from each ``](``; a text where no link can close is read without
the link rules, its brackets text. So a flood of ``![a](`` costs about what words do.

A caller may protect spans of the text (evidence anchors and record IDs, found on the
whole text first): each is one ``kb_span`` token whose ``meta["index"]`` names it, so no
emphasis or link marker inside a path (``src/__init__.py``) is read as markup. Parsing is
linear in the text (markdown-it-py bounds its delimiter and bracket scans).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any, NamedTuple

from markdown_it import MarkdownIt, helpers
from markdown_it.common.utils import unescapeAll
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.emphasis import tokenize as _emphasis_rule
from markdown_it.rules_inline.image import image as _image_rule
from markdown_it.token import Token

from generator.model.link_tails import Destinations

__all__ = ["ACTIVE", "has_markup", "normalized", "parse_inline", "plain_text"]

# The characters that can start markup besides a link's '['; text without any of them,
# and without a link's tail, is one text token.
ACTIVE = frozenset("*`\\")
# One search for any of them, which stops at the first (a set intersection reads the whole
# text into a set, and every record text is asked).
_ACTIVE_CHARACTER = re.compile("[" + "".join(re.escape(character) for character in sorted(ACTIVE)) + "]")


def has_markup(text: str) -> bool:
    """Whether the text holds a character that can start markup (``ACTIVE``) or a link."""
    return _ACTIVE_CHARACTER.search(text) is not None or _may_link(text)


def _may_link(text: str) -> bool:
    return "](" in text and Destinations.of(text).may_link


# The destinations of the text being parsed, for the link and image rules (a context
# variable: the language server parses in worker threads).
_DESTINATIONS: ContextVar[Destinations | None] = ContextVar("kb_link_destinations", default=None)


def _destination(string: str, pos: int, maximum: int) -> Any:
    """``parseLinkDestination``, answered from the text's ``Destinations`` where they know
    the start (the whole text is the limit), else scanned by markdown-it-py."""
    found = _DESTINATIONS.get()
    if found is None or found.text is not string or maximum != len(string) or pos not in found.ends:
        return helpers.parseLinkDestination(string, pos, maximum)
    end = found.ends[pos]
    if end is None:
        return _Destination(False, pos, "")
    return _Destination(True, end, unescapeAll(string[pos:end]))


class _Destination(NamedTuple):
    """What the link and image rules read of a destination: found, its end, its text."""

    ok: bool
    pos: int
    str: str


_SPANS = "kb_spans"  # the env key of the protected spans: (starts, ends)


def _protected(state: StateInline, silent: bool) -> bool:
    """A protected span starting here becomes one token (if it ends inside this run)."""
    starts, ends = state.env.get(_SPANS, ((), ()))
    index = bisect.bisect_left(starts, state.pos)
    if index == len(starts) or starts[index] != state.pos or ends[index] > state.posMax:
        return False
    if not silent:
        token = state.push("kb_span", "", 0)
        token.meta = {"index": index}
    state.pos = ends[index]
    return True


# Where a text token ends: at a character an enabled rule starts at (a link's label also
# ends at ']'). markdown-it's own list holds every character any of its rules may start
# at; stopping at each of those ('!', '&', '-', …) and trying every rule there made
# punctuation cost tens of times what letters do.
_TERMINATORS = {True: re.compile(r"[*`\\\[\]!]"), False: re.compile(r"[*`\\]")}


def _text_rule(terminators: re.Pattern[str]) -> Any:
    def text(state: StateInline, silent: bool) -> bool:
        """markdown-it's text rule, which stops only where an enabled rule may start, and
        where a protected span starts."""
        pos = state.pos
        terminator = terminators.search(state.src, pos)
        end = terminator.start() if terminator else state.posMax
        starts: Sequence[int] = state.env.get(_SPANS, ((), ()))[0]
        after = bisect.bisect_right(starts, pos)
        if after < len(starts) and starts[after] < end:
            end = starts[after]
        end = min(end, state.posMax)
        if end <= pos:
            return False
        if not silent:
            state.append_pending(state.src[pos:end])
        state.pos = end
        return True

    return text


def _star_emphasis(state: StateInline, silent: bool) -> bool:
    """Emphasis with asterisks only: an underscore is text."""
    return state.src[state.pos] == "*" and _emphasis_rule(state, silent)


def _literal_image(state: StateInline, silent: bool) -> bool:
    """An image is text as written: no image is fetched, and its brackets are no link."""
    start = state.pos
    if not _image_rule(state, True):
        return False
    if not silent:
        state.append_pending(state.src[start : state.pos])
    return True


def _parser(links: bool) -> MarkdownIt:
    parser = MarkdownIt("zero", {"html": False, "linkify": False, "typographer": False})
    parser.enable(
        ["escape", "emphasis", "backticks", "link", "image"] if links else ["escape", "emphasis", "backticks"]
    )
    parser.inline.ruler.at("text", _text_rule(_TERMINATORS[links]))
    parser.inline.ruler.before("text", "kb_span", _protected)
    if links:
        parser.inline.ruler.at("image", _literal_image)
    parser.inline.ruler.at("emphasis", _star_emphasis)
    # Every target is a link token; the renderer decides what each becomes (never the
    # parser's own scheme list, which would leave '[x](javascript:…)' as bracket text).
    parser.validateLink = lambda url: True  # type: ignore[method-assign]
    parser.normalizeLink = lambda url: url  # type: ignore[method-assign]
    parser.normalizeLinkText = lambda link: link  # type: ignore[method-assign]
    parser.helpers = SimpleNamespace(  # type: ignore[assignment]
        parseLinkLabel=helpers.parseLinkLabel,
        parseLinkTitle=helpers.parseLinkTitle,
        parseLinkDestination=_destination,
    )
    return parser


# A text where no "](" has a tail that could end a link holds no link and no image: its
# brackets are text, and the parser without the link rules does not scan ahead from each
# of them for a label's end.
_PARSER, _PARSER_WITHOUT_LINKS = _parser(links=True), _parser(links=False)


def normalized(text: str) -> str:
    """The text as the parser sees it (its positions are this text's): line breaks are LF
    and NUL is U+FFFD, as markdown-it-py's own normalisation makes them."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "\ufffd")


def parse_inline(text: str, spans: Sequence[tuple[int, int]] = ()) -> list[Token]:
    """The inline tokens of one paragraph of ``normalized`` text, flat: ``text``,
    ``code_inline``, ``kb_span``, and ``strong``/``em``/``link`` ``_open``/``_close``
    pairs (a link's target is its ``href`` attribute, as written). ``spans`` are disjoint
    (start, end) positions, sorted."""
    destinations = Destinations.of(text) if "](" in text else None
    links = destinations is not None and destinations.may_link
    if not links and _ACTIVE_CHARACTER.search(text) is None:
        return _without_markup(text, spans)
    env: dict[str, Any] = {_SPANS: ([start for start, _ in spans], [end for _, end in spans])}
    if not links:
        tokens = _PARSER_WITHOUT_LINKS.parseInline(text, env)
    else:
        token = _DESTINATIONS.set(destinations)
        try:
            tokens = _PARSER.parseInline(text, env)
        finally:
            _DESTINATIONS.reset(token)
    return list(tokens[0].children or []) if tokens else []


def _without_markup(text: str, spans: Sequence[tuple[int, int]]) -> list[Token]:
    """The tokens of text with no marker in it, made without the parser."""
    tokens: list[Token] = []
    position = 0
    for index, (start, end) in enumerate(spans):
        if start > position:
            tokens.append(_token("text", text[position:start]))
        span = Token("kb_span", "", 0)
        span.meta = {"index": index}
        tokens.append(span)
        position = end
    if position < len(text):
        tokens.append(_token("text", text[position:]))
    return tokens


def _token(kind: str, content: str) -> Token:
    token = Token(kind, "", 0)
    token.content = content
    return token


def plain_text(text: str) -> str:
    """The text without its markers: what a reader sees, for titles, search and contents.
    A link is its text; a code span its content."""
    if not has_markup(text):
        return text
    return "".join(
        "\n" if token.type == "hardbreak" else token.content
        for token in parse_inline(normalized(text))
        if token.type in ("text", "code_inline", "hardbreak")
    )
