"""Entry point for ``python -m csv_summary``."""

from csv_summary.cli import main

raise SystemExit(main())
