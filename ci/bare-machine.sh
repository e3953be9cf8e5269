#!/usr/bin/env bash
# The README's Quick start on a bare machine: a fresh clone of this repository, run by USER with no
# optional tool (no bubblewrap or Chromium on PATH, an empty tools folder so no Node 22 and no Go,
# no PostgreSQL), then the faster pytest subset. It must pass, skipping what needs the missing tools.
#
#   ci/bare-machine.sh USER WORKDIR [pytest arguments...]
#
# USER: an unprivileged account (created when missing), or root. BARE_PYTHON: the interpreter that
# makes the venv (default python3). Prints the elapsed time and pytest's summary (skips and reasons).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
who=$1 work=$2
shift 2
start=$SECONDS
python=$(command -v "${BARE_PYTHON:-python3}")
# the interpreter itself, not a venv's link to it or a version manager's shim
python=$("$python" -c 'import sys; print(getattr(sys, "_base_executable", "") or sys.executable)')

rm -rf "$work"
mkdir -p "$work/bin" "$work/tools" "$work/home"
# PATH: every command of the usual folders except the optional tools
for file in /usr/local/bin/* /usr/bin/* /bin/*; do
  name=$(basename "$file")
  case $name in bwrap | chromium | chromium-browser | google-chrome | go | gofmt | node22) continue ;; esac
  [ -e "$work/bin/$name" ] || ln -s "$file" "$work/bin/$name"
done
git clone -q "$repo" "$work/agentbench"
if [ "$who" != root ]; then
  id "$who" >/dev/null 2>&1 || useradd --no-create-home --home-dir "$work/home" --shell /bin/bash "$who"
  chown -R "$who" "$work"
fi
chmod 755 "$work"

quickstart='
  set -euo pipefail
  cd agentbench
  "$BARE_PYTHON" -m venv .venv && . .venv/bin/activate
  pip install -q -e ".[dev]"
  agentbench run --agent reference --tier easy --results "$HOME/results"
  agentbench doctor --agent reference
  pytest -q -p no:cacheprovider "$@"
'
run_as=(env)
[ "$who" = root ] || run_as=(runuser -u "$who" -- env)
cd "$work"
status=0
"${run_as[@]}" -i HOME="$work/home" PATH="$work/bin" AGENTBENCH_TOOLS="$work/tools" LANG=C.UTF-8 \
  BARE_PYTHON="$python" PIP_CONFIG_FILE="${PIP_CONFIG_FILE:-/etc/pip.conf}" \
  bash -c "$quickstart" bare "$@" 2>&1 | tee "$work/log.txt" || status=$?
summary=$(grep -E '^(=+ )?[0-9]+ (passed|failed|skipped|error)' "$work/log.txt" | tail -1 || true)
echo "bare machine ($who): exit $status in $((SECONDS - start)) s; pytest: ${summary:-no summary}"
echo "skip reasons: $(grep -E '^SKIPPED' "$work/log.txt" | sed -E 's/^SKIPPED \[[0-9]+\] [^ ]+ //' | sort | uniq -c | sort -rn | head -8 | tr '\n' ';' || true)"
exit "$status"
