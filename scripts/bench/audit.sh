#!/usr/bin/env bash
# Benchmark (issue 40): what the audit trail and the revision history cost, and the trail's pages.
#
# `scripts/bench/audit.sh saves`: a staff save — editArticle of a 15 KB draft whose body changes
# with every save, one draft per connection — at 1 and 4 connections: requests/s, p50/p99 and the
# CPU a save costs; then how much the saves added to the audit trail (audit_event) and the revision
# history (article_revision, article_body), per 10,000 saves. BENCH_BIN=<an older release build>
# measures that build the same way (the closing note compares 9daa841, before the trail).
#
# `scripts/bench/audit.sh trail`: the Audit trail screen's request (the web app's AuditEvents
# document: a page of 15 events and the total) on 1,000,000 events, unfiltered and with each filter,
# at 1 and 4 connections: requests/s and p50/p99. Prints the figures; asserts nothing.
source "$(dirname "$0")/common.sh"
mode=${1:-saves}

"$bin" migrate >/dev/null

graphql() { # body → the answer
  curl -fsS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' --data-binary @- <<<"$1"
}
size_of() { # table → its bytes with indexes and TOAST, 0 when it does not exist
  psql "$DATABASE_URL" -tAc "select coalesce(pg_total_relation_size(to_regclass('$1')), 0)"
}
rows_of() {
  psql "$DATABASE_URL" -tAc "select case when to_regclass('$1') is null then 0 else (xpath('/row/c/text()', query_to_xml('select count(*) as c from $1', false, true, '')))[1]::text::bigint end"
}

saves() {
  TOKEN=$("$bin" token --email bench.editor@insights.example --name "Bench Editor" --role editor --ttl 2h)
  export TOKEN
  html_file=$(mktemp)
  # 15 KB of prose from a 2,000-word vocabulary (compresses like text does, unlike one repeated line).
  python3 - >"$html_file" <<'PY'
import json, random
random.seed(40)
letters = "etaoinshrdlucmfwypvbgkjqxz"
words = ["".join(random.choice(letters[:18]) for _ in range(random.randint(2, 9))) for _ in range(2000)]
html = ""
while len(html) < 15000:
    html += "<p>" + " ".join(random.choice(words) for _ in range(random.randint(40, 90))) + ".</p>"
print(json.dumps(html)[1:-1], end="")
PY
  export HTML_FILE=$html_file
  start INSIGHTS_NO_WORKER=true
  ME=$(graphql '{"query":"{ me { _id } }"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["me"]["_id"])')
  export ME
  for i in 1 2 3 4; do
    graphql "{\"query\":\"mutation(\$item: ArticleInput!) { addArticle(item: \$item) { _id } }\",\"variables\":{\"item\":{\"title\":\"Weekly oil outlook $i\",\"summary\":\"Prices up\",\"contributors\":[\"$ME\"],\"html\":\"<p>draft</p>\"}}}" >/dev/null
  done
  drafts() { # n → the bench's first n drafts as id:version,…
    psql "$DATABASE_URL" -tAc "select string_agg(article_id || ':' || version, ',' order by title) from (select * from article where title like 'Weekly oil outlook%' order by title limit $1) a"
  }
  local tables=(audit_event article_revision article_body) before_bytes=() before_rows=() saved=0
  for table in "${tables[@]}"; do before_bytes+=("$(size_of "$table")"); before_rows+=("$(rows_of "$table")"); done
  echo "$(nproc) cores shared by client, server and PostgreSQL; release build $(basename "$bin"); body $(wc -c <"$html_file") bytes"
  ARTICLES=$(drafts 1) wrk -t1 -c1 -d3s -s scripts/bench/save.lua "$url/graphql" >/dev/null
  for connections in 1 4; do
    export ARTICLES
    ARTICLES=$(drafts "$connections")
    cpu_mark
    wrk -t"$connections" -c"$connections" -d20s --latency -s scripts/bench/save.lua "$url/graphql" >/tmp/insights-bench.txt
    report "editArticle, 15 KB body" "$connections"
    grep 'save errors' /tmp/insights-bench.txt
    saved=$((saved + $(awk '/requests in/ {print $1}' /tmp/insights-bench.txt)))
  done
  stop
  echo "after $saved saves (and the warm-up's), per 10,000 saves:"
  for i in "${!tables[@]}"; do
    local bytes rows
    bytes=$(( ($(size_of "${tables[$i]}") - before_bytes[i]) * 10000 / saved ))
    rows=$(( ($(rows_of "${tables[$i]}") - before_rows[i]) * 10000 / saved ))
    printf '  %-18s %8.2f MB  %7d rows\n' "${tables[$i]}" "$(echo "$bytes / 1048576" | bc -l)" "$rows"
  done
  rm -f "$html_file"
}

trail() {
  TOKEN=$("$bin" token --email bench.admin@insights.example --name "Bench Admin" --role admin --ttl 2h)
  export TOKEN
  start INSIGHTS_NO_WORKER=true
  graphql '{"query":"{ me { _id } }"}' >/dev/null
  stop
  if [[ $(rows_of audit_event) -lt 1000000 ]]; then
    # Two years of events: 200 staff (and the workers and the CLI), ten actions over five kinds of
    # record, 50,000 records, each change a few fields before and after.
    psql "$DATABASE_URL" -q -v ON_ERROR_STOP=1 <<'SQL'
insert into audit_event (occurred_at, actor_kind, actor_id, actor_role, actor_email, source_address, user_agent,
                         request_id, action, entity_type, entity_id, change)
select now() - n * interval '63 seconds',
       case when n % 50 = 0 then 'worker' when n % 97 = 0 then 'cli' else 'user' end,
       case when n % 50 = 0 or n % 97 = 0 then null else 'staff' || n % 200 end,
       'Editor', 'staff' || n % 200 || '@insights.example', '10.0.' || n % 250 || '.' || n % 200,
       'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36', md5(n::text),
       (array['editArticle','publishEdit','addArticle','editTopic','addChannelSubscription','changeSubscription',
              'editUser','updateUserFromToken','channelSubscriber','GET /export/audit.csv'])[1 + n % 10],
       (array['article','article','article','topic','channel_subscription','channel_subscription','user','user','user',null])[1 + n % 10],
       'e' || n % 50000,
       jsonb_build_object('op', 'update', 'before', jsonb_build_object('title', 'Old title ' || n, 'state', 'Pending'),
                          'after', jsonb_build_object('title', 'New title ' || n, 'state', 'Published'))
from generate_series(1, 1000000) n;
vacuum analyze audit_event;
SQL
  fi
  local document month_from month_to
  document=$(node scripts/bench/web_document.mjs AuditEvents)
  month_from=$(date -u -d '-90 days' +%Y-%m-01T00:00:00Z)
  month_to=$(date -u -d "$month_from + 1 month" +%Y-%m-%dT%H:%M:%SZ)
  body() { python3 -c 'import json, sys; print(json.dumps({"query": sys.argv[1], "variables": {"params": json.loads(sys.argv[2])}}))' "$document" "$1"; }
  echo "$(nproc) cores shared by client, server and PostgreSQL; release build; $(rows_of audit_event) events; 15 a page"
  start INSIGHTS_NO_WORKER=true
  for connections in 1 4; do
    BENCH_SECONDS=10 load "no filter, first page" "$(body '{"skip": 0, "limit": 15}')" "$connections"
    BENCH_SECONDS=10 load "no filter, page 100" "$(body '{"skip": 1485, "limit": 15}')" "$connections"
    BENCH_SECONDS=10 load "actor (5,000 events)" "$(body '{"actorId": "staff42", "skip": 0, "limit": 15}')" "$connections"
    BENCH_SECONDS=10 load "record (article e123: 20 events)" "$(body '{"entityType": "article", "entityId": "e123", "skip": 0, "limit": 15}')" "$connections"
    BENCH_SECONDS=10 load "action (editTopic: 100,000 events)" "$(body '{"action": "editTopic", "skip": 0, "limit": 15}')" "$connections"
    BENCH_SECONDS=10 load "a month" "$(body "{\"from\": \"$month_from\", \"to\": \"$month_to\", \"skip\": 0, \"limit\": 15}")" "$connections"
    BENCH_SECONDS=10 load "actor and a month" "$(body "{\"actorId\": \"staff42\", \"from\": \"$month_from\", \"to\": \"$month_to\", \"skip\": 0, \"limit\": 15}")" "$connections"
  done
}

case $mode in
  saves) saves ;;
  trail) trail ;;
  *) echo "usage: $0 saves|trail" >&2; exit 2 ;;
esac
