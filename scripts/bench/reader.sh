#!/usr/bin/env bash
# Benchmark: the reader API (issue 10) over 100,000 published articles in 50 channels, 10,000
# readers and 1,000,000 view events (data: scripts/bench/reader-data.sql), as a subscriber:
# - the web app's own documents (reader_queries.py): the search page with a rare word, a common word
#   (5% of articles) and a quoted two-word phrase; a channel's article list; the article page on
#   random published articles; the For You page (me { channelSubscriptions followedCategories
#   recommendedArticles }, free articles, 3 premiumChannels and 3 freeChannels picked at random);
# - the same with a different word each request (of 20,000 of the articles' words), which no server
#   has kept;
# - for each: SQL statements per request at first 9 and 50 (from the server's statement log),
#   then requests/s, p50 and p99 under 20-second loads at 4 and 32 connections from one local client;
# - the gzip size of the JavaScript a first visit to /for-you loads, and of the lazy chunks its route
#   adds on navigation (production build with a manifest, in a scratch directory).
# Prints the figures and a summary table; asserts nothing. Needs wrk (apt-get install wrk), a release
# build (make build) and Node.js. BENCH_SKIP_WEB=1 skips the web build, BENCH_DURATION changes the
# 20 s per load (e.g. 3s for a trial run), BENCH_ONLY="article foryou" measures only those requests,
# BENCH_CONNECTIONS="32" only those loads. BENCH_SEAT=1 (with the firms tables, issue 39) gives the
# reader a firm seat on Channel 20, so every request also goes through the seat check.
source "$(dirname "$0")/common.sh"

duration=${BENCH_DURATION:-20s}
work=$(mktemp -d)
trap 'stop; drop_db; rm -f "$log"; rm -rf "$work"' EXIT
summary=$work/summary.tsv

# ---- the initial JavaScript of /for-you ----

web_sizes() {
  if [[ -n ${BENCH_SKIP_WEB:-} ]]; then echo "Web build skipped (BENCH_SKIP_WEB)"; return; fi
  [[ -d web/node_modules ]] || (cd web && npm ci --no-audit --no-fund --loglevel=error)
  # The same build as `npm run build`, plus a manifest, written outside web/dist.
  if ! (cd web && npm run build -- --manifest --outDir "$work/dist" --emptyOutDir) >"$work/web-build.log" 2>&1; then
    echo "Web build failed (see below); no JavaScript sizes"; tail -n 20 "$work/web-build.log"; return
  fi
  node scripts/bench/initial-js.mjs "$work/dist" src/features/reader/ForYou.tsx "$work/js.txt" || echo "initial-js.mjs failed"
}
echo "== JavaScript of /for-you"
web_sizes
echo

# ---- data ----

"$bin" migrate >/dev/null
email=bench.reader@client.example
TOKEN=$("$bin" token --email "$email" --name "Bench Reader" --company Bench --role subscriber --ttl 3h)
export TOKEN
start INSIGHTS_NO_WORKER=true
curl -fsS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"query":"{ me { _id } }"}' >/dev/null
stop

if seeded; then
  load_time="an earlier run (BENCH_DB=$db)"
else
  echo "== Loading data (scripts/bench/reader-data.sql)"
  started=$(date +%s.%N)
  psql "$DATABASE_URL" -q -v ON_ERROR_STOP=1 -v bench_email="$email" -f scripts/bench/reader-data.sql
  load_time=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.0f} s')" "$started" "$(date +%s.%N)")
fi
q() { psql "$DATABASE_URL" -tAc "$1"; }
matches() { q "select count(*) from article where state = 'Published' and search_vector @@ websearch_to_tsquery('english', \$\$$1\$\$)"; }
channel=$(q "select channel_id from channel where name = 'Channel 1'")
echo "Loaded in $load_time (vacuum analyze included): $(q "select count(*) from article where state = 'Published'") published articles ($(q "select count(*) from article") in all, $(q "select count(*) from article where length(body_text) > 20000") long), $(q "select count(*) from channel") channels, $(q "select count(*) from users where role = 'Subscriber'") readers, $(q "select count(*) from channel_subscription") subscriptions ($(q "select count(*) from channel_subscription where subscription_state = 'active'") active), $(q "select count(*) from article_view_event") view events, $(q "select count(*) from article_view_day") article-days, $(q "select count(*) from article_view") reader-article counts; database $(q "select pg_size_pretty(pg_database_size(current_database()))")"
echo "Search matches (published): rare 'molybdenum' $(matches molybdenum), common 'copper' $(matches copper), phrase \"iron ore\" $(matches '"iron ore"') (both words anywhere: $(matches 'iron ore')); Channel 1: $(q "select count(*) from article where state = 'Published' and premium_channel_id = '$channel'") articles"
echo

# ---- requests ----

if [[ -n ${BENCH_SEAT:-} ]]; then
  # Idempotent, so a kept database (BENCH_DB) takes it again.
  psql "$DATABASE_URL" -q -v ON_ERROR_STOP=1 -v bench_email="$email" <<'SQL'
insert into firm (firm_id, name, billing_method) values (substr(md5('bench firm'), 1, 24), 'Bench Firm', 'account')
  on conflict do nothing;
insert into firm_member (user_id, firm_id, joined_by)
  select user_id, substr(md5('bench firm'), 1, 24), 'staff' from users where email = :'bench_email' on conflict do nothing;
insert into firm_subscription (firm_subscription_id, firm_id, channel_id, seats, starts_at, subscription_type, subscription_state,
                               account_number)
  select substr(md5('bench firm sub'), 1, 24), substr(md5('bench firm'), 1, 24), channel_id, 10, now() - interval '1 day',
         'account', 'active', 'BENCH-1'
    from channel where name = 'Channel 20' on conflict do nothing;
insert into firm_seat (firm_subscription_id, firm_id, user_id)
  select substr(md5('bench firm sub'), 1, 24), substr(md5('bench firm'), 1, 24), user_id from users where email = :'bench_email'
  on conflict do nothing;
SQL
  echo "The reader holds a firm seat on Channel 20 (BENCH_SEAT): $(q "select count(*) from firm_seat") seat(s)"
fi
wanted() { [[ -z ${BENCH_ONLY:-} || " $BENCH_ONLY " == *" $1 "* ]]; }

q "select article_id from article where state = 'Published' order by md5(article_id) limit 10000" >"$work/ids.txt"
# Words of the articles' text (stemmed, as the index holds them), in random order: a search for a
# different word each request is one the servers have not kept.
q "select word from ts_stat('select search_vector from article where state = ''Published'' order by article_id limit 3000')
   where word ~ '^[a-z]{4,}$' order by md5(word) limit 20000" >"$work/words.txt"
# Statement counts: a subscribed channel's newest article, and the newest long one of a channel the reader does not have.
id_mine=$(q "select article_id from article where state = 'Published' and premium_channel_id = '$channel' order by publish_date desc limit 1")
id_other=$(q "select a.article_id from article a join channel c on c.channel_id = a.premium_channel_id where a.state = 'Published' and c.name = 'Channel 20' and a.is_premium and length(a.body_text) > 20000 order by a.publish_date desc limit 1")

python3 - "$work" "$channel" <<'PY'
import json, sys
sys.path.insert(0, "scripts/bench")
from reader_queries import ARTICLE as article, CHANNEL_ARTICLES as channel_articles, FOR_YOU as for_you, SEARCH as search, for_you_variables
work, channel = sys.argv[1], sys.argv[2]
def write(name, query, variables):
    with open(f"{work}/{name}.json", "w") as f:
        json.dump({"query": query, "variables": variables}, f)
searches = {"rare": {"searchQuery": "molybdenum"}, "common": {"searchQuery": "copper"}, "phrase": {"searchQuery": '"iron ore"'}}
for first in (9, 50):
    for name, params in searches.items():
        write(f"search-{name}-{first}", search, {"params": params, "first": first})
    write(f"search-channel-{first}", channel_articles, {"params": {"premiumChannelId": channel}, "first": first})
write("search-varied-9", search, {"params": {"searchQuery": "__ID__"}, "first": 9})
write("article", article, {"id": "__ID__"})
for first in (9, 50):
    write(f"foryou-{first}", for_you, for_you_variables(first))
PY

# file [id]: the request once, summed up: what each root field returned, or the first error.
describe() {
  local body
  body=$(sed "s/__ID__/${2:-}/g" "$1")
  curl -sS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' --data-binary @- <<<"$body" | python3 -c '
import json, sys
raw = sys.stdin.read()
try:
    r = json.loads(raw)
except ValueError:
    print("not JSON: " + raw[:150]); sys.exit()
if r.get("errors"):
    e = r["errors"][0]
    print("ERROR %s: %s" % ((e.get("extensions") or {}).get("code"), e.get("message", "")[:150]) + (" (+%d more)" % (len(r["errors"]) - 1) if len(r["errors"]) > 1 else ""))
    sys.exit()
def size(v):
    if isinstance(v, list): return "%d items" % len(v)
    if isinstance(v, dict):
        parts = []
        for k in ("totalCount", "total"):
            if k in v: parts.append("%s %s" % (k, v[k]))
        for k, x in v.items():
            if isinstance(x, list): parts.append("%d %s" % (len(x), k))
        if "html" in v: parts.append("html %s" % ("null" if v["html"] is None else "%d chars" % len(v["html"])))
        if "canSeeFullVersion" in v: parts.append("canSeeFullVersion %s" % v["canSeeFullVersion"])
        if "recommendedArticles" in v: parts.append("%d recommended" % len(v["recommendedArticles"]))
        return ", ".join(parts) or "object"
    return str(v)
print("; ".join("%s: %s" % (k, size(v)) for k, v in (r.get("data") or {}).items()))
'
}

# name key file connections [id file]: a wrk load with scripts/bench/reader.lua; prints and records the figures.
measure() {
  local name=$1 key=$2 file=$3 connections=$4 ids=${5:-}
  cpu_mark
  BODY_FILE=$file ID_FILE=$ids wrk -t2 -c"$connections" -d"$duration" --latency -s scripts/bench/reader.lua "$url/graphql" >/tmp/insights-bench.txt
  report "$name" "$connections"
  local non2xx
  non2xx=$(awk '/Non-2xx/ {print $NF}' /tmp/insights-bench.txt)
  [[ -n $non2xx ]] && echo "    ($non2xx non-2xx answers)"
  printf '%s\t%s\t%s\t%s\t%s\n' "$key" "$connections" "$(awk '/Requests\/sec/ {print $2}' /tmp/insights-bench.txt)" \
    "$(awk '/ 50%/ {print $2}' /tmp/insights-bench.txt)" "$(awk '/ 99%/ {print $2}' /tmp/insights-bench.txt)" >>"$summary"
}

names=(search-rare search-common search-phrase search-channel search-varied article foryou)
declare -A label=(
  [search-varied]="searchArticles, a random word each request"
  [search-rare]="searchArticles 'molybdenum' (rare word)"
  [search-common]="searchArticles 'copper' (common word)"
  [search-phrase]="searchArticles '\"iron ore\"' (phrase)"
  [search-channel]="searchArticles, channel filter (channel page)"
  [article]="findPublishedArticleById (random published ids)"
  [foryou]="For You page (me, free articles, channels)"
)
declare -A stmts

start INSIGHTS_NO_WORKER=true INSIGHTS_LOG_FORMAT=json INSIGHTS_LOG="warn,insights::http=info,sqlx::query=trace"
echo "== Answers (first: 9), as the benchmark's subscriber"
for name in search-rare search-common search-phrase search-channel; do
  wanted "$name" && echo "  ${label[$name]}: $(describe "$work/$name-9.json")"
done
echo "  findPublishedArticleById, subscribed channel: $(describe "$work/article.json" "$id_mine")"
echo "  findPublishedArticleById, other premium channel, long: $(describe "$work/article.json" "$id_other")"
echo "  For You: $(describe "$work/foryou-9.json")"
: >"$log"
echo
echo "== SQL statements per request (distinct counts over 3 requests)"
for name in search-rare search-common search-phrase search-channel foryou; do
  wanted "$name" || continue
  a=$(statements "$(cat "$work/$name-9.json")" || echo failed); b=$(statements "$(cat "$work/$name-50.json")" || echo failed)
  stmts[$name]="$a / $b"
  echo "  ${label[$name]}: first 9 $a, 50 $b"
done
# A word never searched before each time (the statements a search reads when nothing is kept).
if wanted search-varied; then
  a=$(statements "$(sed "s/__ID__/$(sed -n 1p "$work/words.txt")/" "$work/search-varied-9.json")" || echo failed)
  stmts[search-varied]="$a"
  echo "  ${label[search-varied]}: first 9 $a"
fi
if wanted article; then
  a=$(statements "$(sed "s/__ID__/$id_mine/" "$work/article.json")" || echo failed)
  b=$(statements "$(sed "s/__ID__/$id_other/" "$work/article.json")" || echo failed)
  stmts[article]="$a / $b"
  echo "  ${label[article]}: subscribed channel $a, other channel (long, premium) $b"
fi
stop
echo

echo "== Load: $duration per run, $(nproc) cores shared by wrk, the server and PostgreSQL; release build"
start INSIGHTS_NO_WORKER=true INSIGHTS_LOG_FORMAT=json
BODY_FILE=$work/search-common-9.json wrk -t2 -c8 -d2s -s scripts/bench/reader.lua "$url/graphql" >/dev/null
BODY_FILE=$work/article.json ID_FILE=$work/ids.txt wrk -t2 -c8 -d2s -s scripts/bench/reader.lua "$url/graphql" >/dev/null
for connections in ${BENCH_CONNECTIONS:-4 32}; do
  for name in search-rare search-common search-phrase search-channel; do
    wanted "$name" && measure "${label[$name]}" "$name" "$work/$name-9.json" "$connections"
  done
  wanted search-varied && measure "${label[search-varied]}" search-varied "$work/search-varied-9.json" "$connections" "$work/words.txt"
  wanted article && measure "${label[article]}" article "$work/article.json" "$connections" "$work/ids.txt"
  wanted foryou && measure "${label[foryou]}" foryou "$work/foryou-9.json" "$connections"
done
stop
echo

# ---- summary ----

echo "== Summary ($(nproc) cores, release build; data loaded in $load_time)"
printf '%-52s %-11s %9s %9s %9s %9s %9s %9s\n' "request (first: 9)" "SQL 9 / 50" "req/s@4" "p50@4" "p99@4" "req/s@32" "p50@32" "p99@32"
for name in "${names[@]}"; do
  wanted "$name" || continue
  row=()
  for connections in 4 32; do
    line=$(awk -F'\t' -v k="$name" -v c="$connections" '$1 == k && $2 == c' "$summary")
    row+=("$(cut -f3 <<<"$line")" "$(cut -f4 <<<"$line")" "$(cut -f5 <<<"$line")")
  done
  printf '%-52s %-11s %9s %9s %9s %9s %9s %9s\n' "${label[$name]}" "${stmts[$name]}" "${row[@]}"
done
echo "(findPublishedArticleById's SQL column: a subscribed channel's article / another channel's long premium one)"
if [[ -s $work/js.txt ]]; then
  # shellcheck disable=SC1090
  source "$work/js.txt"
  echo "Initial JS for /for-you: ${initial_files:-?} files, ${initial_gzip_kb:-?} kB gzip (CSS ${initial_css_gzip_kb:-?} kB gzip); the ForYou route adds ${route_files:-0} lazy chunk(s), ${route_gzip_kb:-0} kB gzip"
fi
