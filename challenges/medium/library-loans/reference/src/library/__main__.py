"""Entry point for ``python -m library``."""

import sys

from library.cli import main

sys.exit(main())
