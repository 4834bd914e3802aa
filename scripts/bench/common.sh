# Sourced by the benchmarks: the release binary, a scratch database on a free port, and start/stop
# of a server whose output goes to $log. Sets bin, admin, db, url, log; drops the database on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/insights/target}
bin=$CARGO_TARGET_DIR/release/insights-cli
[[ -x $bin ]] || { echo "build it first: make build" >&2; exit 1; }
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 1; }

admin=$(scripts/postgres.sh url postgres)
db="insights_bench_$$"
export DATABASE_URL="${admin%/*}/$db"
port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
url="http://127.0.0.1:$port"
export INSIGHTS_LISTEN=127.0.0.1:$port INSIGHTS_PUBLIC_URL=$url
log=$(mktemp)
pid=""
stop() { if [[ -n $pid ]]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; fi; pid=""; }
trap 'stop; psql "$admin" -q -c "drop database if exists $db with (force)"; rm -f "$log"' EXIT

start() { # [VAR=value ...] extra environment for the server
  env "$@" "$bin" serve >>"$log" 2>&1 &
  pid=$!
  until curl -fsS "$url/healthz" >/dev/null 2>&1; do sleep 0.2; done
}
