"""Task formats: AgentBench's own YAML and the suites people already use, behind one seam.

Reading AgentBench YAML is `agentbench.loader`'s job; writing it is `formats.base.write_draft`'s
(through `loader.dump_challenge`). Every other format is one module that turns the user's local copy
of a suite into `formats.base.ChallengeDraft`s and lists what it could not convert
(`formats.base.ImportReport`): `exercism` (the Exercism / Aider polyglot layout), `swe` (SWE-bench-
style instances over a local clone) and `repo` (a task scaffolded from one's own repository). A new
format (the Harbor task format, next) is one more module here and one `agentbench import`
sub-command.
"""

IMPORTERS: dict[str, str] = {
    "exercism": "agentbench.formats.exercism:import_exercism",
    "swe": "agentbench.formats.swe:import_swe",
}
"""`agentbench import` formats: name -> the importer (`module:function`)."""
