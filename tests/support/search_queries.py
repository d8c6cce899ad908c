"""The search query table: a query and the record it must show first (system, ID).

Shared by tests/outputs/test_search.py (``kbgen search`` and the built site's index read by
lunr in Python) and tests/browser/test_search_box.py (the same index in lunr.js, and the
search box). ``None`` expects no match.
"""

from __future__ import annotations

OMP, DECAPOD, IMEM, CHEATSHEET = "oh-my-pi", "decapod", "instinctual-memory", "dynamic-cheatsheet"
NAPKIN = "napkin"
# oh-my-pi's earlier run (records/oh-my-pi/runs/AAS-2026-09-26-oh-my-pi-01, run ID AAS-…-02).
OMP_EARLIER_RUN = "AAS-2026-09-05-oh-my-pi-02"
OMP_EARLIER = f"{OMP}/runs/{OMP_EARLIER_RUN.lower()}"

QUERIES: list[tuple[str, tuple[str, str] | None]] = [
    # Numbered IDs, including prefixes of other IDs (RTE-1 vs RTE-10…RTE-13).
    ("RTE-11", (IMEM, "RTE-11")),  # oh-my-pi declares it too; this one ranks first
    ("RTE-1", (IMEM, "RTE-1")),  # oh-my-pi declares it too; this one ranks first
    ("RTE-2", (IMEM, "RTE-2")),  # oh-my-pi declares it too; this one ranks first
    ("RTE-10", (IMEM, "RTE-10")),  # oh-my-pi declares it too; this one ranks first
    ("CLM-5", (OMP, "CLM-5")),
    ("CLM-1", (NAPKIN, "CLM-1")),  # oh-my-pi declares it too; this one ranks first
    ("OBJ-2", (IMEM, "OBJ-2")),  # oh-my-pi declares it too; this one ranks first
    ("BAP-2", (NAPKIN, "BAP-2")),  # oh-my-pi declares it too; this one ranks first
    ("BAP-14", (OMP, "BAP-14")),
    ("CMP-8", (OMP, "CMP-8")),
    # SRC-2 is declared by oh-my-pi and supplied by dynamic-cheatsheet: equal scores, so the
    # documented tie rule shows the earlier system first.
    ("SRC-2", (CHEATSHEET, "SRC-2")),
    ("rte-13", (NAPKIN, "RTE-13")),  # lower case; oh-my-pi declares it too
    # Analyst-prefixed IDs.
    ("MEM-RTE-knowledge-store", (DECAPOD, "MEM-RTE-knowledge-store")),
    ("MEM-OBJ-jev-ledger", (DECAPOD, "MEM-OBJ-jev-ledger")),
    ("MEM-BAP-retained-content", (DECAPOD, "MEM-BAP-retained-content")),
    # Supplied IDs, declared in another member of the analysis set.
    ("RT-RTE-context-resolve", (DECAPOD, "RT-RTE-context-resolve")),
    ("EPI-RTE-feedback-proposal", (DECAPOD, "EPI-RTE-feedback-proposal")),
    ("RT-CMP-jev", (DECAPOD, "RT-CMP-jev")),
    # Words: the record whose label carries the word comes before body mentions.
    ("Hindsight", (OMP, "RTE-19")),
    ("sharpshooter", (OMP, "CMP-7")),
    ("Mnemopi", (OMP, "CMP-6")),
    ("TTSR", (OMP, "RTE-9")),
    ("lease", (DECAPOD, "MEM-RTE-internalization-lease")),
    ("knowledge", (DECAPOD, "MEM-OBJ-knowledge-entry")),
    # Multi-word queries and phrases: every word must match.
    ("advisor note", (OMP, "RTE-7")),
    ('"advisor note"', (OMP, "RTE-7")),
    ("tool registry", (OMP, "CMP-3")),
    ("skill revision", (OMP, "RTE-14")),
    ("jev ledger", (DECAPOD, "MEM-OBJ-jev-ledger")),
    # A word being typed, and typos.
    ("Sharpsho", (OMP, "CMP-7")),
    ("Mnemopo", (OMP, "CMP-6")),
    ("sharpshoter", (OMP, "CMP-7")),
    # No match.
    ("zzzqqq", None),
    ("Hindsight zzzqqq", None),
    # Words and IDs of oh-my-pi's earlier run only: found there (after any current match).
    ("Hashline", (OMP_EARLIER, "CMP-4")),
    ("retry fallback", (OMP_EARLIER, "RTE-12")),
    ("RTE-21", (OMP_EARLIER, "RTE-21")),  # not RTE-12 or RTE-20: an exact ID before near misses
    ("BAP-21", (OMP_EARLIER, "BAP-21")),  # not BAP-2
    ("CLM-7", (OMP_EARLIER, "CLM-7")),
]


# The anchor a hit lands on: the record's lower-cased ID.
def anchor(record_id: str) -> str:
    return record_id.lower()
