#!/usr/bin/env bash
# Benchmark: throughput and p99 latency of the `me` query (token validation + user load) from one
# local client with 32 connections for 20 seconds, against the release binary and a fresh database.
# Prints the figures; it asserts nothing. Needs `wrk` (apt-get install wrk).
source "$(dirname "$0")/common.sh"
"$bin" migrate >/dev/null
start

TOKEN=$("$bin" token --email bench@client.example --name "Bench Reader" --company Bench --role subscriber --ttl 1h)
export TOKEN
# Warm up (creates the user, fills the key cache), then measure.
wrk -t2 -c32 -d3s -s scripts/bench/me.lua "$url/graphql" >/dev/null
echo "me query, 1 client, 32 connections, 20 s, release build, $(nproc) cores (client, server and PostgreSQL share them):"
wrk -t2 -c32 -d20s --latency -s scripts/bench/me.lua "$url/graphql" | tee /tmp/insights-bench-me.txt
echo
awk '/Requests\/sec/ {print "requests/s: " $2} / 99%/ {print "p99 latency: " $2}' /tmp/insights-bench-me.txt
