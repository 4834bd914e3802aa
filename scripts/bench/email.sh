#!/usr/bin/env bash
# Benchmark: email delivery (issue 12), on a scratch database:
# (a) a premium channel with 100,000 readers, each with an active subscription (90% with full
#     access, 10% summary-only) and email on, and one published article with a notification
#     request: the fan-out (`email::notifications::fan_out`, the NotifyArticleSubscribers job) that
#     writes the 100,000 emails to the outbox, then their delivery (`email::delivery::deliver_due`,
#     the DeliverEmails job) to an SMTP sink that only counts, by examples/email_bench.rs as one
#     registered worker process with INSIGHTS_SMTP_CONCURRENCY connections (default 8): seconds,
#     emails/s, peak resident memory, and the CPU time of the process and of PostgreSQL;
# (b) the time from a publish with notify-subscribers (publishAdd through the API) to the email in
#     maildev, for a channel with a single subscriber, with `insights-cli serve` running the
#     workers in process with the default settings; five publishes, each timed from the request,
#     with when the server logged the fan-out.
# Prints the figures and a summary; asserts nothing. Needs a release build (make build), Node.js's
# web/node_modules (maildev) and wrk (common.sh checks it). Builds the example itself (release).
# BENCH_SUBSCRIBERS changes the 100,000 (e.g. 10000 for a trial run); BENCH_DELIVERY_SECONDS (120)
# bounds the delivery run (the rate is what was sent by then; the rest stays pending).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/insights/target}
# Built before common.sh points DATABASE_URL at the scratch database (queries are checked offline).
SQLX_OFFLINE=${SQLX_OFFLINE:-true} cargo build --release --quiet --example email_bench
bench=$CARGO_TARGET_DIR/release/examples/email_bench
source scripts/bench/common.sh

subscribers=${BENCH_SUBSCRIBERS:-100000}
delivery_seconds=${BENCH_DELIVERY_SECONDS:-120}
work=$(mktemp -d)
trap 'stop; stop_maildev; drop_db; rm -f "$log"; rm -rf "$work"' EXIT
q() { psql "$DATABASE_URL" -tAc "$1"; }
seconds_since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(date +%s.%N)"; }

# cmd...: runs the command under /usr/bin/time -v, sampling the CPU time of the scratch database's
# server processes meanwhile; prints its output and sets $client_cpu and $db_cpu (s) and $peak_mb.
measured() {
  local child pid t tick total=0
  declare -A db_ticks=()
  tick=$(getconf CLK_TCK)
  /usr/bin/time -v -o "$work/time.txt" "$@" >"$work/out.txt" 2>"$work/err.txt" &
  child=$!
  while kill -0 "$child" 2>/dev/null; do
    for pid in $(pgrep -f "postgres: .* $db " || true); do
      t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || true)
      [[ -n $t ]] && db_ticks[$pid]=$t
    done
    sleep 0.1
  done
  wait "$child" || echo "    (exit status $?)"
  for pid in "${!db_ticks[@]}"; do total=$((total + db_ticks[$pid])); done
  db_cpu=$(python3 -c "import sys; print(f'{int(sys.argv[1]) / int(sys.argv[2]):.1f}')" "$total" "$tick")
  client_cpu=$(awk -F: '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$work/time.txt")
  peak_mb=$(awk -F: '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$work/time.txt")
  sed 's/^/    /' "$work/out.txt"
  if [[ -s $work/err.txt ]]; then grep -v '^ *…' "$work/err.txt" | sed 's/^/    stderr: /' | head -n 5 || true; fi
}
figure() { sed -n "s/.*figures:.* $1=\([^ ]*\).*/\1/p" "$work/$2"; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"$bin" migrate >/dev/null

# ---- (a) fan-out and delivery ----

echo "== Loading data: a premium channel with $subscribers subscribers and one published article"
started=$(date +%s.%N)
psql "$DATABASE_URL" -q -v ON_ERROR_STOP=1 -v n="$subscribers" <<'SQL'
create function pg_temp.oid24(n bigint, salt text) returns text language sql as $$ select substr(md5(salt || n), 1, 24) $$;
-- Readers who have signed in, with email on (the defaults: global and per channel, immediate).
insert into users (user_id, subject, email, name, company, scopes, role, first_login, last_login)
select pg_temp.oid24(n, 'u'), 'bench|' || n, 'reader' || n || '@client' || (n % 50) || '.example',
       initcap(substr(md5('f' || n), 1, 6)) || ' ' || initcap(substr(md5('l' || n), 1, 8)),
       'Company ' || (n % 500), '{insights:content-reader}', 'Subscriber', now() - interval '30 days', now() - (n % 900) * interval '1 hour'
from generate_series(1, :n) n;
insert into desk (desk_id, name, email) values (pg_temp.oid24(1, 'd'), 'Bench desk', 'desk@insights.example');
insert into channel (channel_id, name, type, owner_type, owner_desk_id, price, gl_account, default_trial_duration_days)
values (pg_temp.oid24(1, 'c'), 'Bench Premium', 'premium', 'desk', pg_temp.oid24(1, 'd'), 49.5, 'GL-1', 14);
-- Active subscriptions of every paid-for kind; 10% summary-only (their email has the teaser).
insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state, cancel_at, is_full_article_content,
                                  account_number, billing_method, added_by_admin)
select pg_temp.oid24(1, 'c'), pg_temp.oid24(n, 'u'), t.kind, 'active', now() + interval '300 days', n % 10 <> 0,
       case when t.kind = 'account' then 'ACC-' || n end, case when t.kind = 'external' then 'Invoice' end, true
from generate_series(1, :n) n
cross join lateral (select (array['nonCharge', 'account', 'external'])[1 + n % 3] as kind) t;
insert into article (article_id, title, summary, html, body_text, state, publish_date, was_published_previously,
                     premium_channel_id, published_by_desk_id, is_premium)
values (pg_temp.oid24(1, 'a'), 'Copper supply outlook for the next quarter', 'Mine disruptions keep the market tight into the new year.',
        '<p>The full text, never in an email.</p>', 'The full text, never in an email.', 'Published', now(), true,
        pg_temp.oid24(1, 'c'), pg_temp.oid24(1, 'd'), true);
insert into article_notification_request (article_id) values (pg_temp.oid24(1, 'a'));
vacuum analyze;
SQL
request=$(q "select request_id from article_notification_request")
echo "Loaded in $(seconds_since "$started") s: $(q "select count(*) from users") readers, $(q "select count(*) from channel_subscription where subscription_state = 'active'") active subscriptions ($(q "select count(*) from channel_subscription where not is_full_article_content") summary-only), request $request"
echo "$(nproc) cores shared by the worker, the SMTP sink (in the worker's process) and PostgreSQL; release build"
echo

echo "== (a1) fan-out: the outbox for $subscribers subscribers (one transaction), then nothing delivered"
measured "$bench" --request-id "$request" --no-delivery
fan_out_s=$(figure fan_out_s out.txt)
fan_out_line="$fan_out_s s (CPU: worker $client_cpu s, PostgreSQL $db_cpu s; worker peak RSS $peak_mb MB)"
fan_out_peak=$peak_mb
echo "    => $fan_out_line"
echo "    outbox: $(q "select count(*) from email_outbox where state = 'pending'") pending, $(q "select count(distinct content_id) from email_outbox") contents, $(q "select pg_size_pretty(pg_total_relation_size('email_outbox'))") with indexes"
echo

echo "== (a2) delivery of the outbox to the SMTP sink, INSIGHTS_SMTP_CONCURRENCY=${INSIGHTS_SMTP_CONCURRENCY:-8}, for at most $delivery_seconds s"
measured "$bench" --max-seconds "$delivery_seconds"
rate=$(figure rate out.txt)
delivery_s=$(figure delivery_s out.txt)
delivery_line="$rate emails/s ($(figure sent out.txt) in $delivery_s s; CPU: worker $client_cpu s, PostgreSQL $db_cpu s; worker peak RSS $peak_mb MB)"
delivery_peak=$peak_mb
echo "    => $delivery_line"
echo "    outbox: $(q "select string_agg(state || ' ' || n, ', ') from (select state, count(*) n from email_outbox group by 1 order by 1) s")"
echo

# ---- (b) publish → maildev ----

echo "== (b) publish → email in maildev, one subscriber, \`insights-cli serve\` with its workers and the default settings"
# The benchmark's undelivered emails would go first (claims are oldest first): an idle outbox.
q "delete from email_outbox where state in ('pending', 'sending')" >/dev/null
start_maildev "$work/maildev"
EDITOR_TOKEN=$("$bin" token --email bench.editor@insights.example --name "Bench Editor" --role admin --ttl 1h)
READER_TOKEN=$("$bin" token --email latency.reader@client.example --name "Lena Latency" --role subscriber --ttl 1h)
: >"$log"
start INSIGHTS_SMTP_URL="smtp://127.0.0.1:$smtp_port" INSIGHTS_LOG_FORMAT=json
python3 - "$url/graphql" "$maildev_url" "$EDITOR_TOKEN" "$READER_TOKEN" "$DATABASE_URL" "$log" "$work/latency.txt" <<'PY'
import datetime, json, statistics, subprocess, sys, time, urllib.request
graphql, maildev, editor, reader, database, log, out = sys.argv[1:]

def gql(token, query, variables=None):
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    request = urllib.request.Request(graphql, body, {"content-type": "application/json", "authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=30) as response:
        answer = json.load(response)
    if answer.get("errors"):
        sys.exit(f"error: {answer['errors'][0]}")
    return answer["data"]

def emails():
    with urllib.request.urlopen(maildev + "/api/email", timeout=5) as response:
        return json.load(response)

editor_id = gql(editor, "{ me { _id } }")["me"]["_id"]
reader_id = gql(reader, "{ me { _id } }")["me"]["_id"]
desk = gql(editor, "mutation($item: DeskInput!) { addDesk(item: $item) { _id } }",
           {"item": {"name": "Latency desk", "email": "desk@insights.example", "contributors": [editor_id]}})["addDesk"]["_id"]
channel = gql(editor, "mutation($item: ChannelInput!) { addChannel(item: $item) { _id } }",
              {"item": {"name": "Latency Premium", "description": "One subscriber", "type": "premium", "ownerType": "desk", "ownerId": desk,
                        "adminUsers": [], "price": "49.5", "glAccount": "GL-2", "defaultTrialDurationDays": 14}})["addChannel"]["_id"]
topic = gql(editor, "mutation($item: CategoryInput!) { addCategory(item: $item) { _id } }",
            {"item": {"name": "Latency topic", "description": "About latency", "parent": None}})["addCategory"]["_id"]
subprocess.run(["psql", database, "-qc", f"insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state) "
                f"values ('{channel}', '{reader_id}', 'nonCharge', 'active')"], check=True)

def logged(message, since):
    """When the server logged `message` (epoch seconds) after `since`, or None."""
    for line in open(log):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        fields = entry.get("fields", {})
        if fields.get("message") == message:
            at = datetime.datetime.fromisoformat(entry["timestamp"].replace("Z", "+00:00")).timestamp()
            if at >= since:
                return at
    return None

publish = "mutation($item: ArticleInput!) { publishAdd(item: $item) { _id state } }"
latencies = []
with open(out, "w") as report:
    for i in range(1, 6):
        title = f"Latency probe {i}"
        item = {"title": title, "html": "<p>Probe.</p>", "summary": "A probe of the email latency.", "premiumChannelId": channel,
                "contributors": [editor_id], "categories": [topic], "isPremium": True, "sendEmails": True}
        started = time.time()
        gql(editor, publish, {"item": item})
        answered = time.time()
        arrived = None
        while time.time() - started < 60:
            if any(e.get("subject") == title for e in emails()):
                arrived = time.time()
                break
            time.sleep(0.01)
        if arrived is None:
            print(f"  publish {i}: no email within 60 s"); continue
        fan_out = logged("article notification written", started)
        latency = arrived - started
        latencies.append(latency)
        print(f"  publish {i}: email in maildev after {latency * 1000:.0f} ms (publishAdd answered after {(answered - started) * 1000:.0f} ms"
              + (f", fan-out logged after {(fan_out - started) * 1000:.0f} ms" if fan_out else "") + ")")
        time.sleep(1)
    if latencies:
        report.write(f"median {statistics.median(latencies) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms over {len(latencies)} publishes\n")
PY
stop
latency_line=$(cat "$work/latency.txt" 2>/dev/null || true)
latency_line=${latency_line:-not measured}
echo "    => $latency_line"
echo

echo "== Summary ($(nproc) cores, release build; load average before the run: $load_before)"
printf '  %-58s %s\n' "fan-out of one article to $subscribers subscribers" "$fan_out_line   (target < 5 s)"
printf '  %-58s %s\n' "delivery to a local SMTP sink, ${INSIGHTS_SMTP_CONCURRENCY:-8} connections" "$delivery_line   (target ≥ 1,000/s)"
printf '  %-58s %s\n' "worker peak memory (fan-out / delivery)" "$fan_out_peak MB / $delivery_peak MB resident"
printf '  %-58s %s\n' "publish to email in maildev, one subscriber" "$latency_line   (target < 2 s)"
