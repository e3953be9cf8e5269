"""Executors: where trials run. `local` (a thread pool, the default) or `dask` (a Dask cluster).

Both take a list of tasks and a function and know nothing about trials; the runner supplies the
function. With Dask, each task carries its challenge's files and comes back with its trial folder
as an archive, so workers need no shared disk, only the agent CLIs installed.
"""

EXECUTORS = ("local", "dask")
"""Values of `--executor`."""
