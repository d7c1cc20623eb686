# Sourced by ./dev and .ci/run: makes Node >= 22.19 and the pinned pnpm available, installs the
# workspace and builds it. Idempotent and quiet when everything is already in place.
# Why by hand: no version manager can be assumed on the machine, and the only reachable source of
# a Node binary is the npm registry's `node` package, which ships it.
set -euo pipefail
root="$(pwd)"
tools="$root/.tools"
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 NEXT_TELEMETRY_DISABLED=1
export TURBO_NO_UPDATE_NOTIFIER=1 NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false
export npm_config_fund=false npm_config_audit=false
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1   # the console tests drive Debian's chromium (scripts/browser.sh)

node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=19)?0:1)'
}
log() { printf '[setup] %s\n' "$*" >&2; }

if ! node_ok; then
  if [ ! -x "$tools/node/node_modules/node/bin/node" ]; then
    log "Node $(node --version 2>/dev/null || echo none) is older than 22.19; fetching Node 24 from the npm registry"
    mkdir -p "$tools/node"
    npm install --silent --no-save --prefix "$tools/node" node@24 >/dev/null 2>"$tools/node-install.log" \
      || { cat "$tools/node-install.log" >&2; exit 1; }
  fi
  export PATH="$tools/node/node_modules/node/bin:$PATH"
  node_ok || { log "could not provide Node >= 22.19"; exit 1; }
fi

pnpm_version="$(node -p 'require("./package.json").packageManager.split("@")[1]')"
if [ "$(pnpm --version 2>/dev/null || true)" != "$pnpm_version" ]; then
  if [ ! -x "$tools/pnpm/node_modules/.bin/pnpm" ] || [ "$("$tools/pnpm/node_modules/.bin/pnpm" --version)" != "$pnpm_version" ]; then
    log "installing pnpm $pnpm_version"
    mkdir -p "$tools/pnpm"
    npm install --silent --no-save --prefix "$tools/pnpm" "pnpm@$pnpm_version" >/dev/null 2>"$tools/pnpm-install.log" \
      || { cat "$tools/pnpm-install.log" >&2; exit 1; }
  fi
  export PATH="$tools/pnpm/node_modules/.bin:$PATH"
fi

if [ -z "${QUIVER_SKIP_INSTALL:-}" ]; then
  lock_flag="--frozen-lockfile"
  [ -f pnpm-lock.yaml ] || lock_flag=""
  log "pnpm install (node $(node --version), pnpm $(pnpm --version))"
  pnpm install $lock_flag --reporter=silent
  log "building"
  pnpm --silent turbo run build --output-logs=errors-only
fi
