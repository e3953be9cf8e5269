"""A scripted, loopback-only model server speaking the Anthropic, OpenAI and Gemini wire formats.

Given a script of files to write, it answers an agent CLI with tool calls that write them, then a
final message, so an adapter can be checked end to end without an API key or any token spent:

    from agentbench.modelserver import RunningServer, Script, ScriptedFile
    with RunningServer(Script(files=(ScriptedFile(path="a.py", content="x = 1\\n"),))) as server:
        ...  # point the CLI at server.url

Also runnable for users: `python -m agentbench.modelserver --script script.json --port 8765`.
"""

from agentbench.modelserver.script import Script, ScriptedFile, load_script, script_from_directory
from agentbench.modelserver.server import RunningServer

__all__ = ["RunningServer", "Script", "ScriptedFile", "load_script", "script_from_directory"]
