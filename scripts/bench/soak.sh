#!/usr/bin/env bash
# Benchmark: a soak of the release server (issue 15) over the reader benchmark's data
# (scripts/bench/reader-data.sql: 100,000 published articles, 50 channels, 10,000 readers,
# 1,000,000 view events): SOAK_SECONDS (600) at SOAK_RATE requests/s (250) from SOAK_CONNECTIONS
# (32) connections, open loop, with the mix of scripts/bench/soak.py — 80 % reader pages, search,
# article reads and view counts by 20 readers; 20 % staff lists and draft saves — and a publish with
# notification each minute, whose emails the server's own workers deliver to maildev.
# Prints throughput, p50/p99 and errors per operation and the server's memory at the start and the
# end. Asserts nothing. Needs a release build (make build), wrk (common.sh checks it) and
# web/node_modules (maildev). BENCH_DB keeps the loaded data for the next run.
source "$(dirname "$0")/common.sh"

seconds=${SOAK_SECONDS:-600}
rate=${SOAK_RATE:-250}
work=$(mktemp -d)
trap 'stop; stop_maildev; drop_db; rm -f "$log"; rm -rf "$work"' EXIT
q() { psql "$DATABASE_URL" -tAc "$1"; }

"$bin" migrate >/dev/null
email=bench.reader@client.example
token() { "$bin" token --ttl 3h "$@"; }
TOKEN=$(token --email "$email" --name "Bench Reader" --company Bench --role subscriber)
export TOKEN
if ! seeded; then
  start INSIGHTS_NO_WORKER=true
  curl -fsS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"query":"{ me { _id } }"}' >/dev/null
  stop
  echo "== Loading data (scripts/bench/reader-data.sql)"
  psql "$DATABASE_URL" -q -v ON_ERROR_STOP=1 -v bench_email="$email" -f scripts/bench/reader-data.sql
fi
# A clean slate for what the soak writes: earlier soaks' drafts and publishes, and unsent email.
q "delete from article where title like 'Soak %'" >/dev/null
q "delete from email_outbox where state in ('pending', 'sending')" >/dev/null

# 20 readers: the benchmark's own (with subscriptions and follows) and 19 new ones.
echo "$TOKEN" >"$work/readers.txt"
for i in $(seq 1 19); do token --email "soak.reader$i@client.example" --name "Soak Reader $i" --company Soak --role subscriber >>"$work/readers.txt"; done
token --email soak.admin@insights.example --name "Soak Admin" --role admin >"$work/staff.txt"
q "select article_id from article where state = 'Published' order by md5(article_id) limit 10000" >"$work/ids.txt"
q "select channel_id from channel order by name" >"$work/channels.txt"
q "select category_id from category where parent_id is not null order by md5(category_id) limit 100" >"$work/topics.txt"

start_maildev "$work/maildev"

start INSIGHTS_SMTP_URL="smtp://127.0.0.1:$smtp_port" INSIGHTS_LOG_FORMAT=json INSIGHTS_LOG=warn
# The minutely publish goes to the channel with the fewest subscribers among those with some.
channel=$(q "select channel_id from channel_subscription where subscription_state = 'active' group by 1 order by count(*), 1 limit 1")
subscribers=$(q "select count(*) from channel_subscription where channel_id = '$channel' and subscription_state = 'active'")
admin_id=$(curl -fsS "$url/graphql" -H "authorization: Bearer $(cat "$work/staff.txt")" -H 'content-type: application/json' -d '{"query":"{ me { _id } }"}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["me"]["_id"])')
# The Administrator publishes as a member of the channel's desk (or as its admin).
q "insert into channel_admin (channel_id, user_id) values ('$channel', '$admin_id') on conflict do nothing" >/dev/null
printf '{"channel": "%s", "topic": "%s", "contributor": "%s"}' "$channel" "$(head -1 "$work/topics.txt")" "$admin_id" >"$work/publish.json"

echo "== Soak: ${seconds} s at $rate requests/s, ${SOAK_CONNECTIONS:-32} connections; a publish each minute to a channel of $subscribers subscribers"
echo "   $(nproc) cores shared by the load, the server (with its workers), PostgreSQL and maildev; release build"
# This run's emails only (a kept database holds earlier runs').
started=$(q "select now()")
python3 scripts/bench/soak.py "$url" "$work" "$pid" "$seconds" "$rate"
sleep 5
sent=$(q "select count(*) from email_outbox where state = 'sent' and created_at >= '$started'")
pending=$(q "select count(*) from email_outbox where state <> 'sent'")
received=$(curl -fsS "$maildev_url/api/email" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
echo "emails: $sent sent by the workers, $received in maildev, $pending not sent yet"
echo "server log lines at warn or above: $(grep -c . "$log" || true)"
grep -m 5 . "$log" || true
