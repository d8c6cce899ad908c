"""Compare the ``<article>`` of every page of two built sites as a normalized DOM.

    python3 benchmarks/compare_sites.py BEFORE_SITE AFTER_SITE [--show N]

Each page's article is parsed with the standard library's ``html.parser`` into a tree of
(tag, sorted attributes, children). Whitespace-only text next to a block element or at the
edge of a block is dropped, other whitespace runs become one space (inside ``pre`` text is
kept as it is), entities are decoded, attribute order is ignored. Prints the first
differences of each page (and pages present on one side only) and exits 1 on any.
"""

from __future__ import annotations

import argparse
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

Node = tuple[str, tuple[tuple[str, str], ...], list["Node | str"]]

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
BLOCK = {
    "address", "article", "aside", "blockquote", "details", "div", "dl", "dd", "dt", "figcaption",
    "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main",
    "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead",
    "tr", "ul", "br",
}  # fmt: skip
_SPACE = re.compile(r"\s+")


class _TreeBuilder(HTMLParser):
    """The first ``<article>`` of a page as nested (tag, attrs, children) tuples."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root: Node | None = None
        self.stack: list[Node] = []
        self.done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done or (not self.stack and tag != "article"):
            return
        node: Node = (tag, tuple(sorted((k, v or "") for k, v in attrs)), [])
        if self.stack:
            self.stack[-1][2].append(node)
        else:
            self.root = node
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if self.done or not self.stack:
            return
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                break
        if not self.stack:
            self.done = True

    def handle_data(self, data: str) -> None:
        if self.stack and not self.done:
            children = self.stack[-1][2]
            if children and isinstance(children[-1], str):
                children[-1] += data
            else:
                children.append(data)


def _is_block(child: Node | str) -> bool:
    return not isinstance(child, str) and child[0] in BLOCK


def normalize(node: Node, in_pre: bool = False) -> Node:
    """The node with whitespace normalized as a browser would lay it out."""
    tag, attrs, children = node
    in_pre = in_pre or tag == "pre"
    out: list[Node | str] = []
    for index, child in enumerate(children):
        if not isinstance(child, str):
            out.append(normalize(child, in_pre))
            continue
        if in_pre:
            out.append(child)
            continue
        text = _SPACE.sub(" ", child)
        before = children[index - 1] if index > 0 else None
        after = children[index + 1] if index + 1 < len(children) else None
        if before is None or _is_block(before):
            text = text.lstrip()
        if after is None or _is_block(after):
            text = text.rstrip()
        if text:
            out.append(text)
    return (tag, attrs, out)


def article(path: Path) -> Node | None:
    builder = _TreeBuilder()
    builder.feed(path.read_text(encoding="utf-8"))
    builder.close()
    return normalize(builder.root) if builder.root is not None else None


def differences(before: Node | str, after: Node | str, where: str = "article") -> list[str]:
    """Where two normalized trees differ, depth first, as readable lines."""
    if isinstance(before, str) or isinstance(after, str):
        return [] if before == after else [f"{where}: {_show(before)} ≠ {_show(after)}"]
    if before[0] != after[0] or before[1] != after[1]:
        return [f"{where}: {_show(before)} ≠ {_show(after)}"]
    found: list[str] = []
    for index, (left, right) in enumerate(zip(before[2], after[2], strict=False)):
        label = left if isinstance(left, str) else left[0]
        found += differences(
            left,
            right,
            f"{where}/{index}:{label if not isinstance(label, str) or len(label) < 20 else 'text'}",
        )
    if len(before[2]) != len(after[2]):
        extra = before[2][len(after[2]) :] or after[2][len(before[2]) :]
        found.append(f"{where}: {len(before[2])} ≠ {len(after[2])} children; first extra {_show(extra[0])}")
    return found


def _show(node: Node | str) -> str:
    if isinstance(node, str):
        return repr(node[:120])
    attrs = " ".join(f'{k}="{v}"' for k, v in node[1])
    return f"<{node[0]}{' ' + attrs if attrs else ''}>"[:160]


def compare(before_site: Path, after_site: Path, show: int) -> int:
    """Print the differences page by page; the number of pages that differ."""
    pages = sorted(
        {p.relative_to(before_site) for p in before_site.rglob("*.html")}
        | {p.relative_to(after_site) for p in after_site.rglob("*.html")}
    )
    differing = compared = 0
    for page in pages:
        left, right = before_site / page, after_site / page
        if not left.is_file() or not right.is_file():
            print(f"{page}: only in {'AFTER' if right.is_file() else 'BEFORE'}")
            differing += 1
            continue
        old, new = article(left), article(right)
        if old is None and new is None:
            continue
        compared += 1
        found = ["article missing on one side"] if old is None or new is None else differences(old, new)
        if found:
            differing += 1
            print(f"{page}: {len(found)} difference(s)")
            for line in found[:show]:
                print(f"  {line}")
    print(f"{compared} articles compared, {differing} page(s) differ")
    return differing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--show", type=int, default=5, help="differences printed per page")
    args = parser.parse_args()
    return 1 if compare(args.before, args.after, args.show) else 0


if __name__ == "__main__":
    sys.exit(main())
