"""rules_engine stays pure: it imports without Django and never touches the global RNG or clock."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BLOCKER = r"""
import importlib, importlib.abc, pkgutil, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {"django", "channels", "celery", "daphne", "redis"}:
            raise ImportError(f"rules_engine must not import {name}")
        return None
sys.meta_path.insert(0, Block())
import rules_engine
count = 0
for mod in pkgutil.walk_packages(rules_engine.__path__, "rules_engine."):
    if mod.name.endswith("__main__"):
        continue
    importlib.import_module(mod.name)
    count += 1
print(count)
"""


def test_rules_engine_imports_without_django() -> None:
    res = subprocess.run([sys.executable, "-c", BLOCKER], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert int(res.stdout.strip()) >= 2


def test_rules_engine_source_never_uses_global_random_or_clock() -> None:
    offenders = []
    for path in (ROOT / "rules_engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for bad in ("random.shuffle(", "random.random(", "random.choice(", "time.time(", "datetime.now(", "import django", "from django"):
            if bad in text:
                offenders.append(f"{path.name}: {bad}")
    assert offenders == []
