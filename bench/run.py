"""Run every benchmark in bench/ and write bench/RESULTS.md.

Each module ``bench/bench_*.py`` has ``run() -> str`` that prints as it measures and returns a
markdown section. A benchmark that fails is reported in the file; it never fails the run.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import os
import platform
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu}), "
        f"Python {platform.python_version()}"
    )


def main(argv: list[str]) -> int:
    only = set(argv)
    sections = []
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem
        if only and name not in only and name.removeprefix("bench_") not in only:
            continue
        print(f"== {name} ==", flush=True)
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            sections.append((name, module.run()))
        except Exception:  # a benchmark never fails the run; it says what went wrong
            tb = traceback.format_exc()
            print(tb, file=sys.stderr)
            sections.append((name, f"## {name}\n\nFailed to run:\n\n```\n{tb}\n```\n"))
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    # Each benchmark keeps its own last section, so running one of them (`python bench/run.py
    # eval`) refreshes its part of RESULTS.md and keeps the others' last figures.
    store = HERE / "results"
    store.mkdir(exist_ok=True)
    for name, section in sections:
        (store / f"{name}.md").write_text(f"<!-- {stamp}, {machine()} -->\n{section}\n", encoding="utf-8")
    parts = [p.read_text(encoding="utf-8") for p in sorted(store.glob("bench_*.md"))]
    text = (
        f"# Benchmark results\n\nWritten {stamp} by `make bench` on {machine()}. Each section "
        "says when it was measured (a comment above its heading).\n\n" + "\n".join(parts)
    )
    (HERE / "RESULTS.md").write_text(text, encoding="utf-8")
    print(f"wrote {HERE / 'RESULTS.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
