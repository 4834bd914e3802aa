#!/usr/bin/env bash
# Benchmark: `getPaginatedUsers` over 100,000 users (with a search term, and the default page) and
# the `channels` admin list over 1,000 channels with their counts (articles, archived articles,
# active subscribers). For each: SQL statements per request (from the server's statement log) and
# p50/p99 latency under a 20-second load from one local client. Prints the figures; asserts nothing.
source "$(dirname "$0")/common.sh"

"$bin" migrate >/dev/null
TOKEN=$("$bin" token --email bench.admin@insights.example --name "Bench Admin" --role admin --ttl 2h)
export TOKEN
start INSIGHTS_NO_WORKER=true
curl -fsS "$url/graphql" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"query":"{ me { _id } }"}' >/dev/null
stop

psql "$DATABASE_URL" -q <<'SQL'
create function pg_temp.oid24(n bigint, salt text) returns text language sql as $$ select substr(md5(salt || n), 1, 24) $$;
-- 100,000 users with varied names, 50 company domains; mostly readers, some trial, some staff.
insert into users (user_id, subject, email, name, company, scopes, role, first_login, last_login)
select pg_temp.oid24(n, 'u'), 'bench|' || n,
       lower(substr(md5('f' || n), 1, 6)) || '.' || lower(substr(md5('l' || n), 1, 8)) || '@client' || (n % 50) || '.example',
       initcap(substr(md5('f' || n), 1, 6)) || ' ' || initcap(substr(md5('l' || n), 1, 8)),
       'Company ' || (n % 500),
       case when n % 100 < 3 then '{insights:content-edit}'::text[] when n % 100 < 5 then '{insights:content-publish}'
            when n % 100 < 10 then '{insights:content-reader-trial}' else '{insights:content-reader}' end,
       case when n % 100 < 3 then 'Contributor' when n % 100 < 5 then 'Editor' else 'Subscriber' end,
       now() - (n % 30) * interval '1 day', now() - (n % 900) * interval '1 hour'
from generate_series(1, 99999) n;
-- 50 desks of three contributors each.
insert into desk (desk_id, name, email) select pg_temp.oid24(n, 'd'), 'Desk ' || n, 'desk' || n || '@insights.example' from generate_series(1, 50) n;
insert into desk_contributor select pg_temp.oid24(d, 'd'), pg_temp.oid24(d * 100 + k, 'u') from generate_series(1, 50) d, generate_series(0, 2) k;
-- 1,000 channels owned by the desks, each with two admins.
insert into channel (channel_id, name, type, owner_type, owner_desk_id, price, gl_account, created_by)
select pg_temp.oid24(n, 'c'), 'Channel ' || initcap(substr(md5('c' || n), 1, 8)) || ' ' || n,
       case when n % 3 = 0 then 'freeOpen' else 'premium' end, 'desk', pg_temp.oid24(n % 50 + 1, 'd'),
       case when n % 3 = 0 then null else 10 + n % 90 end, case when n % 3 = 0 then null else 'GL-' || n end,
       (select user_id from users where subject like 'dev|%' or subject like 'ad|%' limit 1)
from generate_series(1, 1000) n;
insert into channel_admin select pg_temp.oid24(n, 'c'), pg_temp.oid24((n % 50 + 1) * 100 + k, 'u') from generate_series(1, 1000) n, generate_series(0, 1) k;
-- 20,000 articles in the channels, each with a contributor; 50,000 views; 30,000 subscriptions.
insert into article (article_id, title, state, premium_channel_id, published_by_desk_id)
select pg_temp.oid24(n, 'a'), 'Article ' || n, case when n % 10 = 0 then 'Archived' else 'Published' end,
       pg_temp.oid24(n % 1000 + 1, 'c'), pg_temp.oid24(n % 50 + 1, 'd')
from generate_series(1, 20000) n;
insert into article_contributor select pg_temp.oid24(n, 'a'), pg_temp.oid24((n % 50 + 1) * 100 + n % 3, 'u') from generate_series(1, 20000) n;
insert into article_view (article_id, user_id, views)
select pg_temp.oid24(n % 20000 + 1, 'a'), pg_temp.oid24(n, 'u'), 1 + n % 5 from generate_series(1, 50000) n;
insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state)
select pg_temp.oid24(n % 1000 + 1, 'c'), pg_temp.oid24(n + 50000, 'u'), 'account', case when n % 4 = 0 then 'canceled' else 'active' end
from generate_series(1, 30000) n;
vacuum analyze;
SQL
users=$(psql "$DATABASE_URL" -tAc "select count(*) from users")
channels=$(psql "$DATABASE_URL" -tAc "select count(*) from channel")
# A term as an admin types it: part of one user's surname.
term=$(psql "$DATABASE_URL" -tAc "select lower(substr(md5('l' || 4242), 2, 5))")

users_query() { # search term (may be empty) → request body
  local search=""
  [[ -n $1 ]] && search=", searchQuery: \\\"$1\\\""
  printf '{"query":"{ getPaginatedUsers(type: All%s, limit: 15, offset: 0) { total users { _id email name company role lastLogin trialMinLeft articleCount views } } }"}' "$search"
}
users_search=$(users_query "$term")
users_page=$(users_query "")
users_trial='{"query":"{ getPaginatedUsers(type: Trial, limit: 15, offset: 0) { total users { _id email name trialMinLeft articleCount views } } }"}'
channels_default='{"query":"{ channels { total items { _id name type price canEdit articleCount archivedArticleCount templateCount channelActiveUsersCount owner { _id name type } adminUsers { _id name } } } }"}'
channels_page='{"query":"{ channels(params: {pageSize: 50}) { total items { _id name type price canEdit articleCount archivedArticleCount templateCount channelActiveUsersCount owner { _id name type } adminUsers { _id name } } } }"}'
channels_by_users='{"query":"{ channels(params: {pageSize: 50, sortField: ActiveUsers, sortDirection: Desc}) { total items { _id name channelActiveUsersCount articleCount adminUsers { _id } } } }"}'

echo "$(nproc) cores shared by client, server and PostgreSQL; release build; $users users, $channels channels; search '$term'"
start INSIGHTS_NO_WORKER=true INSIGHTS_LOG_FORMAT=json INSIGHTS_LOG="warn,insights::http=info,sqlx::query=trace"
echo "SQL statements per request: users search $(statements "$users_search"), users page $(statements "$users_page"), trial tab $(statements "$users_trial"), channels default page $(statements "$channels_default"), channels page of 50 $(statements "$channels_page"), channels by active users $(statements "$channels_by_users")"
stop; start INSIGHTS_NO_WORKER=true INSIGHTS_LOG_FORMAT=json
BODY=$users_page wrk -t2 -c8 -d2s -s scripts/bench/graphql.lua "$url/graphql" >/dev/null
for connections in 32 4; do
  load "getPaginatedUsers, search '$term'" "$users_search" "$connections"
  load "getPaginatedUsers, first page, no search" "$users_page" "$connections"
  load "getPaginatedUsers, Trial tab" "$users_trial" "$connections"
  load "channels, default page (15) by name" "$channels_default" "$connections"
  load "channels, page of 50 by name" "$channels_page" "$connections"
  load "channels, page of 50 by active users" "$channels_by_users" "$connections"
done
