"""``python -m rules_engine``: see :mod:`rules_engine.cli`."""

from rules_engine.cli import main

raise SystemExit(main())
