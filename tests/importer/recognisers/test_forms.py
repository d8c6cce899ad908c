"""``forms.py`` and ``form_registry.py``: the surface forms as a registry, tried in
precedence order, the first answer taken."""

from __future__ import annotations

from typing import Any

import pytest

from generator.importer.form_registry import FORMS, active_forms, using_forms
from generator.importer.forms import FormRegistry, FormSpec, FormState
from generator.importer.markdown_blocks import Block


def _block(kind: str = "paragraph", text: str = "CMP-1 — Label.") -> Block:
    return Block(kind, 1, 1, [text])


def _answer(value: list[Any] | None, asked: list[str], name: str) -> Any:
    def read(block: Block, state: FormState) -> list[Any] | None:
        asked.append(name)
        return value

    return read


def _form(name: str, precedence: int, read: Any, kind: str = "paragraph") -> FormSpec:
    return FormSpec(name, "prose", frozenset({kind}), precedence, read)


# ---------------------------------------------------------------- a registry of one's own


def test_forms_are_tried_in_precedence_order_and_the_first_answer_is_taken() -> None:
    asked: list[str] = []
    registry = FormRegistry(
        (
            _form("late", 30, _answer(["late"], asked, "late")),
            _form("refuses", 10, _answer(None, asked, "refuses")),
            _form("answers", 20, _answer(["first"], asked, "answers")),
        )
    )
    assert registry.read("prose", _block(), FormState(walker=None)) == ["first"]
    assert asked == ["refuses", "answers"]


def test_an_empty_answer_is_an_answer() -> None:
    asked: list[str] = []
    registry = FormRegistry(
        (_form("a", 1, _answer([], asked, "a")), _form("b", 2, _answer(["b"], asked, "b")))
    )
    assert registry.read("prose", _block(), FormState(walker=None)) == []
    assert asked == ["a"]


def test_equal_precedence_is_ordered_by_name() -> None:
    registry = FormRegistry((_form("b", 1, _answer(None, [], "b")), _form("a", 1, _answer(None, [], "a"))))
    assert [form.name for form in registry.for_block("prose", "paragraph")] == ["a", "b"]


@pytest.mark.parametrize(
    ("context", "kind"),
    [
        pytest.param("prose", "table", id="other-block-kind"),
        pytest.param("kind-section", "paragraph", id="other-context"),
    ],
)
def test_a_block_no_form_reads_gets_no_answer(context: Any, kind: str) -> None:
    registry = FormRegistry((_form("a", 1, _answer(["a"], [], "a")),))
    assert registry.for_block(context, kind) == ()
    assert registry.read(context, _block(kind), FormState(walker=None)) is None


def test_a_form_declared_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice: a"):
        FormRegistry((_form("a", 1, _answer(None, [], "a")), _form("a", 2, _answer(None, [], "a"))))


def test_with_forms_makes_a_new_registry() -> None:
    one = FormRegistry((_form("a", 1, _answer(None, [], "a")),))
    two = one.with_forms(_form("b", 0, _answer(["b"], [], "b")))
    assert [f.name for f in one.forms] == ["a"]
    assert [f.name for f in two.for_block("prose", "paragraph")] == ["b", "a"]


def test_using_forms_puts_a_registry_in_force_for_the_block_only() -> None:
    mine = FORMS.with_forms(_form("mine", 1, _answer(None, [], "mine")))
    assert active_forms() is FORMS
    with using_forms(mine):
        assert active_forms() is mine
    assert active_forms() is FORMS


# ---------------------------------------------------------------- the built-in forms


class _Walker:
    """A walker that answers nothing and notes what it was asked, in order."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __getattr__(self, name: str) -> Any:
        def read(block: Block, state: FormState) -> None:
            self.asked.append(name)

        return read


# The precedence form_registry.py's docstring states (a fixed expectation, so a change of
# order is a visible change): in a record kind's section, a quotation or a continuation
# after a paragraph declaration before anything else; a declaring paragraph last.
@pytest.mark.parametrize(
    ("context", "kind", "order"),
    [
        pytest.param("kind-section", "quote", ["quotation-after-record"], id="kind-quote"),
        pytest.param(
            "kind-section",
            "paragraph",
            [
                "record-follow-up",
                "record-continuation",
                "record-body",
                "source-paragraph",
                "paragraph-declaration",
            ],
            id="kind-paragraph",
        ),
        pytest.param("kind-section", "list", ["record-body", "list-declarations"], id="kind-list"),
        pytest.param("kind-section", "table", ["register-rows"], id="kind-table"),
        pytest.param("kind-section", "fence", [], id="kind-fence"),
        pytest.param("prose", "table", ["table"], id="prose-table"),
        pytest.param("prose", "list", ["list"], id="prose-list"),
        pytest.param("prose", "quote", ["quotation"], id="prose-quote"),
        pytest.param("prose", "fence", ["verbatim"], id="prose-fence"),
        pytest.param("prose", "html", ["verbatim"], id="prose-html"),
        pytest.param(
            "prose", "paragraph", ["source-register-paragraph", "typed-amendment"], id="prose-paragraph"
        ),
        pytest.param("prose", "heading", [], id="prose-heading"),
    ],
)
def test_the_built_in_precedence(context: Any, kind: str, order: list[str]) -> None:
    assert [form.name for form in FORMS.for_block(context, kind)] == order


@pytest.mark.parametrize(
    ("context", "kind", "asked"),
    [
        pytest.param(
            "kind-section",
            "paragraph",
            ["follow_up", "record_continuation", "record_body", "paragraph_declaration"],
            id="kind-paragraph",
        ),
        pytest.param("prose", "fence", ["verbatim"], id="prose-fence"),
    ],
)
def test_a_built_in_form_asks_the_walker_and_a_block_no_form_reads_stays_prose(
    context: Any, kind: str, asked: list[str]
) -> None:
    walker = _Walker()
    assert FORMS.read(context, _block(kind), FormState(walker=walker)) is None
    assert walker.asked == asked


def test_every_built_in_form_says_what_it_reads() -> None:
    assert all(form.description for form in FORMS.forms)
