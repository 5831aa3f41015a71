#!/usr/bin/env bash
# `npm start`: the demo. Installs what is missing, builds, then scripts/start.ts brings up the sandbox and a real
# n8n with the package, the credential and the examples loaded.
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/ensure-deps.sh bash -c 'npm run build --silent && npx tsc -p tsconfig.dev.json && exec node build/scripts/start.js "$@"' start "$@"
