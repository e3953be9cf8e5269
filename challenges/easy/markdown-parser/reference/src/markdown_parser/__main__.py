"""Entry point for ``python -m markdown_parser``."""

from markdown_parser.cli import main

raise SystemExit(main())
