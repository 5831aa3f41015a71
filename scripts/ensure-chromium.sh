#!/usr/bin/env bash
# Runs the given command after making sure Debian's Chromium is at /usr/bin/chromium (the editor suite,
# `npm run e2e:editor`, drives it with playwright-core, which downloads no browser). Installs it with apt-get when
# missing (CI and the dev machines run as root).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
	echo "ensure-chromium: installing Debian's chromium (apt-get, about a minute)" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq chromium >&2
fi
exec "$@"
