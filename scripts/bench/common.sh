# Sourced by the benchmarks: the release binary, a scratch database on a free port, and start/stop
# of a server whose output goes to $log. Sets bin, admin, db, url, log; drops the database on exit,
# unless it is named by BENCH_DB (kept, so that its data serves the next run: see `seeded`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/insights/target}
# BENCH_BIN measures another binary (e.g. an older commit's release build) with the same script.
bin=${BENCH_BIN:-$CARGO_TARGET_DIR/release/insights-cli}
[[ -x $bin ]] || { echo "build it first: make build" >&2; exit 1; }
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 1; }

admin=$(scripts/postgres.sh url postgres)
db=${BENCH_DB:-insights_bench_$$}
keep=${BENCH_DB:+yes}
export DATABASE_URL="${admin%/*}/$db"
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
port=$(free_port)
url="http://127.0.0.1:$port"
export INSIGHTS_LISTEN=127.0.0.1:$port INSIGHTS_PUBLIC_URL=$url
log=$(mktemp)
pid=""
maildev_pid=""
stop() { if [[ -n $pid ]]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; fi; pid=""; }
drop_db() { [[ -n $keep ]] || psql "$admin" -q -c "drop database if exists $db with (force)"; }
stop_maildev() { if [[ -n $maildev_pid ]]; then kill "$maildev_pid" 2>/dev/null || true; fi; maildev_pid=""; }
trap 'stop; stop_maildev; drop_db; rm -f "$log"' EXIT
# True when a kept database (BENCH_DB) already holds the articles of an earlier run.
seeded() { [[ -n $keep && $(psql "$DATABASE_URL" -tAc "select count(*) > 1000 from article" 2>/dev/null) == t ]]; }

start() { # [VAR=value ...] extra environment for the server
  env "$@" "$bin" serve >>"$log" 2>&1 &
  pid=$!
  until curl -fsS "$url/healthz" >/dev/null 2>&1; do sleep 0.2; done
}

# dir: maildev on free ports, keeping its mail in dir; sets smtp_port and maildev_url (its web API).
start_maildev() {
  local maildev=web/node_modules/.bin/maildev web_port
  [[ -x $maildev ]] || { echo "needs maildev: (cd web && npm ci)" >&2; exit 1; }
  smtp_port=$(free_port)
  web_port=$(free_port)
  maildev_url=http://127.0.0.1:$web_port
  mkdir -p "$1"
  "$maildev" --smtp "$smtp_port" --ip 127.0.0.1 --web "$web_port" --web-ip 127.0.0.1 --mail-directory "$1" >"$1.log" 2>&1 &
  maildev_pid=$!
  until curl -fsS "$maildev_url/api/email" >/dev/null 2>&1; do sleep 0.1; done
}

# body → SQL statements per request, counted from the statement log of a server started with
# INSIGHTS_LOG_FORMAT=json INSIGHTS_LOG="warn,insights::http=info,sqlx::query=trace". Needs $TOKEN.
statements() {
  local body=$1 total=0
  for i in 1 2 3; do
    curl -fsS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -H "x-request-id: bench-$i-$RANDOM" --data-binary @- <<<"$body" >/dev/null
  done
  sleep 0.5
  python3 - "$log" <<'PY'
import json, sys, collections
counts = collections.Counter()
for line in open(sys.argv[1]):
    try:
        entry = json.loads(line)
    except ValueError:
        continue
    rid = entry.get("span", {}).get("request_id", "")
    if entry.get("target") == "sqlx::query" and rid.startswith("bench-"):
        counts[rid] += 1
print(sorted(set(counts.values())) if counts else "none counted")
PY
  : >"$log"
}

# CPU time (clock ticks of 10 ms) of the server process and of PostgreSQL's processes. Requests/s
# on two cores shared with wrk moves by up to 20 % from run to run; the CPU a request costs moves
# much less, and PostgreSQL's (the same statements whatever the server's code) shows how much the
# machine itself moved. `cpu_mark` before a wrk run; `report` prints the cost per request after it.
ticks_of() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
postgres_ticks() { local total=0 p; for p in $(pgrep -x postgres); do total=$((total + $(ticks_of "$p"))); done; echo "$total"; }
cpu_mark() { server_mark=$(ticks_of "$pid"); postgres_mark=$(postgres_ticks); }

# name connections: prints requests/s, p50 and p99 of the wrk run in /tmp/insights-bench.txt, and
# the server's and PostgreSQL's CPU µs per request since `cpu_mark`.
report() {
  local rps p50 p99 requests server postgres
  rps=$(awk '/Requests\/sec/ {print $2}' /tmp/insights-bench.txt)
  p50=$(awk '/ 50%/ {print $2}' /tmp/insights-bench.txt)
  p99=$(awk '/ 99%/ {print $2}' /tmp/insights-bench.txt)
  requests=$(awk '/requests in/ {print $1}' /tmp/insights-bench.txt)
  server=$(( ($(ticks_of "$pid") - ${server_mark:-0}) * 10000 / (requests > 0 ? requests : 1) ))
  postgres=$(( ($(postgres_ticks) - ${postgres_mark:-0}) * 10000 / (requests > 0 ? requests : 1) ))
  printf '%-64s %4s conn %10s req/s   p50 %8s   p99 %8s   CPU µs/request: server %5s, PostgreSQL %5s\n' \
    "$1" "$2" "$rps" "$p50" "$p99" "$server" "$postgres"
}

# body-file: stops the benchmark when the request is answered with errors (a figure measured on
# error responses would mean nothing).
answered() {
  local answer
  answer=$(curl -sS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' --data-binary @"$1")
  python3 -c 'import json,sys; body=json.loads(sys.argv[1]); sys.exit(1 if body.get("errors") or not body.get("data") else 0)' "$answer" ||
    { echo "the benchmark's request fails: ${answer:0:400}" >&2; exit 1; }
}

# name body [connections]: a wrk load of BENCH_SECONDS (20); prints requests/s, p50 and p99. Needs $TOKEN.
load() {
  answered <(printf '%s' "$2")
  cpu_mark
  local connections=${3:-32}
  BODY=$2 wrk -t$((connections < 2 ? connections : 2)) -c"$connections" -d"${BENCH_SECONDS:-20}"s --latency -s scripts/bench/graphql.lua "$url/graphql" >/tmp/insights-bench.txt
  report "$1" "${3:-32}"
}

# name file [connections]: as `load`, with the request body read from a file (large bodies).
load_file() {
  answered "$2"
  cpu_mark
  BODY_FILE=$2 wrk -t1 -c"${3:-32}" -d20s --latency -s scripts/bench/graphql.lua "$url/graphql" >/tmp/insights-bench.txt
  report "$1" "${3:-32}"
}
