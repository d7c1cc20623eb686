#!/usr/bin/env bash
# Makes sure the real services the tests use are running: Redis on 127.0.0.1:6379 and PostgreSQL on
# 127.0.0.1:5432. Starts them when stopped and installs them from Debian's packages when absent,
# so a fresh machine passes too. Tests that need a service skip with a printed reason if it is down.
# It also installs Debian's python3 when absent, for the seed systems' Python suites (clients/python).
set -uo pipefail
log() { printf '[services] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
apt_ready=0
apt_install() {
  if [ "$apt_ready" = 0 ]; then as_root apt-get update -qq >/dev/null 2>&1 || true; apt_ready=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null 2>&1
}

if ! (command -v redis-cli >/dev/null && redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG); then
  command -v redis-server >/dev/null || { log "installing redis-server"; apt_install redis-server || log "could not install redis-server"; }
  if command -v redis-server >/dev/null; then
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log >/dev/null 2>&1 || log "could not start redis"
  fi
fi

if ! (command -v pg_isready >/dev/null && pg_isready -h 127.0.0.1 -p 5432 -q); then
  command -v pg_ctlcluster >/dev/null || { log "installing postgresql"; apt_install postgresql || log "could not install postgresql"; }
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    version=$(ls /etc/postgresql | head -n 1)
    pg_ctlcluster --skip-systemctl-redirect "$version" main start >/dev/null 2>&1 || log "could not start postgresql"
  fi
fi

# The seed systems' Python suites (clients/python, standard library only) need a python3.
command -v python3 >/dev/null || { log "installing python3"; apt_install python3 || log "could not install python3"; }

for i in $(seq 1 20); do
  redis_ok=0; pg_ok=0
  redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG && redis_ok=1
  pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null && pg_ok=1
  [ "$redis_ok" = 1 ] && [ "$pg_ok" = 1 ] && break
  sleep 0.5
done
# The tests log in over TCP as `postgres` without a password, to a database named `test` (as on these
# machines). A server installed just now has neither: allow local TCP logins and create the database.
pg_ready_for_tests() { psql -h 127.0.0.1 -U postgres -d test -tAc 'select 1' >/dev/null 2>&1; }
if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null && ! pg_ready_for_tests && command -v pg_ctlcluster >/dev/null; then
  version=$(ls /etc/postgresql | head -n 1)
  hba="/etc/postgresql/$version/main/pg_hba.conf"
  if [ -f "$hba" ] && ! grep -q "quiver-tests" "$hba"; then
    log "allowing local TCP logins for the tests in $hba"
    { echo "# quiver-tests: local TCP logins without a password"; echo "host all all 127.0.0.1/32 trust"; echo "host all all ::1/128 trust"; cat "$hba"; } > "${tmp:=$(mktemp)}" \
      && as_root cp "$tmp" "$hba"; rm -f "$tmp"
    pg_ctlcluster --skip-systemctl-redirect "$version" main reload >/dev/null 2>&1 || true
  fi
  psql -h 127.0.0.1 -U postgres -d postgres -tAc "select 1 from pg_database where datname = 'test'" 2>/dev/null | grep -q 1 \
    || psql -h 127.0.0.1 -U postgres -d postgres -c 'create database test' >/dev/null 2>&1 || log "could not create database test"
fi

log "redis: $([ "$redis_ok" = 1 ] && echo up || echo DOWN), postgresql: $([ "$pg_ok" = 1 ] && echo up || echo DOWN)"
