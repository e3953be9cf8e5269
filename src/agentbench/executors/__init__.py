"""Executors: where a run's trials run. `local` (a thread pool, the default) or `dask` (a Dask cluster).

Each is one module with one class implementing `executors.base.Executor`, made by
`executors.base.make_executor(name, context)`; a new backend (say, a container or batch system) is
one more module and one line in `BUILTIN`. The runner asks for one by name and never branches on it.
Nothing is imported here (`plan` reads the names), so this package stays free of the trial code.
"""

BUILTIN = {"local": "agentbench.executors.local:LocalExecutor",
           "dask": "agentbench.executors.dask:DaskExecutor"}
"""Each executor's name and class, imported only when it is asked for."""

EXECUTORS = tuple(BUILTIN)
"""Values of `--executor`."""
