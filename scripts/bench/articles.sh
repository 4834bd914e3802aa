#!/usr/bin/env bash
# Benchmark: the `articles` list over 100,000 articles, each with 3 topics, 3 tags and 2
# contributors (the default view, a topic filter, a search term), and saving a 200 KB article.
# For each: SQL statements per request (from the server's statement log) and p50/p99 latency under
# a 20-second load from one local client. Prints the figures; asserts nothing.
source "$(dirname "$0")/common.sh"

"$bin" migrate >/dev/null
TOKEN=$("$bin" token --email bench.editor@insights.example --name "Bench Editor" --role editor --ttl 2h)
export TOKEN
start INSIGHTS_NO_WORKER=true
curl -fsS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"query":"{ me { _id } }"}' >/dev/null
stop

seeded || psql "$DATABASE_URL" -q -v ON_ERROR_STOP=1 <<'SQL'
create function pg_temp.oid24(n bigint, salt text) returns text language sql as $$ select substr(md5(salt || n), 1, 24) $$;
-- Words for titles and bodies: 2,000 made-up words plus market vocabulary, so a term is selective
-- the way real search terms are.
create temp table word as
select n, case when n <= 40 then (array['oil','gas','brent','crude','lng','refining','diesel','copper','gold','silver',
  'wheat','corn','soy','coal','power','carbon','freight','tanker','yield','rates','inflation','equity','credit','bond',
  'dollar','euro','yen','china','india','opec','shale','nickel','lithium','cobalt','uranium','sugar','coffee','cocoa',
  'steel','aluminium'])[n] else substr(md5('w' || n), 1, 4 + n % 5) end as w
from generate_series(1, 2000) n;
insert into users (user_id, subject, email, name, scopes, role, first_login, last_login)
select pg_temp.oid24(n, 'u'), 'bench|' || n, 'staff' || n || '@insights.example', 'Staff ' || n,
       '{insights:content-edit}', 'Contributor', now(), now()
from generate_series(1, 200) n;
insert into desk (desk_id, name) select pg_temp.oid24(n, 'd'), 'Desk ' || n from generate_series(1, 20) n;
insert into desk_contributor select pg_temp.oid24(d, 'd'), pg_temp.oid24((d - 1) * 10 + k + 1, 'u') from generate_series(1, 20) d, generate_series(0, 1) k;
-- The benchmark's editor is on every desk, so it may publish to every channel.
insert into desk_contributor select pg_temp.oid24(d, 'd'), (select user_id from users where email = 'bench.editor@insights.example') from generate_series(1, 20) d;
insert into channel (channel_id, name, type, owner_type, owner_desk_id, price, gl_account)
select pg_temp.oid24(n, 'c'), 'Channel ' || n, 'premium', 'desk', pg_temp.oid24(n % 20 + 1, 'd'), 49, 'GL-' || n
from generate_series(1, 100) n;
insert into category (category_id, name, description) select pg_temp.oid24(n, 't'), 'Topic ' || n, 'Topic ' || n from generate_series(1, 500) n;
insert into tag (tag_id, name, description) select pg_temp.oid24(n, 'g'), 'Tag ' || n, 'Tag ' || n from generate_series(1, 2000) n;
-- The per-state totals are counted once afterwards, not updated row by row (one row updated 100,000
-- times in a transaction slows down quadratically).
alter table article disable trigger article_state_count_change;
-- 100,000 articles over two years, with a title of 6 words and a body of 120.
insert into article (article_id, title, summary, html, body_text, state, created_at, publish_date, premium_channel_id,
                     published_by_desk_id, is_premium, premium_expiry_offset, author_id)
select pg_temp.oid24(i, 'a'), initcap(t.words), 'Summary of ' || t.words, '<p>' || b.words || '</p>', b.words,
       case when i % 10 = 0 then 'Pending' when i % 17 = 0 then 'Archived' else 'Published' end,
       now() - (i % 730) * interval '1 day' - i * interval '1 second',
       case when i % 10 = 0 then null else now() - (i % 730) * interval '1 day' end,
       pg_temp.oid24(i % 100 + 1, 'c'), pg_temp.oid24(i % 20 + 1, 'd'), i % 3 = 0, case when i % 6 = 0 then '1w' end,
       pg_temp.oid24(i % 200 + 1, 'u')
from generate_series(1, 100000) i,
     lateral (select string_agg(w, ' ' order by k) from generate_series(1, 6) k join word on word.n = abs(hashtext(i || 't' || k)) % 2000 + 1) t(words),
     lateral (select string_agg(w, ' ' order by k) from generate_series(1, 120) k join word on word.n = abs(hashtext(i || 'b' || k)) % 2000 + 1) b(words);
alter table article enable trigger article_state_count_change;
update article_state_count s set articles = (select count(*) from article a where a.state = s.state);
-- No server has kept a card yet, so the links need not move the articles' card revisions: moving
-- them would rewrite every published article twice (a long load, and a table three times its size).
alter table article_category disable trigger article_card_links_insert;
alter table article_tag disable trigger article_card_links_insert;
insert into article_category select pg_temp.oid24(n, 'a'), pg_temp.oid24((n * 3 + k) % 500 + 1, 't') from generate_series(1, 100000) n, generate_series(0, 2) k;
insert into article_tag select pg_temp.oid24(n, 'a'), pg_temp.oid24((n * 7 + k * 11) % 2000 + 1, 'g') from generate_series(1, 100000) n, generate_series(0, 2) k;
alter table article_category enable trigger article_card_links_insert;
alter table article_tag enable trigger article_card_links_insert;
insert into article_contributor select pg_temp.oid24(n, 'a'), pg_temp.oid24((n + k * 100) % 200 + 1, 'u') from generate_series(1, 100000) n, generate_series(0, 1) k;
insert into article_view (article_id, user_id, views)
select distinct on (1, 2) pg_temp.oid24(n % 100000 + 1, 'a'), pg_temp.oid24(n % 200 + 1, 'u'), 1 + n % 5 from generate_series(1, 200000) n;
vacuum analyze;
SQL
articles=$(psql "$DATABASE_URL" -tAc "select count(*) from article")
topic=$(psql "$DATABASE_URL" -tAc "select category_id from category where name = 'Topic 42'")
tag=$(psql "$DATABASE_URL" -tAc "select tag_id from tag where name = 'Tag 42'")
channel=$(psql "$DATABASE_URL" -tAc "select channel_id from channel where name = 'Channel 1'")

# What the article list screen selects, with each article's topics, tags and contributors.
fields='total articles { _id title state publishDate lastEdited created uniqueViews isPremium premiumExpiryOffset premiumExpiresAt canEdit canViewStats publishedBy { _id name type } categories { _id name } tags { _id name } contributors { _id name } }'
list_default="{\"query\":\"{ articles { $fields } }\"}"
list_topic="{\"query\":\"{ articles(params: {categoryId: [\\\"$topic\\\"]}) { $fields } }\"}"
list_tag="{\"query\":\"{ articles(params: {tagId: [\\\"$tag\\\"]}) { $fields } }\"}"
list_search="{\"query\":\"{ articles(params: {searchQuery: \\\"copper tanker\\\"}) { $fields } }\"}"
list_search_common="{\"query\":\"{ articles(params: {searchQuery: \\\"copper\\\"}) { $fields } }\"}"
# The list as the web app asks for it (no topics, tags or contributors: its table does not show them).
list_web=$(node scripts/bench/web_document.mjs ArticleList |
  python3 -c 'import json, sys; print(json.dumps({"query": sys.stdin.read(), "variables": {"params": {}}}))')
# A 200 KB article saved as a draft (each request adds one).
save_file=$(mktemp)
python3 - "$channel" >"$save_file" <<'PY'
import json, sys
paragraph = "<p>Brent crude rallied as <strong>OPEC</strong> output fell; <em>refining margins</em> widened in Asia. </p>"
html = "<h2>Outlook</h2>" + paragraph * (200_000 // len(paragraph))
item = {"title": "Weekly oil outlook", "html": html, "summary": "Prices up", "premiumChannelId": sys.argv[1],
        "isPremium": True, "premiumExpiryOffset": "1w"}
print(json.dumps({"query": "mutation($item: ArticleInput!) { addArticle(item: $item) { _id version } }", "variables": {"item": item}}))
PY
matches=$(psql "$DATABASE_URL" -tAc "select count(*) from article where search_vector @@ websearch_to_tsquery('english', 'copper tanker')")
common=$(psql "$DATABASE_URL" -tAc "select count(*) from article where search_vector @@ websearch_to_tsquery('english', 'copper')")
topic_count=$(psql "$DATABASE_URL" -tAc "select count(*) from article_category where category_id = '$topic'")
tag_count=$(psql "$DATABASE_URL" -tAc "select count(*) from article_tag where tag_id = '$tag'")

echo "$(nproc) cores shared by client, server and PostgreSQL; release build; $articles articles; topic filter matches $topic_count, tag filter $tag_count, 'copper tanker' $matches, 'copper' $common; save body $(wc -c <"$save_file") bytes"
start INSIGHTS_NO_WORKER=true INSIGHTS_LOG_FORMAT=json INSIGHTS_LOG="warn,insights::http=info,sqlx::query=trace"
echo "SQL statements per request: default view $(statements "$list_default"), topic filter $(statements "$list_topic"), tag filter $(statements "$list_tag"), search $(statements "$list_search"), common term $(statements "$list_search_common"), save $(statements "$(cat "$save_file")")"
stop; start INSIGHTS_NO_WORKER=true INSIGHTS_LOG_FORMAT=json
BODY=$list_default wrk -t2 -c8 -d2s -s scripts/bench/graphql.lua "$url/graphql" >/dev/null
for connections in 4 32; do
  load "articles, default view (newest first)" "$list_default" "$connections"
  load "articles, default view, as the web app asks (ArticleList)" "$list_web" "$connections"
  load "articles, topic filter" "$list_topic" "$connections"
  load "articles, tag filter" "$list_tag" "$connections"
  load "articles, search 'copper tanker'" "$list_search" "$connections"
  load "articles, search 'copper' (common word)" "$list_search_common" "$connections"
done
load_file "addArticle, 200 KB body" "$save_file" 4
load_file "addArticle, 200 KB body" "$save_file" 1
rm -f "$save_file"
# The saves' drafts go, so that a kept database (BENCH_DB) measures the same list next time.
psql "$DATABASE_URL" -q -c "delete from article where title = 'Weekly oil outlook'"
