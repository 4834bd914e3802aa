#!/usr/bin/env bash
# Benchmark: subscriptions (issue 11), on a scratch database with 100,000 signed-in users:
# (a) `insights-cli import-subscribers` of a 100,000-row CSV into an empty premium channel, again on
#     top (every row already subscribed), and with --overwrite (every row updated): wall time, rows/s
#     and peak memory (resident set) of the release binary;
# (b) checkEmails and createBulkSubscriptions for 10,000 addresses through the API: seconds;
# (c) the expiry sweep (`insights-cli subscriptions expire`) over 1,000,000 subscriptions with 10,000
#     due (and 1,000 trial reminders): seconds, then a second sweep with nothing due;
# (d) subscriber stats on the channel with 100,000 subscribers: a page of `channelSubscribedUsers`
#     (with the tab counts), and a search: SQL statements per request (from the server's statement
#     log), p50 and p99 under 20-second loads.
# Prints the figures; asserts nothing. Needs wrk (apt-get install wrk) and a release build (make build).
# BENCH_DURATION changes the 20 s per load (e.g. 3s for a trial run).
source "$(dirname "$0")/common.sh"

duration=${BENCH_DURATION:-20s}
work=$(mktemp -d)
trap 'stop; psql "$admin" -q -c "drop database if exists $db with (force)"; rm -f "$log"; rm -rf "$work"' EXIT
q() { psql "$DATABASE_URL" -tAc "$1"; }
rows=100000

# cmd...: runs the command under /usr/bin/time -v when it is there (else reads VmHWM from /proc while it
# runs), and samples the CPU time of the database's server processes meanwhile; prints its output and sets
# $wall (s), $peak_mb, $client_cpu and $db_cpu (s). With 2 cores shared by both, wall time follows the sum
# of the two CPU times when the machine is otherwise idle.
measured() {
  local started child hwm=0 kb pid t tick total=0
  declare -A db_ticks=()
  tick=$(getconf CLK_TCK)
  started=$(date +%s.%N)
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -v -o "$work/time.txt" "$@" >"$work/out.txt" 2>"$work/err.txt" &
  else
    "$@" >"$work/out.txt" 2>"$work/err.txt" &
  fi
  child=$!
  while kill -0 "$child" 2>/dev/null; do
    for pid in $(pgrep -f "postgres: .* $db " || true); do
      t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || true)
      [[ -n $t ]] && db_ticks[$pid]=$t
    done
    if [[ ! -x /usr/bin/time ]]; then
      for pid in $(pgrep -P "$child") "$child"; do
        kb=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
        ((${kb:-0} > hwm)) && hwm=$kb
      done
    fi
    sleep 0.05
  done
  wait "$child" || echo "    (exit status $?)"
  wall=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$started" "$(date +%s.%N)")
  for pid in "${!db_ticks[@]}"; do total=$((total + db_ticks[$pid])); done
  db_cpu=$(python3 -c "import sys; print(f'{int(sys.argv[1]) / int(sys.argv[2]):.2f}')" "$total" "$tick")
  if [[ -x /usr/bin/time ]]; then
    peak_mb=$(awk -F: '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$work/time.txt")
    client_cpu=$(awk -F: '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$work/time.txt")
  else
    peak_mb=$((hwm / 1024)); client_cpu="?"
  fi
  sed 's/^/    /' "$work/out.txt"
  if [[ -s $work/err.txt ]]; then sed 's/^/    stderr: /' "$work/err.txt" | head -n 5; fi
}
per_second() { python3 -c "import sys; print(f'{int(sys.argv[1]) / float(sys.argv[2]):,.0f}')" "$1" "$2"; }

# ---- data ----

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"$bin" migrate >/dev/null
TOKEN=$("$bin" token --email bench.admin@insights.example --name "Bench Admin" --role admin --ttl 3h)
export TOKEN
start INSIGHTS_NO_WORKER=true
curl -fsS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"query":"{ me { _id } }"}' >/dev/null
stop

started=$(date +%s.%N)
psql "$DATABASE_URL" -q -v ON_ERROR_STOP=1 <<'SQL'
create function pg_temp.oid24(n bigint, salt text) returns text language sql as $$ select substr(md5(salt || n), 1, 24) $$;
-- 100,000 readers who have signed in, with varied names over 50 company domains.
insert into users (user_id, subject, email, name, company, scopes, role, first_login, last_login)
select pg_temp.oid24(n, 'u'), 'bench|' || n,
       lower(substr(md5('f' || n), 1, 6)) || '.' || lower(substr(md5('l' || n), 1, 8)) || n || '@client' || (n % 50) || '.example',
       initcap(substr(md5('f' || n), 1, 6)) || ' ' || initcap(substr(md5('l' || n), 1, 8)),
       'Company ' || (n % 500), '{insights:content-reader}', 'Subscriber',
       now() - (n % 30) * interval '1 day', now() - (n % 900) * interval '1 hour'
from generate_series(1, 100000) n;
insert into desk (desk_id, name, email) values (pg_temp.oid24(1, 'd'), 'Bench desk', 'desk@insights.example');
-- The import's channel, the API's, and 9 more for the expiry sweep's million subscriptions.
insert into channel (channel_id, name, type, owner_type, owner_desk_id, price, gl_account, default_trial_duration_days)
select pg_temp.oid24(n, 'c'), case n when 0 then 'Bench Import' when 10 then 'Bench API' else 'Bench Expiry ' || n end,
       'premium', 'desk', pg_temp.oid24(1, 'd'), 49.5, 'GL-' || n, 14
from generate_series(0, 10) n;
insert into channel_admin select channel_id, (select user_id from users where email = 'bench.admin@insights.example') from channel;
vacuum analyze;
SQL
channel=$(q "select channel_id from channel where name = 'Bench Import'")
api_channel=$(q "select channel_id from channel where name = 'Bench API'")
# The file as staff export it: a header row, then the address and the name, in no particular order.
psql "$DATABASE_URL" -q -c "\\copy (select email, name from users where subject like 'bench|%' order by md5(user_id)) to '$work/subscribers.csv' with (format csv, header)"
echo "$(nproc) cores shared by the binary, the server and PostgreSQL; release build"
echo "Data: $(q "select count(*) from users") users, $(wc -l <"$work/subscribers.csv") lines in the CSV ($(du -k "$work/subscribers.csv" | cut -f1) kB), loaded in $(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.0f} s')" "$started" "$(date +%s.%N)")"
echo

# ---- (a) import-subscribers ----

echo "== (a) insights-cli import-subscribers, $rows rows (stderr is not a terminal: no progress bar)"
declare -A imports
for run in empty again overwrite; do
  case $run in
    empty) label="into an empty channel"; extra=() ;;
    again) label="again on top (all already subscribed)"; extra=() ;;
    overwrite) label="again with --overwrite (all updated)"; extra=(--overwrite) ;;
  esac
  echo "-- $label"
  measured "$bin" import-subscribers --channel "Bench Import" "${extra[@]}" "$work/subscribers.csv"
  imports[$run]="$(per_second "$rows" "$wall") rows/s ($wall s wall, process start included; CPU: binary $client_cpu s, PostgreSQL $db_cpu s), peak RSS $peak_mb MB"
  echo "    => ${imports[$run]}"
done
echo "    subscriptions $(q "select count(*) from channel_subscription where channel_id = '$channel'"), audit rows $(q "select count(*) from subscription_audit where channel_id = '$channel'"), email requests $(q "select count(*) from subscription_email_request where channel_id = '$channel'"), error report $(wc -l <"$work/subscribers.errors.csv") lines"
echo

# ---- (b) checkEmails and createBulkSubscriptions through the API ----

echo "== (b) checkEmails and createBulkSubscriptions for 10,000 addresses through the API"
head -n 10001 "$work/subscribers.csv" >"$work/api.csv"
start INSIGHTS_NO_WORKER=true INSIGHTS_LOG_FORMAT=json
python3 - "$url/graphql" "$TOKEN" "$api_channel" "$work/api.csv" <<'PY'
import json, sys, time, urllib.request
url, token, channel, path = sys.argv[1:]
def gql(query, variables):
    body = json.dumps({"query": query, "variables": variables}).encode()
    request = urllib.request.Request(url, body, {"content-type": "application/json", "authorization": "Bearer " + token})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as response:
        answer = json.load(response)
    if answer.get("errors"):
        sys.exit(f"error: {answer['errors'][0]}")
    return answer["data"], time.perf_counter() - started, len(body)
text = open(path).read()
check, check_s, check_bytes = gql("query($c: ID!, $csv: String) { checkEmails(channelId: $c, csv: $csv) { identified users { _id } existing { _id } insightsUsers { _id } unmatched } }", {"c": channel, "csv": text})
result = check["checkEmails"]
users = [u["_id"] for u in result["users"]]
print(f"  checkEmails: {check_s:.2f} s ({check_bytes // 1024} kB request; {result['identified']} identified, {len(users)} can be added)")
create, create_s, create_bytes = gql("mutation($item: BulkSubscriptionInput!, $users: [ID!]!) { createBulkSubscriptions(item: $item, users: $users, existing: []) { added updated alreadySubscribed refused } }",
                                     {"item": {"channelId": channel, "fileName": "api.csv"}, "users": users})
print(f"  createBulkSubscriptions: {create_s:.2f} s ({create_bytes // 1024} kB request; {create['createBulkSubscriptions']})")
PY
stop
echo

# ---- (c) the expiry sweep ----

echo "== (c) expiry sweep over 1,000,000 subscriptions"
started=$(date +%s.%N)
psql "$DATABASE_URL" -q -v ON_ERROR_STOP=1 <<'SQL'
-- 9 more channels × 100,000 readers, beside the import's 100,000 and the API's 10,000, less the API's
-- 10,000 to make a round million: nonCharge, account and external with expiry dates a year out, trials.
insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state, cancel_at, trial_duration,
                                  account_number, billing_method, notes, added_by_admin)
select c.channel_id, u.user_id, t.kind, 'active',
       case when t.kind = 'trial' then now() + interval '10 days' + (u.n % 1000) * interval '1 minute'
            when u.n % 2 = 0 then now() + interval '300 days' + (u.n % 1000) * interval '1 minute' end,
       case when t.kind = 'trial' then 14 end, case when t.kind = 'account' then 'ACC-' || u.n end,
       case when t.kind = 'external' then 'Invoice' end, 'bench', true
from (select channel_id, row_number() over (order by channel_id) as k from channel where name collate "C" like 'Bench Expiry %') c
cross join (select user_id, row_number() over (order by user_id) as n from users where subject like 'bench|%') u
cross join lateral (select (array['nonCharge', 'account', 'external', 'trial'])[1 + (u.n + c.k) % 4] as kind) t
where c.k < 9 or u.n <= 90000;
-- 10,000 due: half trials that ended, half expiry dates passed; and 1,000 trials ending within 3 days.
with due as (
  select channel_id, user_id, row_number() over (order by md5(channel_id || user_id)) as r
  from channel_subscription where notes = 'bench' and subscription_type in ('trial', 'nonCharge')
)
update channel_subscription s
set cancel_at = case when due.r <= 10000 then now() - interval '1 hour' - due.r * interval '1 second'
                     else now() + interval '2 days' end,
    subscription_type = case when due.r > 10000 then 'trial' else s.subscription_type end,
    trial_duration = case when due.r > 10000 then 14 else s.trial_duration end
from due where due.r <= 11000 and due.channel_id = s.channel_id and due.user_id = s.user_id;
vacuum analyze;
SQL
echo "Loaded in $(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.0f} s')" "$started" "$(date +%s.%N)"): $(q "select count(*) from channel_subscription") subscriptions, $(q "select count(*) from channel_subscription where subscription_state = 'active' and cancel_at <= now()") due, $(q "select count(*) from channel_subscription where subscription_state = 'active' and subscription_type = 'trial' and cancel_at > now() and cancel_at <= now() + interval '3 days'") trials ending within 3 days"
sweeps=()
for run in first second; do
  echo "-- $run sweep"
  measured "$bin" subscriptions expire
  sweeps[${#sweeps[@]}]="$wall s wall (CPU: binary $client_cpu s, PostgreSQL $db_cpu s; peak RSS $peak_mb MB)"
done
echo "    ended: $(q "select count(*) from subscription_audit where action = 'expire'") audit rows, $(q "select count(*) from subscription_email_request where kind = 'trialEnded'") trial-ended and $(q "select count(*) from subscription_email_request where kind = 'trialEnding'") trial-ending email requests; still due $(q "select count(*) from channel_subscription where subscription_state in ('active', 'paymentFailed') and cancel_at <= now()")"
echo

# ---- (d) subscriber stats on a channel with 100,000 subscribers ----

echo "== (d) subscriber stats on 'Bench Import' ($(q "select count(*) from channel_subscription where channel_id = '$channel'") subscribers)"
term=$(q "select lower(substr(md5('l' || 4242), 2, 5))")
# The subscriber stats screen's requests: the first page of the All tab with the tab counts, a search,
# and a page deep into a tab.
python3 - "$work" "$channel" "$term" <<'PY'
import json, sys
work, channel, term = sys.argv[1:]
users = """users { _id insightsUserId name email company lastLogin articleViewsByChannel
  channelSubscription { subscriptionType subscriptionState cancelAt isActive status { typeLabel } } }"""
def write(name, query, variables):
    with open(f"{work}/{name}.json", "w") as f:
        json.dump({"query": query, "variables": variables}, f)
write("page", "query($c: ID!) { channelSubscribedUsers(channelId: $c, view: All, limit: 15, offset: 0) { total " + users + " }"
      " subscriberViewCounts(channelId: $c) { view count } }", {"c": channel})
write("search", "query($c: ID!, $s: String) { channelSubscribedUsers(channelId: $c, view: All, searchQuery: $s, limit: 15, offset: 0) { total "
      + users + " } }", {"c": channel, "s": term})
write("deep", "query($c: ID!) { channelSubscribedUsers(channelId: $c, view: NonCharge, limit: 15, offset: 50000) { total " + users + " } }",
      {"c": channel})
PY
answer() { curl -fsS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' --data-binary @"$1" | python3 -c '
import json, sys
r = json.load(sys.stdin)
if r.get("errors"):
    print("ERROR", r["errors"][0].get("message")); sys.exit()
page = r["data"]["channelSubscribedUsers"]
counts = r["data"].get("subscriberViewCounts")
print("total %d, %d users" % (page["total"], len(page["users"])) + ("" if counts is None else ", tab counts %s" % {c["view"]: c["count"] for c in counts}))'; }
declare -A label=(
  [page]="channelSubscribedUsers first page + subscriberViewCounts"
  [search]="channelSubscribedUsers search '$term'"
  [deep]="channelSubscribedUsers NonCharge tab at offset 50,000"
)
start INSIGHTS_NO_WORKER=true INSIGHTS_LOG_FORMAT=json INSIGHTS_LOG="warn,insights::http=info,sqlx::query=trace"
for name in page search deep; do
  echo "  ${label[$name]}: $(answer "$work/$name.json" || echo failed); SQL statements per request $(statements "$(cat "$work/$name.json")" || echo failed)"
done
stop
start INSIGHTS_NO_WORKER=true INSIGHTS_LOG_FORMAT=json
BODY_FILE=$work/page.json wrk -t2 -c4 -d2s -s scripts/bench/graphql.lua "$url/graphql" >/dev/null
for connections in 4 32; do
  for name in page search deep; do
    # A 10 s timeout (wrk's default is 2 s) so that slow answers are measured rather than dropped.
    cpu_mark
    BODY_FILE=$work/$name.json wrk -t2 -c"$connections" -d"$duration" --timeout 10s --latency -s scripts/bench/graphql.lua "$url/graphql" >/tmp/insights-bench.txt
    report "${label[$name]}" "$connections"
    timeouts=$(awk '/Socket errors/ {for (i = 1; i <= NF; i++) if ($i == "timeout") print $(i + 1)}' /tmp/insights-bench.txt)
    if [[ -n $timeouts && $timeouts != 0 ]]; then echo "    ($timeouts requests timed out after 10 s)"; fi
  done
done
stop
echo

echo "== Summary ($(nproc) cores, release build; load average before the run: $load_before)"
echo "  import 100,000 rows into an empty channel: ${imports[empty]}"
echo "  import again on top:                       ${imports[again]}"
echo "  import again with --overwrite:             ${imports[overwrite]}"
echo "  expiry sweep, 1,000,000 subscriptions, 10,000 due: ${sweeps[0]}; again with nothing due: ${sweeps[1]}"
