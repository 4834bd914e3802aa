#!/usr/bin/env bash
# Makes sure a PostgreSQL server is available and prints the DATABASE_URL to use.
#
#   scripts/postgres.sh url [DBNAME]   the configured DATABASE_URL; else the local server on
#                                      127.0.0.1:5432; else a private cluster under ./data/postgres,
#                                      created from the system's PostgreSQL binaries (installing
#                                      Debian's `postgresql` package first when missing and allowed)
#   scripts/postgres.sh stop           stops the private cluster if it runs
#
# Messages go to stderr; only the URL goes to stdout.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cluster="$root/data/postgres"
dbname=${2:-insights}

say() { echo "postgres: $*" >&2; }

reachable() { # host port
  if command -v pg_isready >/dev/null; then pg_isready -q -h "$1" -p "$2" -t 2; else (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; fi
}

as_postgres() {
  if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -z "$dir" || ! -x "$dir/initdb" ]]; then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
      say "installing Debian's postgresql package"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
    elif sudo -n true 2>/dev/null; then
      say "installing Debian's postgresql package"
      sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
    else
      say "no PostgreSQL binaries and no permission to install them: set DATABASE_URL"; exit 1
    fi
    dir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  echo "$dir"
}

free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }

start_private() {
  local bin port
  bin=$(pg_bin)
  mkdir -p "$cluster"
  if [[ ! -f "$cluster/data/PG_VERSION" ]]; then
    say "creating a private cluster in $cluster"
    [[ $(id -u) == 0 ]] && chown postgres:postgres "$cluster" && chmod 700 "$cluster"
    as_postgres "$bin/initdb" -D "$cluster/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$cluster/initdb.log" 2>&1 \
      || { cat "$cluster/initdb.log" >&2; exit 1; }
    free_port >"$cluster/port"
  fi
  port=$(cat "$cluster/port")
  if ! reachable 127.0.0.1 "$port"; then
    say "starting the private cluster on 127.0.0.1:$port"
    as_postgres "$bin/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 \
      -o "-k $cluster -p $port -c listen_addresses=127.0.0.1" start >&2
    touch "$cluster/started-by-us"
  fi
  echo "postgres://postgres@127.0.0.1:$port/$dbname"
}

case "${1:-url}" in
  url)
    if [[ -n "${DATABASE_URL:-}" ]]; then
      echo "$DATABASE_URL"
    elif reachable 127.0.0.1 5432; then
      echo "postgres://postgres@127.0.0.1:5432/$dbname"
    else
      start_private
    fi
    ;;
  stop)
    if [[ -f "$cluster/started-by-us" && -f "$cluster/data/postmaster.pid" ]]; then
      say "stopping the private cluster"
      as_postgres "$(pg_bin)/pg_ctl" -D "$cluster/data" -m fast -w stop >&2 || true
      rm -f "$cluster/started-by-us"
    fi
    ;;
  *) echo "usage: $0 url [DBNAME] | stop" >&2; exit 2 ;;
esac
