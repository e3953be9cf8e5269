// AgentBench viewer: the live view of a running run. Polls this server's progress JSON and puts
// every value into the page with textContent (never as HTML); stops when the run is complete.
"use strict";
(function () {
  const root = document.getElementById("live");
  if (!root || root.dataset.done === "yes") { return; }
  const url = root.dataset.progress;
  let since = root.dataset.since || "0";

  function set(id, value) {
    const node = document.getElementById(id);
    if (node) { node.textContent = String(value); }
  }

  function cell(row, text, numeric) {
    const td = document.createElement("td");
    td.textContent = text === null || text === undefined ? "-" : String(text);
    if (numeric) { td.className = "num"; }
    row.appendChild(td);
    return td;
  }

  function addRow(trial) {
    const body = document.getElementById("live-trials");
    if (!body) { return; }
    const row = document.createElement("tr");
    cell(row, trial.agent, false);
    const where = cell(row, "", false);
    const link = document.createElement("a");
    link.textContent = String(trial.challenge);
    if (typeof trial.url === "string" && trial.url.startsWith("/runs/")) { link.href = trial.url; }
    where.appendChild(link);
    cell(row, trial.trial, true);
    cell(row, trial.status, false);
    cell(row, trial.score, true);
    body.insertBefore(row, body.firstChild);
  }

  async function tick() {
    let data;
    try {
      const response = await fetch(url + "?since=" + encodeURIComponent(since), { cache: "no-store" });
      data = await response.json();
    } catch (error) {
      set("live-state", "Live view paused: the viewer did not answer (" + error + "); retrying.");
      setTimeout(tick, 5000);
      return;
    }
    set("live-finished", data.finished);
    set("live-planned", data.planned);
    set("live-started", data.started);
    (data.trials || []).forEach(addRow);
    since = String(data.next);
    if (data.done) {
      set("live-state", "Run complete: reload the page for the final ranking.");
      root.dataset.done = "yes";
    } else {
      setTimeout(tick, 2000);
    }
  }

  setTimeout(tick, 1000);
})();
