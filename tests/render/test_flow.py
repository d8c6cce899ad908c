"""A route's progression as a flow: split at its arrows (never inside code), faithful to
the text, each step's record IDs linked, and plain text where it is no flow."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from hostile_support import make_records

from generator.pipeline import run_pipeline
from generator.render.flow import split_steps

PROGRESSIONS = [
    "current question and generator output plus prior MEM-OBJ-1 → curator model proposal → tag "
    "extractor or old-text fallback → runner state and JSONL row → later generator prompt.",
    "'`tidy` reads OBJ-1 → deterministic duplicate findings → report, or with `--apply` → retractions.",
    "caller pack(path) → copy original → return content. Caller authors the summary; software "
    "performs I/O. No supplied counterpart.",
    "Intro sentence. Then a → b -> c --> d",
    "`a -> b` → c",
]


def _fold(text: str) -> str:
    """The text with the spaces around arrows and sentence breaks folded."""
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("text", PROGRESSIONS)
def test_a_flow_keeps_every_character_of_the_progression(text: str) -> None:
    split = split_steps(text)
    assert split is not None
    lead, steps, tail = split
    # Character for character: the steps and what separates them, and the sentences
    # before and after (each written here with one space at its break).
    rebuilt = " ".join(
        part for part in (lead, "".join(step + separator for step, separator in steps), tail) if part
    )
    assert rebuilt == text
    assert all(step.strip() == step and step for step, _ in steps)
    assert steps[-1][1] == ""


def test_arrows_inside_code_spans_do_not_split() -> None:
    assert split_steps("`a -> b` → c") == ("", [("`a -> b`", " → "), ("c", "")], "")
    assert split_steps("a→b ->  c") == ("", [("a", "→"), ("b", " ->  "), ("c", "")], "")


def test_sentences_before_and_after_the_steps_are_paragraphs() -> None:
    lead, steps, tail = split_steps(PROGRESSIONS[2]) or ("", [], "")
    assert lead == ""
    assert [step for step, _ in steps] == ["caller pack(path)", "copy original", "return content."]
    assert tail == "Caller authors the summary; software performs I/O. No supplied counterpart."
    lead, steps, tail = split_steps(PROGRESSIONS[3]) or ("", [], "")
    assert (lead, steps[0], tail) == ("Intro sentence.", ("Then a", " → "), "")
    assert [separator for _, separator in steps] == [" → ", " -> ", " --> ", ""]


@pytest.mark.parametrize(
    "text",
    ["User prompt, then CMP-1, then the answer.", "a → b\n\nc → d", "→ starts with an arrow", "a → → b"],
)
def test_text_without_steps_is_no_flow(text: str) -> None:
    assert split_steps(text) is None


def test_a_route_record_shows_its_flow_with_linked_steps(tmp_path: Path) -> None:
    records = make_records(
        tmp_path,
        {
            "flow.yaml": "routes:\n  - id: RTE-3\n    label: Flow\n"
            "    progression: prompt → CMP-1 <loop> → `out -> file` → answer. Then RTE-1 resumes.\n"
        },
    )
    result = run_pipeline(records, tmp_path)
    assert result.errors == []
    page = result.pages["systems/demo/index.md"] + result.pages["systems/demo/result.md"]
    start = page.index('<div class="kb-flow-field">\n<p><strong>Endpoints/progression:</strong></p>')
    block = page[start : page.index("</div>", start)]
    assert block.count('<li class="kb-flow__step') == 4
    assert '<li class="kb-flow__step kb-flow__step--record"><span class="kb-flow__box">' in block
    assert '<a href="#cmp-1">CMP-1</a> &lt;loop&gt;' in block
    assert "<code>out -&gt; file</code>" in block
    assert '<p>Then <a href="#rte-1">RTE-1</a> resumes.</p>' in block
    shown = html.unescape(re.sub(r"<[^>]+>", "", block))
    assert _fold(shown) == _fold(
        "Endpoints/progression: prompt → CMP-1 <loop> → out -> file → answer. Then RTE-1 resumes."
    )
