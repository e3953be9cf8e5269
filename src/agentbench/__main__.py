"""`python -m agentbench` runs the CLI."""

from agentbench.cli import main

main()
