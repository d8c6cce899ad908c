"""CPU time Python-Markdown spends converting the generated pages (what a full build pays).

    python3 -m generator.cli.main render --out /tmp/kb-render
    python3 benchmarks/bench_markdown.py /tmp/kb-render [--repeat 3]

Converts every page of ``DIR/docs`` that is not a hand-authored page of ``kb/`` with the
Markdown extensions of ``DIR/mkdocs.yml`` (as MkDocs would, minus the theme), and prints
each page's size and CPU time (``time.process_time``, best of ``--repeat``) and the total.
Run it on the render of two revisions to compare them.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import markdown
from mkdocs.utils.yaml import yaml_load

ROOT = Path(__file__).resolve().parent.parent


def _extensions(config_file: Path) -> tuple[list[str], dict[str, dict[str, object]]]:
    with config_file.open(encoding="utf-8") as stream:
        config = yaml_load(stream)
    names: list[str] = []
    configs: dict[str, dict[str, object]] = {}
    for entry in config.get("markdown_extensions", []):
        if isinstance(entry, dict):
            ((name, options),) = entry.items()
            names.append(name)
            configs[name] = options or {}
        else:
            names.append(entry)
    return names, configs


def _generated_pages(render_dir: Path) -> list[Path]:
    authored = {path.relative_to(ROOT / "kb") for path in (ROOT / "kb").rglob("*.md")}
    docs = render_dir / "docs"
    return sorted(path for path in docs.rglob("*.md") if path.relative_to(docs) not in authored)


def _convert_cpu(text: str, names: list[str], configs: dict[str, dict[str, object]], repeat: int) -> float:
    body = text.split("---\n", 2)[2] if text.startswith("---\n") else text
    best = float("inf")
    for _ in range(repeat):
        converter = markdown.Markdown(extensions=names, extension_configs=configs)
        start = time.process_time()
        converter.convert(body)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("render_dir", type=Path, help="a folder written by 'kbgen render --out'")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    names, configs = _extensions(args.render_dir / "mkdocs.yml")
    total = 0.0
    for page in _generated_pages(args.render_dir):
        text = page.read_text(encoding="utf-8")
        cpu = _convert_cpu(text, names, configs, args.repeat)
        total += cpu
        print(
            f"{page.relative_to(args.render_dir / 'docs')}: {len(text.encode()) / 1024:.0f} KB, {cpu:.3f} s"
        )
    print(f"total: {total:.3f} s CPU")


if __name__ == "__main__":
    main()
