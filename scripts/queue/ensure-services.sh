#!/usr/bin/env bash
# Makes sure the Postgres 15 server binaries and redis-server (Debian's packages) are installed; queue mode needs both.
# As root (CI) it installs what is missing with apt-get; otherwise it says what to install and exits 1.
# Prints nothing on stdout; progress goes to stderr.
set -euo pipefail
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
missing=()
[ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/postgres" ] || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  {
    echo "queue mode needs Postgres and Redis; missing: ${missing[*]}."
    echo "Install them (Debian/Ubuntu) with:  sudo apt-get install -y ${missing[*]}"
    echo "(the suite starts its own servers on free ports with data in a temporary folder; the system services"
    echo " may stay stopped). Postgres binaries are expected under $PG_BIN (set PG_BIN to override)."
  } >&2
  exit 1
fi

start=$SECONDS
echo "queue: installing ${missing[*]} with apt-get (first time only)" >&2
export DEBIAN_FRONTEND=noninteractive
# Package lists may be absent on a fresh image; refresh once and retry if the first install fails.
if ! apt-get install -y --no-install-recommends "${missing[@]}" >&2; then
  apt-get update >&2
  apt-get install -y --no-install-recommends "${missing[@]}" >&2
fi
# The packages start system services where an init system exists; the suite uses its own servers, so stop them.
if command -v service >/dev/null 2>&1; then
  for unit in "${missing[@]}"; do service "$unit" stop >/dev/null 2>&1 || true; done
fi
echo "queue: installed ${missing[*]} in $((SECONDS - start)) s" >&2
