"""Entry point for ``python -m password_gen``."""

from password_gen.cli import main

raise SystemExit(main())
