#!/usr/bin/env bash
# Benchmark: a premium article page with images in its body, as a reader who holds its channel
# (issue 35: the body's images are protected and the page signs their links for the reader).
# On the demo content (`seed demo`, a fresh scratch database):
# - findPublishedArticleById (the web app's ArticlePage document) on the newest premium article
#   with an image that the ready Subscriber (Sam) may read in full: requests/s, p50 and p99 under a
#   20-second load at 32 connections;
# - the article page in headless Chromium (Debian's, driven by playwright-core), signed in as Sam
#   on the built-in provider's page: the time from navigation to the first body image loaded
#   (its resource timing's responseEnd), over 7 fresh browser contexts (cold HTTP cache), median.
# Prints the figures; asserts nothing. Needs wrk, a release build (make build), Node.js and Chromium.
# BENCH_BIN (common.sh) and BENCH_WEB_DIR measure another build (e.g. an older commit's binary and web/dist);
# BENCH_DURATION changes the 20 s load.
source "$(dirname "$0")/common.sh"

web_dir=${BENCH_WEB_DIR:-$PWD/web/dist}
duration=${BENCH_DURATION:-20s}
work=$(mktemp -d)
trap 'stop; drop_db; rm -f "$log"; rm -rf "$work"' EXIT
export INSIGHTS_UPLOAD_DIR=$work/uploads INSIGHTS_WEB_DIR=$web_dir

echo "== $("$bin" --version) (web app: $web_dir)"
"$bin" migrate >/dev/null
"$bin" seed demo >/dev/null
q() { psql "$DATABASE_URL" -tAc "$1"; }
sam=sam.subscriber@client.example
# The newest premium article with an image in its body, of a channel Sam holds.
article=$(q "select a.article_id from article a join channel_subscription s on s.channel_id = a.premium_channel_id
  join users u on u.user_id = s.user_id
  where u.email = '$sam' and s.subscription_state = 'active' and a.state = 'Published' and a.is_premium
    and a.html like '%<img src=\"/uploads/%' order by a.publish_date desc limit 1")
[[ -n $article ]] || { echo "no premium article with an image that Sam holds in the demo content" >&2; exit 1; }
echo "Article $article: $(q "select title from article where article_id = '$article'") — $(q "select (length(html) - length(replace(html, '<img', ''))) / 4 from article where article_id = '$article'") image(s)"

TOKEN=$("$bin" token --email "$sam" --name "Sam Subscriber" --company "Client Capital" --role subscriber --ttl 2h)
export TOKEN
python3 - "$work" "$article" <<'PY'
import json, sys
sys.path.insert(0, "scripts/bench")
from reader_queries import ARTICLE
work, article = sys.argv[1], sys.argv[2]
with open(f"{work}/article.json", "w") as f:
    json.dump({"query": ARTICLE, "variables": {"id": article}}, f)
PY

start INSIGHTS_NO_WORKER=true INSIGHTS_LOG_FORMAT=json
curl -fsS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' --data-binary @"$work/article.json" |
  python3 -c 'import json,sys; a=json.load(sys.stdin)["data"]["findPublishedArticleById"]; print("canSeeFullVersion %s; html %d chars; first image: %s" % (a["canSeeFullVersion"], len(a["html"] or ""), (a["html"] or "").split("<img src=\"",1)[-1].split("\"",1)[0][:140]))'
BODY_FILE=$work/article.json wrk -t2 -c8 -d2s -s scripts/bench/reader.lua "$url/graphql" >/dev/null
BODY_FILE=$work/article.json wrk -t2 -c32 -d"$duration" --latency -s scripts/bench/reader.lua "$url/graphql" >"$work/wrk.txt"
echo "findPublishedArticleById at 32 connections ($duration): $(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt") req/s, p50 $(awk '/ 50%/ {print $2}' "$work/wrk.txt"), p99 $(awk '/ 99%/ {print $2}' "$work/wrk.txt")$(awk '/Non-2xx/ {print ", " $NF " non-2xx"}' "$work/wrk.txt")"

ARTICLE_URL="$url/insights/browse/article/$article" NODE_PATH=web/node_modules node scripts/bench/article_images.mjs
