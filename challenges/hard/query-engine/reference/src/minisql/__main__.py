"""Entry point for ``python -m minisql``."""

import sys

from .cli import main

sys.exit(main())
