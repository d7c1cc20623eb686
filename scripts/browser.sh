#!/usr/bin/env bash
# Makes sure Debian's chromium is installed for the console's browser tests (apps/host, driven by
# playwright-core, which downloads no browser of its own). Installs it from Debian's packages when
# absent, so a fresh machine passes too. Locally, the browser tests skip with a printed reason when
# chromium is absent; on CI (CI=true) they fail instead, so this step must have worked.
set -uo pipefail
log() { printf '[browser] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  log "chromium: $("$chromium" --version 2>/dev/null | head -n 1)"
  exit 0
fi
log "installing chromium (Debian package) for the console's browser tests"
as_root apt-get update -qq >/dev/null 2>&1 || true
DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium >/dev/null 2>&1 \
  || log "could not install chromium"
[ -x "$chromium" ] && log "chromium: $("$chromium" --version 2>/dev/null | head -n 1)" || log "chromium: ABSENT"
