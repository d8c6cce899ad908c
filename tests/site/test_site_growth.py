"""The site grows linearly with a system's runs (asserted on bytes, never on time).

Every page carries the whole navigation; a section per earlier run in it put the whole
history on every page of every run, so 200 runs of one system built 260 MB of site. An
earlier run is now listed once, on the system page's Runs table: each run adds about the
same bytes however many runs there are.
"""

from __future__ import annotations

import pytest
from many_runs import build_many_runs


@pytest.fixture(scope="module")
def sizes(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("growth")
    return build_many_runs(root, 10), build_many_runs(root, 40)


def test_bytes_per_run_do_not_grow_with_the_runs(sizes) -> None:
    ten, forty = sizes
    per_run_10 = ten.system / ten.runs
    per_run_40 = forty.system / forty.runs
    assert per_run_40 <= 1.15 * per_run_10, (per_run_10, per_run_40)


def test_each_run_added_costs_about_one_run_of_pages(sizes) -> None:
    """The whole site (search indexes and sitemap included) gains per run about what one
    run's pages weigh, from 10 runs to 40."""
    ten, forty = sizes
    added = (forty.total - ten.total) / (forty.runs - ten.runs)
    assert added <= 1.25 * ten.system / ten.runs, (added, ten.system / ten.runs)


def test_an_earlier_run_s_page_does_not_list_the_other_runs(sizes) -> None:
    """The oldest run's page weighs the same at 10 runs and at 40 (its banner's count of
    runs aside), and each run adds two files: its page and its changes page."""
    ten, forty = sizes
    assert abs(forty.oldest_page - ten.oldest_page) <= 16, (ten.oldest_page, forty.oldest_page)
    assert forty.files - ten.files == 2 * (forty.runs - ten.runs)
