"""Task formats: reading and writing challenges in the layouts other suites use (see `agentbench.formats.base`)."""
