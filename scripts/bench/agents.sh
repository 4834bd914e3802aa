#!/usr/bin/env bash
# Benchmark (issue 41): research where clients work, over the reader benchmark's data (100,000
# published articles in 50 channels; scripts/bench/reader-data.sql), as its subscriber:
# - `search_research` and `get_article` through the official MCP client (PyPI `mcp`, from the
#   virtualenv scripts/test.sh makes) at 1 and 16 concurrent sessions: calls/s, p50, p99;
# - a private feed of the reader's subscriptions with wrk at 32 connections, plain and with
#   If-None-Match: requests/s, p50, p99;
# - the server's resident memory with 1,000 MCP sessions open, against none, once they have been
#   left idle past INSIGHTS_MCP_SESSION_IDLE_SECS, and with 1,000 more.
# Prints the figures; asserts nothing. BENCH_DB keeps the loaded data for the next run.
source "$(dirname "$0")/common.sh"
python=${INSIGHTS_CLIENTS_PYTHON:-$HOME/.cache/insights/clients-venv/bin/python}
"$python" -c 'import mcp' 2>/dev/null || { echo "needs the Python MCP client: scripts/test.sh rust installs it" >&2; exit 1; }
work=$(mktemp -d)
trap 'stop; drop_db; rm -f "$log"; rm -rf "$work"' EXIT

"$bin" migrate >/dev/null
email=bench.reader@client.example
TOKEN=$("$bin" token --email "$email" --name "Bench Reader" --company Bench --role subscriber --ttl 3h)
export TOKEN
start INSIGHTS_NO_WORKER=true
curl -fsS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"query":"{ me { _id } }"}' >/dev/null
stop
seeded || psql "$DATABASE_URL" -q -v ON_ERROR_STOP=1 -v bench_email="$email" -f scripts/bench/reader-data.sql
q() { psql "$DATABASE_URL" -tAc "$1"; }
# Arguments the calls take in turn: words of the articles' titles, and published articles.
q "select json_build_object('query', w) from (select distinct split_part(title, ' ', 2) as w from article
   where state = 'Published' limit 200) t where length(w) > 3" >"$work/search.jsonl"
q "select json_build_object('id', article_id) from article where state = 'Published' order by md5(article_id) limit 500" >"$work/article.jsonl"
echo "$(nproc) cores shared by client, server and PostgreSQL; release build; $(q "select count(*) from article where state = 'Published'") published articles"

start INSIGHTS_NO_WORKER=true INSIGHTS_RATE_LIMIT_FEEDS=off INSIGHTS_RATE_LIMIT_AGENT=off
for sessions in 1 16; do
  for tool in search_research get_article; do
    args=$work/search.jsonl
    [[ $tool == get_article ]] && args=$work/article.jsonl
    "$python" scripts/bench/mcp_load.py "$url/mcp" "$TOKEN" calls "$sessions" 20 "$tool" "$args" 2>/dev/null |
      python3 -c "import json,sys; r=json.load(sys.stdin); print(f'{sys.argv[1]:<16} {sys.argv[2]:>2} sessions  {r[\"per_second\"]:8.1f} calls/s   p50 {r[\"p50_ms\"]:7.1f} ms   p99 {r[\"p99_ms\"]:7.1f} ms   ({r[\"calls\"]} calls, {r[\"errors\"]} errors)')" "$tool" "$sessions"
  done
done

feed=$(curl -fsS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
  -d '{"query":"mutation { createFeedLink(scope: {kind: all}) { url } }"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["createFeedLink"]["url"])')
feed=$url${feed#*"$INSIGHTS_PUBLIC_URL"}
etag=$(curl -fsS -o /dev/null -D - "$feed" | awk 'tolower($1) == "etag:" {print $2}' | tr -d '\r')
echo "feed: $(curl -fsS "$feed" | wc -c) bytes, $(curl -fsS "$feed" | grep -o '<entry>' | wc -l) entries"
cpu_mark
wrk -t2 -c32 -d20s --latency "$feed" >/tmp/insights-bench.txt
report "feed, full document" 32
cpu_mark
wrk -t2 -c32 -d20s --latency -H "If-None-Match: $etag" "$feed" >/tmp/insights-bench.txt
report "feed, If-None-Match (304)" 32

# Sessions close once idle (here after 15 s): the memory 1,000 of them held is reused by the next 1,000.
stop
start INSIGHTS_NO_WORKER=true INSIGHTS_RATE_LIMIT_AGENT=off INSIGHTS_MCP_SESSION_IDLE_SECS=15
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
hold_sessions() {
  coproc HOLD { "$python" scripts/bench/mcp_load.py "$url/mcp" "$TOKEN" open 1000; }
  read -r ready <&"${HOLD[0]}"
  sleep 2
  echo "server memory: $(( $(rss) / 1024 )) MB with 1,000 MCP sessions open ($1; $ready)"
  # The client lets go without ending its sessions, as a crashed assistant would.
  echo done >&"${HOLD[1]}"
  wait "$HOLD_PID" 2>/dev/null || true
}
echo "server memory: $(( $(rss) / 1024 )) MB with no MCP session"
hold_sessions "the first"
sleep 20
echo "server memory: $(( $(rss) / 1024 )) MB once they have been idle 20 s"
hold_sessions "1,000 new ones, the first closed"
