#!/usr/bin/env bash
# Benchmark: `categoriesAsTree` with the shipped taxonomy and with 5,000 topics, and a `tags` page
# with a search term over 20,000 tags. For each: SQL statements per request (counted from the
# server's statement log) and p50/p99 latency under a 20-second load from one local client with
# 32 connections. Prints the figures; asserts nothing. Needs `wrk`.
source "$(dirname "$0")/common.sh"

"$bin" seed taxonomy seeds/taxonomy.csv >/dev/null
TOKEN=$("$bin" token --email bench.editor@insights.example --name "Bench Editor" --role editor --ttl 2h)
export TOKEN

tree='{"query":"{ categoriesAsTree { _id name description articleCount subscribersCount views level children { _id name articleCount subscribersCount views level children { _id name articleCount views level children { _id name articleCount views level children { _id name articleCount views level } } } } } }"}'
tags_query() { # search term → the tags page request
  printf '{"query":"{ tags(params: {searchQuery: \\"%s\\", pageSize: 50}) { total items { _id name description articleCount views } } }"}' "$1"
}
tags_page='{"query":"{ tags(params: {pageSize: 50}) { total items { _id name description articleCount views } } }"}'
# A term like an editor types (part of one tag's name), and one that matches most tags: the worst case.
tags=$(tags_query "ener")
tags_broad=$(tags_query "e")

scenario() { # label
  stop; start INSIGHTS_NO_WORKER=true INSIGHTS_LOG_FORMAT=json INSIGHTS_LOG="warn,insights::http=info,sqlx::query=trace"
  echo "$1: SQL statements per request: categoriesAsTree $(statements "$tree"), tags search $(statements "$tags"), broad search $(statements "$tags_broad")"
  stop; start INSIGHTS_NO_WORKER=true INSIGHTS_LOG_FORMAT=json
  # Warm up, then measure.
  BODY=$tree wrk -t2 -c8 -d2s -s scripts/bench/graphql.lua "$url/graphql" >/dev/null
  for connections in 32 4; do
    load "$1: categoriesAsTree" "$tree" "$connections"
    load "$1: tags page, no search" "$tags_page" "$connections"
    load "$1: tags page, selective search" "$tags" "$connections"
    load "$1: tags page, search matching half the tags" "$tags_broad" "$connections"
  done
}

topics=$(psql "$DATABASE_URL" -tAc "select count(*) from category")
tagcount=$(psql "$DATABASE_URL" -tAc "select count(*) from tag")
echo "$(nproc) cores shared by client, server and PostgreSQL; release build"
scenario "shipped taxonomy ($topics topics, $tagcount tags)"

# Grow to 5,000 topics (new roots, each with children and grandchildren) and 20,000 tags.
psql "$DATABASE_URL" -q <<'SQL'
create function pg_temp.oid24() returns text language sql as $$ select substr(md5(random()::text || clock_timestamp()::text), 1, 24) $$;
insert into category (category_id, name, description)
  select pg_temp.oid24(), 'Bench root ' || r, 'Benchmark topic' from generate_series(1, 45) r;
insert into category (category_id, name, description, parent_id)
  select pg_temp.oid24(), 'Bench child ' || c, 'Benchmark topic', p.category_id
  from category p, generate_series(1, 10) c where p.name::text collate "default" like 'Bench root %';
insert into category (category_id, name, description, parent_id)
  select pg_temp.oid24(), 'Bench leaf ' || l, 'Benchmark topic', p.category_id
  from category p, generate_series(1, 10) l where p.name::text collate "default" like 'Bench child %'
  limit (5000 - (select count(*) from category));
-- Tags with diverse names, as a real vocabulary has (names sharing one word would all share its
-- trigrams and defeat the search index).
insert into tag (tag_id, name, description)
  select pg_temp.oid24(), initcap(substr(md5('n' || t), 1, 7)) || ' ' || initcap(substr(md5('m' || t), 1, 6)),
         'Research on ' || substr(md5('d' || t), 1, 12)
  from generate_series(1, 20000 - (select count(*) from tag)) t;
analyze;
SQL
topics=$(psql "$DATABASE_URL" -tAc "select count(*) from category")
tagcount=$(psql "$DATABASE_URL" -tAc "select count(*) from tag")
# The selective term: part of a real tag's name.
term=$(psql "$DATABASE_URL" -tAc "select lower(substr(name::text collate \"default\", 2, 5)) from tag where description like 'Research on %' order by tag_id limit 1")
tags=$(tags_query "$term")
scenario "grown ($topics topics, $tagcount tags; search '$term')"
