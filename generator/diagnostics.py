"""One diagnostic type for every stage: a rule code, a severity, a location and a hint.

Rules are a closed registry so each code can be documented and named in tests; a
stage yields diagnostics and never exits, the command decides the exit code.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    summary: str

    @property
    def docs(self) -> str:
        """Where the rule is documented: its entry in the rules catalogue (a stable anchor)."""
        return f"{RULES_DOC}#{self.code.lower()}"


# The rules catalogue, relative to the project (docs/rules.md has an anchor per code).
RULES_DOC = "docs/rules.md"

RULES: dict[str, Rule] = {
    rule.code: rule
    for rule in (
        Rule("KB001", "yaml-syntax", "The file is not well-formed YAML."),
        Rule("KB002", "duplicate-key", "A mapping repeats a key."),
        Rule("KB003", "alias-refused", "YAML anchors, aliases and merge keys are not allowed in records."),
        Rule("KB004", "unsafe-tag", "Only plain YAML values are allowed: no custom or language tags."),
        Rule("KB005", "file-too-large", "A record file exceeds the size limit."),
        Rule("KB006", "not-a-mapping", "A record file must be a single YAML mapping."),
        Rule("KB007", "unreadable-file", "A record file cannot be read as UTF-8 text."),
        Rule("KB008", "not-a-regular-file", "A symlink, FIFO, device or socket is refused, never read."),
        Rule("KB009", "path-outside-system", "A file may lie outside the system folder (hard link, loop)."),
        Rule("KB010", "ignored-name", "A file or folder is not read: hidden name or not a record type."),
        Rule("KB011", "nesting-too-deep", "YAML values or folders nest deeper than the limit."),
        Rule("KB012", "control-character", "A file holds a NUL or another control character."),
        Rule(
            "KB013",
            "line-separator",
            "A record file holds NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR (YAML breaks lines there).",
        ),
        Rule("KB101", "schema-type", "A value has the wrong type or shape."),
        Rule("KB102", "missing-field", "A required field is missing."),
        Rule("KB103", "unknown-key", "A key is not part of the record model."),
        Rule("KB104", "controlled-value", "A value is not in its controlled vocabulary."),
        Rule("KB105", "id-grammar", "An ID follows neither the numbered nor the prefixed grammar."),
        Rule("KB106", "run-id-grammar", "A run ID is not of the form AAS-YYYY-MM-DD-<slug>-NN."),
        Rule("KB107", "empty-text", "A text field is empty."),
        Rule("KB108", "table-row-width", "A generic table row has more or fewer cells than columns."),
        Rule("KB109", "label-line", "A label, title, name or revision spans more than one line."),
        Rule("KB110", "quote-pin", "A quotation's pin is not a full commit ID or a sha256: digest."),
        Rule(
            "KB111", "anchor-locator", "A document locator is not a section, appendix, table, figure or page."
        ),
        Rule("KB112", "literal-markup", "Markdown markup in record text will show literally (warning)."),
        Rule("KB201", "dangling-reference", "A structured field refers to an ID nobody declares."),
        Rule("KB202", "dangling-reference-in-prose", "An ID written in prose resolves to nothing."),
        Rule("KB203", "duplicate-id", "Two records of one system share an ID."),
        Rule("KB204", "part-of-target", "part_of names itself, a missing record or a cycle."),
        Rule("KB205", "id-range", "A range such as RTE-21–RTE-29 hides the IDs it spans; list each ID."),
        Rule("KB206", "record-placement", "A placement names a record of another kind, or places one twice."),
        Rule(
            "KB207",
            "duplicate-singleton",
            "A run, document, profile or analysis set is declared twice.",
        ),
        Rule("KB208", "kind-mismatch", "A record's ID names another kind than the list it is in."),
        Rule("KB209", "annotation-target", "An annotation must target a supplied record."),
        Rule(
            "KB210",
            "alternative-route",
            "alternative_to names the route itself or a record that is not a route.",
        ),
        Rule(
            "KB211",
            "section-anchor",
            "A section title would take the anchor of a record, an annotation or the theme.",
        ),
        Rule("KB301", "complete-result-null", "A complete result leaves a boundary field null."),
        Rule("KB302", "run-id-date", "The run ID's date differs from the run date."),
        Rule("KB303", "run-id-slug", "The run ID's system slug differs from the folder name."),
        Rule("KB304", "route-fields", "A route with labelled fields lacks one of the seven."),
        Rule("KB305", "missing-run", "A system folder declares no run."),
        Rule("KB306", "system-slug", "A system folder name is not a slug (lower-case words joined by '-')."),
        Rule("KB307", "reserved-slug", "A system folder name is reserved for a page or folder of the site."),
        Rule("KB308", "run-folder", "A run folder's name is not its run's ID, or runs/ holds a file."),
        Rule(
            "KB309",
            "run-history",
            "Two runs of a system share a run ID, or more than one says it is current.",
        ),
        Rule("KB401", "anchor-source", "An evidence anchor cites a source the system does not declare."),
        Rule("KB402", "anchor-path", "An evidence anchor's path is not a safe relative path."),
        Rule("KB403", "anchor-range", "An evidence anchor's line range is not sane."),
        Rule("KB404", "quote-path", "A quotation is not attributed to a file path."),
        Rule("KB405", "include-missing", "A prose include names a Markdown file that is not in the folder."),
        Rule("KB406", "unsafe-url", "A location is not an http or https URL."),
        Rule("KB407", "link-template", "A link template uses unknown fields or yields no http(s) URL."),
        Rule(
            "KB408",
            "git-links-off-git",
            "A source that is not on a git host would get /blob/ and /tree/ links.",
        ),
        Rule(
            "KB409",
            "anchor-lookalike",
            "Prose looks like an evidence anchor but names no file: shown as text.",
        ),
        Rule(
            "KB410",
            "source-unpinned",
            "A git source states no revision, or a capture no digest: its anchors cannot be pinned.",
        ),
        Rule("KB501", "git-unavailable", "The source clone or its pinned revision is not available."),
        Rule("KB502", "git-file-missing", "A cited file does not exist at the pinned revision."),
        Rule("KB503", "git-lines-missing", "A cited line range runs past the end of the file."),
        Rule("KB504", "git-quote-missing", "A quotation does not occur in the cited file."),
        Rule("KB505", "bad-revision-spec", "A pinned revision is not a hex commit ID (full or abbreviated)."),
        Rule("KB506", "source-unreachable", "A source's location cannot be fetched (or it has none)."),
        Rule("KB507", "revision-not-fetched", "A source's location does not hold its pinned revision."),
        Rule(
            "KB508",
            "source-host-private",
            "A source's location names a host that is not public; not fetched.",
        ),
        Rule(
            "KB509",
            "git-tree-too-large",
            "kbgen diff --git: a revision's folder lists too many entries or bytes; nothing is written.",
        ),
        Rule(
            "KB510",
            "git-name-too-long",
            "kbgen diff --git: an entry name or path is longer than a folder can hold.",
        ),
        Rule("KB601", "import-kept-as-prose", "Imported text could not be structured; it is kept as prose."),
        Rule(
            "KB602", "import-table-row", "A table row is unterminated or its cells do not match the header."
        ),
        Rule("KB603", "import-unlabelled", "An imported record declaration has no label."),
        Rule(
            "KB604", "import-status-value", "A status line's value is not a conclusion status; kept as prose."
        ),
        Rule(
            "KB605",
            "import-duplicate-id",
            "A document declares a record ID twice; the later one is kept as prose.",
        ),
        Rule("KB606", "import-quote-path", "A quotation has no '--- path' attribution; it is kept as prose."),
        Rule(
            "KB607",
            "import-supplied",
            "A document cites an ID it does not declare; it becomes a supplied record.",
        ),
        Rule(
            "KB608",
            "import-section",
            "A section is not one of the document type's; kept under the one before.",
        ),
        Rule("KB609", "import-frontmatter", "A document's frontmatter is not a YAML mapping."),
        Rule(
            "KB610", "import-target", "The import's target folder exists (no --force) or is not a safe place."
        ),
        Rule(
            "KB611",
            "import-set-manifest",
            "A set folder's members do not match its manifest; nothing imported.",
        ),
        Rule(
            "KB612",
            "import-text-lost",
            "A sentence, list item, table cell or heading of the document is not in the records written.",
        ),
        Rule(
            "KB613",
            "import-quote-source",
            "A quotation's commit matches several sources and its record does not say which.",
        ),
        Rule(
            "KB614",
            "import-structure-lost",
            "A record the document declares, or its label, status, evidence anchor, quotation or "
            "revision, is not in the records written.",
        ),
        Rule(
            "KB615",
            "import-write-failed",
            "The file system refused the import's folder (no room, no such place, no permission).",
        ),
        Rule("KB701", "profile-axis-missing", "The memory-comparison profile lacks one of the ten axes."),
        Rule(
            "KB702",
            "profile-axis-unknown",
            "The memory-comparison profile names an axis the spec does not list.",
        ),
        Rule("KB703", "profile-axis-duplicate", "The memory-comparison profile lists an axis twice."),
        Rule("KB704", "profile-assessment", "An axis assessment is not in the assessment vocabulary."),
        Rule("KB705", "profile-value", "A value is not one of its axis's controlled values."),
        Rule(
            "KB706", "profile-value-repeated", "An axis lists a value twice; a value counts once per system."
        ),
        Rule("KB707", "profile-values-required", "A known or partial axis lists no values."),
        Rule(
            "KB708", "profile-evidence-missing", "A value of a known or partial axis has no evidence entry."
        ),
        Rule(
            "KB709", "profile-evidence-unlisted", "An evidence entry is for a value the axis does not list."
        ),
        Rule(
            "KB710",
            "profile-values-forbidden",
            "An axis assessed other than known or partial has values or evidence.",
        ),
        Rule(
            "KB711",
            "profile-basis",
            "An evidence basis is not claimed, afforded, wired, observed or causally supported.",
        ),
        Rule("KB712", "profile-evidence-records", "An evidence entry cites no record, or one record twice."),
        Rule("KB713", "profile-absence-record", "An absent axis cites no evidenced-absence record."),
        Rule(
            "KB714",
            "profile-record-unresolved",
            "A profile cites a record neither declared nor annotated in the system.",
        ),
        Rule("KB715", "profile-note", "An axis or one of its values has no note or an empty one."),
        Rule("KB716", "profile-trace-learning-value", "Trace learning lists more than one value."),
        Rule("KB717", "profile-partial-no", 'A partial trace-learning assessment asserts "no".'),
        Rule(
            "KB718",
            "profile-pull-only-signal",
            "A known pull-only read-back has a read-back signal that is not inapplicable.",
        ),
        Rule(
            "KB719",
            "profile-trace-source",
            "Trace learning is known not to occur, but trace source or an extra axis is not inapplicable.",
        ),
        Rule(
            "KB720",
            "profile-basis-twice",
            "An axis states its evidence basis both for the axis and per value.",
        ),
        Rule("KB801", "set-run", "A member of an analysis set names another run ID or reviewed boundary."),
        Rule("KB802", "set-membership", "A set's members do not match its outcome or its member documents."),
        Rule("KB803", "set-member-type", "A set's members are out of order or carry another member's type."),
        Rule("KB804", "set-record-member", "A record belongs to no member of the set that declares records."),
        Rule(
            "KB805", "set-supplied", "A record is supplied as declared elsewhere by a member the set holds."
        ),
        Rule("KB806", "set-duplicate-id", "Two members of an analysis set declare one ID."),
        Rule("KB807", "set-manifest", "A committed set manifest does not pin the members the records give."),
        Rule("KB900", "usage", "The command was called wrongly."),
    )
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in the records, located at file:line:col (1-based)."""

    code: str
    severity: Severity
    message: str
    file: str
    line: int = 1
    col: int = 1
    hint: str | None = None

    @property
    def rule(self) -> Rule:
        return RULES[self.code]

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.file, self.line, self.col, self.code, self.message)

    def as_text(self) -> str:
        """The one-line form: ``records/x.yaml:12:3: error KB201 dangling-reference: …``."""
        head = f"{self.file}:{self.line}:{self.col}: {self.severity} {self.code} {self.rule.name}"
        return f"{head}: {self.message}"

    def as_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "severity": str(self.severity),
            "code": self.code,
            "rule": self.rule.name,
            "message": self.message,
            "hint": self.hint,
            "docs": self.rule.docs,
        }

    @property
    def full_hint(self) -> str:
        """The hint as output shows it: what to do, then where the rule is documented."""
        return f"{self.hint} — see {self.rule.docs}" if self.hint else f"see {self.rule.docs}"


def error(
    code: str, message: str, file: str, line: int = 1, col: int = 1, hint: str | None = None
) -> Diagnostic:
    assert code in RULES, code
    return Diagnostic(code, Severity.ERROR, message, file, line, col, hint)


def warning(
    code: str, message: str, file: str, line: int = 1, col: int = 1, hint: str | None = None
) -> Diagnostic:
    assert code in RULES, code
    return Diagnostic(code, Severity.WARNING, message, file, line, col, hint)
