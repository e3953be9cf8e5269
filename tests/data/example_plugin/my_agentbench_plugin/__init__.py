"""An example AgentBench adapter plugin."""
