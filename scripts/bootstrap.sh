# Sourced by ./dev and .ci/run: makes Node >= 22.19 and the pinned pnpm available, installs the
# workspace and builds it. Idempotent and quiet when everything is already in place: when no file
# that install or build reads has changed since the last successful set-up (the stamp in
# node_modules), it only puts the recorded Node and pnpm on PATH, so `./dev quiver …` starts about
# as fast as the built CLI. Everything it prints goes to stderr: `./dev quiver list --json | jq` works.
# Why by hand: no version manager can be assumed on the machine, and the only reachable source of
# a Node binary is the npm registry's `node` package, which ships it.
set -euo pipefail
root="$(pwd)"
tools="$root/.tools"
stamp="$root/node_modules/.quiver-setup-stamp"
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 NEXT_TELEMETRY_DISABLED=1
export TURBO_NO_UPDATE_NOTIFIER=1 NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false
export npm_config_fund=false npm_config_audit=false
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1   # the console tests drive Debian's chromium (scripts/browser.sh)

# What install and build read: the manifests, the lock file, the build configs and every source file.
# A changed, added or removed file changes the fingerprint (the list's hash, and mtimes newer than the stamp).
setup_inputs() {
  find packages apps examples scripts package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json turbo.json \
    \( -name node_modules -o -name dist -o -name .turbo -o -name .reports \) -prune -o -type f -print 2>/dev/null | LC_ALL=C sort
}
fingerprint() { { setup_inputs; command -v node || true; } | cksum | cut -d' ' -f1; }
changed_since_stamp() {
  [ -n "$(find packages apps examples scripts package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json turbo.json \
    \( -name node_modules -o -name dist -o -name .turbo -o -name .reports \) -prune -o -type f -newer "$stamp" -print -quit 2>/dev/null)" ]
}

# Fast path: nothing changed since the last set-up in this clone.
if [ -z "${QUIVER_SKIP_INSTALL:-}" ] && [ -f "$stamp" ] && [ -f apps/host/dist/cli.js ] && ! changed_since_stamp; then
  { read -r stamped_print; read -r stamped_path; } < "$stamp" || true
  if [ "${stamped_path:-}" != "" ]; then export PATH="$stamped_path:$PATH"; fi
  if [ "${stamped_print:-}" = "$(fingerprint)" ]; then return 0 2>/dev/null || exit 0; fi
fi

node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=19)?0:1)'
}
log() { printf '[setup] %s\n' "$*" >&2; }
path_prefix=""

if ! node_ok; then
  if [ ! -x "$tools/node/node_modules/node/bin/node" ]; then
    log "Node $(node --version 2>/dev/null || echo none) is older than 22.19; fetching Node 24 from the npm registry"
    mkdir -p "$tools/node"
    npm install --silent --no-save --prefix "$tools/node" node@24 >/dev/null 2>"$tools/node-install.log" \
      || { cat "$tools/node-install.log" >&2; exit 1; }
  fi
  export PATH="$tools/node/node_modules/node/bin:$PATH"
  path_prefix="$tools/node/node_modules/node/bin"
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
  path_prefix="$tools/pnpm/node_modules/.bin${path_prefix:+:$path_prefix}"
fi

if [ -z "${QUIVER_SKIP_INSTALL:-}" ]; then
  lock_flag="--frozen-lockfile"
  [ -f pnpm-lock.yaml ] || lock_flag=""
  log "pnpm install (node $(node --version), pnpm $(pnpm --version))"
  pnpm install $lock_flag --reporter=silent >&2
  log "building"
  pnpm --silent turbo run build --output-logs=errors-only >&2
  printf '%s\n%s\n' "$(fingerprint)" "$path_prefix" > "$stamp"
fi
