"""The results store: the run folders (the source of truth) and the database that indexes them.

- `folders`: run-directory layout, atomic writes, resume, reading and writing results files;
- `database`: one interface over SQLite (the default, `results/agentbench.db`) and PostgreSQL,
  written by the harness right after each trial's record, rebuilt from the folders on demand;
- `views`: what the commands ask of it (runs, a run, an agent's history, the latest results).

`from agentbench.store import RunDir, write_atomic, read_results, ...` keeps working; the database
modules are imported only by the code that uses them (they are not needed to start the CLI).
"""

from agentbench.store.folders import (
    MAX_RECORD_BYTES,
    PLAN_NAME,
    RECORD_NAME,
    RunDir,
    RunPlan,
    read_results,
    write_atomic,
    write_results,
)

__all__ = ["MAX_RECORD_BYTES", "PLAN_NAME", "RECORD_NAME", "RunDir", "RunPlan", "read_results",
           "write_atomic", "write_results"]
