"""Sub-commands: every module in this package is one `python -m ledger NAME FILE` command.

A command module defines `NAME` (the sub-command), `HELP` (one line), `add_arguments(parser)` for
its options (the FILE argument is added for it) and `run(args, transactions) -> str`, the text to
print.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def load() -> dict[str, ModuleType]:
    """Every command module, by its NAME, sorted."""
    modules = [importlib.import_module(f"{__name__}.{info.name}")
               for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_")]
    return {m.NAME: m for m in sorted(modules, key=lambda m: m.NAME)}
