#!/usr/bin/env bash
# Runs the given command under Node 24 after making sure dependencies are installed for it (n8n-core's native
# isolated-vm must match the running Node). `npm test`, `npm start`, `npm run e2e|bench|sandbox` go through it,
# so each works from a fresh clone as one command.
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/with-node24.sh bash -c '
  if ! node -e "require(\"n8n-core\")" >/dev/null 2>&1; then
    echo "ensure-deps: installing dependencies for Node $(node --version) (npm ci, about 2 minutes)" >&2
    npm ci --no-audit --no-fund --loglevel=error >&2
  fi
  exec "$@"
' ensure-deps "$@"
