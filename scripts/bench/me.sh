#!/usr/bin/env bash
# Benchmark: throughput and p99 latency of the `me` query (token validation + user load) from one
# local client with 32 connections for 20 seconds, against the release binary and a fresh database.
# Prints the figures; it asserts nothing. Needs `wrk` (apt-get install wrk).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/insights/target}
bin=$CARGO_TARGET_DIR/release/insights-cli
[[ -x $bin ]] || { echo "build it first: make build" >&2; exit 1; }
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 1; }

admin=$(scripts/postgres.sh url postgres)
db="insights_bench_$$"
export DATABASE_URL="${admin%/*}/$db"
port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
export INSIGHTS_LISTEN=127.0.0.1:$port INSIGHTS_PUBLIC_URL=http://127.0.0.1:$port

"$bin" serve >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; psql "$admin" -q -c "drop database if exists $db with (force)"' EXIT
until curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; do sleep 0.2; done

TOKEN=$("$bin" token --email bench@client.example --name "Bench Reader" --company Bench --role subscriber --ttl 1h)
export TOKEN
# Warm up (creates the user, fills the key cache), then measure.
wrk -t2 -c32 -d3s -s scripts/bench/me.lua "http://127.0.0.1:$port/graphql" >/dev/null
echo "me query, 1 client, 32 connections, 20 s, release build, $(nproc) cores (client, server and PostgreSQL share them):"
wrk -t2 -c32 -d20s --latency -s scripts/bench/me.lua "http://127.0.0.1:$port/graphql" | tee /tmp/insights-bench-me.txt
echo
awk '/Requests\/sec/ {print "requests/s: " $2} / 99%/ {print "p99 latency: " $2}' /tmp/insights-bench-me.txt
