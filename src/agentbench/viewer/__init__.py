"""`agentbench view`: a local web app over a results folder (runs, a run, a trial, side by side).

Built on Werkzeug (WSGI; the optional extra `view`) and jinja2. It only reads: run plans and trial
records at the paths the plans name (`agentbench.store.RunDir`), each trial's trajectory, logs and
archived workspace. It binds to 127.0.0.1 by default, fetches nothing from the network, escapes
everything an agent wrote and sends a strict Content-Security-Policy (the only script is its own
static `live.js`). See docs/viewer.md.
"""
