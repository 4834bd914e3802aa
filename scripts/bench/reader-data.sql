-- Data of scripts/bench/reader.sh, loaded after the migrations (0007_readers included), in SQL with
-- generate_series. Deterministic (hashes, not random()), so two runs load the same data.
--   psql -v bench_email=EMAIL -f scripts/bench/reader-data.sql   (the user with that email exists)
--
-- 100,000 published articles (+10,000 pending or archived) in 50 channels (38 premium, 7 freeOpen,
-- 5 freeClosed), published over two years; in premium channels 70% premium, 15% premium with an
-- expiry offset (3d/1w/1m), 15% open. Bodies of 120 words (10 sentences from a pool of 10,000, over
-- a vocabulary of 5,000 made-up words), 1% of 5,040 words. Search terms placed on purpose:
--   'copper'      the common word: 5% of the articles (i % 20 = 7)
--   'molybdenum'  the rare word: 20 articles (i % 5000 = 123)
--   "iron ore"    the phrase: ~300 articles (i % 333 = 17); 'iron' and 'ore' also appear alone,
--                 apart, in ~1% each, so the phrase is not the same as both words
-- 3 topics (of 490, under 10 sectors) and 3 tags (of 200) per article; 1–2 contributors.
-- 10,000 readers (Subscriber, insights:content-reader) with 1–5 channel subscriptions in mixed
-- states and types, 0–3 followed topics; 1,000,000 view events over two years (80% full, 20%
-- preview; sessions of 4 views; 30% on the 2,000 newest articles) with their per-day totals and
-- per-reader counts. The benchmark's own user gets subscriptions, follows and views too.
\set ON_ERROR_STOP on
\timing off
set synchronous_commit = off;
set maintenance_work_mem = '512MB';
set work_mem = '64MB';
select clock_timestamp() as load_started \gset
select now() as t0 \gset

create function pg_temp.oid24(n bigint, salt text) returns text language sql immutable as $$ select substr(md5(salt || n), 1, 24) $$;
create function pg_temp.h(key text, m int) returns int language sql immutable as $$ select abs(hashtext(key)) % m $$;
-- Article i is published at t0 - i × 630.72 s: 100,000 articles over 730 days, newest first.
create function pg_temp.published(i bigint, t0 timestamptz) returns timestamptz language sql immutable as $$
  select t0 - i * interval '630.72 seconds' $$;

-- Bulk loading: the big tables' secondary indexes are dropped and built again after their rows
-- are in (a GIN index built at once takes seconds, kept row by row minutes); the constraints'
-- indexes stay. The definitions are read from the catalog, so they are the migrations' own.
create temp table saved_index (tbl text, name text, def text);
create function pg_temp.drop_indexes(target regclass) returns void language plpgsql as $$
declare r record;
begin
  for r in select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def from pg_index i
           where i.indrelid = target and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid) loop
    insert into saved_index values (target::text, r.name, r.def);
    execute 'drop index ' || r.name;
  end loop;
end $$;
create function pg_temp.restore_indexes(target regclass) returns void language plpgsql as $$
declare r record;
begin
  for r in delete from saved_index s where s.tbl = target::text returning s.def loop
    execute r.def;
  end loop;
end $$;

-- ---- staff, desks, channels, taxonomy, promotional content ----

insert into users (user_id, subject, email, name, scopes, role, is_internal, position, first_login, last_login)
select pg_temp.oid24(n, 'u'), 'ad|bench-staff-' || n, 'staff' || n || '@insights.example', 'Staff ' || n,
       '{insights:content-edit}', 'Contributor', true, 'Analyst', :'t0', :'t0'
from generate_series(1, 200) n;
insert into desk (desk_id, name, email) select pg_temp.oid24(n, 'd'), 'Desk ' || n, 'desk' || n || '@insights.example' from generate_series(1, 10) n;
insert into desk_contributor select pg_temp.oid24(d, 'd'), pg_temp.oid24((d - 1) * 20 + k + 1, 'u') from generate_series(1, 10) d, generate_series(0, 19) k;

create temp table ch as
select n, pg_temp.oid24(n, 'c') as channel_id,
       case when n <= 38 then 'premium' when n <= 45 then 'freeOpen' else 'freeClosed' end as type
from generate_series(1, 50) n;
insert into channel (channel_id, name, description, type, owner_type, owner_desk_id, price, gl_account, created_at)
select channel_id, 'Channel ' || n, 'Research channel ' || n, type, 'desk', pg_temp.oid24(n % 10 + 1, 'd'),
       case when type = 'premium' then 49 + n end, case when type = 'premium' then 'GL-' || n end, :'t0'::timestamptz - interval '3 years'
from ch;

insert into promotional_content (promotional_content_id, name, link, sidebar_image, expiry_date)
select pg_temp.oid24(n, 'p'), 'Promotion ' || n, 'https://www.example.com/promo/' || n, null,
       case when n % 4 = 0 then :'t0'::timestamptz - interval '30 days' when n % 4 = 1 then null else :'t0'::timestamptz + interval '1 year' end
from generate_series(1, 20) n;
-- 10 sectors (root topics) with 49 topics each; a few topics locked.
insert into category (category_id, name, description, parent_id, is_featured, is_locked)
select pg_temp.oid24(n, 't'), 'Sector ' || n, 'Sector ' || n, null, true, false from generate_series(1, 10) n;
insert into category (category_id, name, description, parent_id, is_locked, promotional_content_id)
select pg_temp.oid24(n, 't'), 'Topic ' || n, 'Topic ' || n, pg_temp.oid24((n - 11) % 10 + 1, 't'), n % 50 = 0,
       case when n % 7 = 0 then pg_temp.oid24(n % 20 + 1, 'p') end
from generate_series(11, 500) n;
insert into tag (tag_id, name, description) select pg_temp.oid24(n, 'g'), 'Tag ' || n, 'Tag ' || n from generate_series(1, 200) n;

-- ---- text ----

-- 5,000 made-up words of three syllables (8,000 possible: none is a search term below), plus market
-- words; and 10,000 sentences of 12 of them.
create temp table word as
select n, case when n <= 30 then (array['oil','gas','brent','crude','lng','refining','diesel','gold','silver','wheat',
  'corn','soy','coal','power','carbon','freight','tanker','yield','rates','inflation','equity','credit','bond',
  'dollar','euro','opec','shale','nickel','lithium','steel'])[n]
  else (array['ka','lo','mi','ne','ru','sa','te','vi','zo','ba','de','fu','ga','hi','jo','pe','qu','ri','so','tu'])[n % 20 + 1]
    || (array['ka','lo','mi','ne','ru','sa','te','vi','zo','ba','de','fu','ga','hi','jo','pe','qu','ri','so','tu'])[(n / 20) % 20 + 1]
    || (array['ka','lo','mi','ne','ru','sa','te','vi','zo','ba','de','fu','ga','hi','jo','pe','qu','ri','so','tu'])[(n / 400) % 20 + 1]
  end as w
from generate_series(1, 5000) n;
create unique index on word (n);
create temp table sentence as
select s, array_agg(w order by k) as words
from generate_series(1, 10000) s cross join generate_series(1, 12) k
join word on word.n = pg_temp.h(s || 'w' || k, 5000) + 1
group by s;
alter table sentence add column txt text;
update sentence set txt = initcap(words[1]) || ' ' || array_to_string(words[2:12], ' ') || '.';
create unique index on sentence (s);
analyze word, sentence;

-- ---- articles ----

-- i ≤ 100,000: published (i = 1 newest); above: 5,000 pending, 5,000 archived.
create temp table art as
select i, pg_temp.oid24(i, 'a') as article_id, c.n as channel, c.channel_id, c.type as channel_type,
       case when c.type <> 'premium' then 'open'
            when i % 20 < 14 then 'premium' when i % 20 < 17 then 'expiring' else 'open' end as access,
       i % 100 = 42 as long
from generate_series(1, 110000) i
join ch c on c.n = pg_temp.h(i || 'c', 50) + 1;
create unique index on art (i);

-- The per-state totals are counted once afterwards, not updated row by row (one row updated
-- 110,000 times in a transaction slows down quadratically).
alter table article disable trigger article_state_count_change;
do $$ begin perform pg_temp.drop_indexes('article'); end $$;
insert into article (article_id, title, summary, html, body_text, state, created_at, publish_date, was_published_previously,
                     premium_channel_id, published_by_desk_id, is_premium, premium_expiry_offset, author_id,
                     show_watermark, display_in_chart_section, is_pinned)
select a.article_id, initcap(array_to_string(t.words[1:6], ' ')), array_to_string(m.words, ' ') || '.',
       '<p>' || b.body || '</p>', b.body,
       case when a.i <= 100000 then 'Published' when a.i <= 105000 then 'Pending' else 'Archived' end,
       pg_temp.published(a.i % 100000, :'t0') - interval '1 day',
       case when a.i <= 100000 or a.i > 105000 then pg_temp.published(a.i % 100000, :'t0') end,
       a.i > 105000,
       a.channel_id, pg_temp.oid24(a.channel % 10 + 1, 'd'), a.access <> 'open',
       case when a.access = 'expiring' then (array['3d', '1w', '1m'])[a.i % 3 + 1] end,
       pg_temp.oid24(a.i % 200 + 1, 'u'),
       a.i % 50 = 0, a.i % 25 = 0, a.i % 5000 = 1
from art a
join sentence t on t.s = pg_temp.h(a.i || 't', 10000) + 1
join sentence m on m.s = pg_temp.h(a.i || 'm', 10000) + 1
cross join lateral (
  select string_agg(s.txt
           || case when k = 5 then concat(case when a.i % 20 = 7 then ' copper' end,
                                          case when a.i % 5000 = 123 then ' molybdenum' end,
                                          case when a.i % 333 = 17 then ' iron ore' end,
                                          case when a.i % 97 = 5 then ' iron' end)
                   when k = 8 and a.i % 89 = 3 then ' ore'
                   else '' end,
           ' ' order by k)
  from generate_series(1, case when a.long then 420 else 10 end) k
  join sentence s on s.s = pg_temp.h(a.i || 'b' || k, 10000) + 1
) b(body);

do $$ begin perform pg_temp.restore_indexes('article'); end $$;
alter table article enable trigger article_state_count_change;
update article_state_count s set articles = (select count(*) from article a where a.state = s.state);

-- No server has kept a card yet, so the links need not move the articles' card revisions: moving
-- them would rewrite every published article three times (a long load, and a bloated table).
alter table article_category disable trigger article_card_links_insert;
alter table article_tag disable trigger article_card_links_insert;
alter table article_promotional_content disable trigger article_card_promotions_insert;
insert into article_category select a.article_id, pg_temp.oid24(11 + (a.i * 3 + k * 37) % 490, 't') from art a, generate_series(0, 2) k;
insert into article_tag select a.article_id, pg_temp.oid24(1 + (a.i * 7 + k * 11) % 200, 'g') from art a, generate_series(0, 2) k;
insert into article_contributor select a.article_id, pg_temp.oid24((a.i + k * 100) % 200 + 1, 'u') from art a, generate_series(0, 1) k where k = 0 or a.i % 3 = 0;
insert into article_promotional_content select a.article_id, pg_temp.oid24(a.i % 20 + 1, 'p') from art a where a.i % 10 = 0;
alter table article_category enable trigger article_card_links_insert;
alter table article_tag enable trigger article_card_links_insert;
alter table article_promotional_content enable trigger article_card_promotions_insert;

-- ---- readers ----

insert into users (user_id, subject, email, name, company, scopes, role, first_login, last_login)
select pg_temp.oid24(n, 'r'), 'bench-reader|' || n, 'reader' || n || '@client.example', 'Reader ' || n, 'Client ' || n % 500,
       '{insights:content-reader}', 'Subscriber', :'t0'::timestamptz - (n % 700) * interval '1 day', :'t0'::timestamptz - (n % 30) * interval '1 day'
from generate_series(1, 10000) n;

-- 1–5 subscriptions each (distinct channels: offsets 0, 13, 26, 39, 52 ≡ 2 mod 50).
insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state, subscribed, created_at, cancel_at,
                                  cancel_at_period_end, price_per_month, is_full_article_content, account_number, billing_method,
                                  trial_duration, next_payment)
select c.channel_id, pg_temp.oid24(r.n, 'r'), s.type, s.state, s.state = 'active', s.created,
       case when s.type = 'trial' then s.created + interval '14 days'
            when s.state = 'canceled' then s.created + interval '60 days'
            when s.state = 'active' and s.h % 10 = 0 then :'t0'::timestamptz + interval '20 days' end,
       s.state = 'active' and s.h % 10 = 0,
       case when c.type = 'premium' and s.type not in ('trial', 'free', 'nonCharge') then 49 + c.n end,
       s.h % 10 <> 1,
       case when s.type = 'account' then 'ACC-' || r.n end,
       case when s.type = 'external' then 'Invoice' end,
       case when s.type = 'trial' then 14 end,
       case when s.type = 'stripe' and s.state = 'active' then :'t0'::timestamptz + (r.n % 30) * interval '1 day' end
from generate_series(1, 10000) r(n)
cross join generate_series(0, 4) k
join ch c on c.n = 1 + (r.n * 7 + k * 13) % 50
cross join lateral (
  select h,
         case when h < 65 then 'active' when h < 75 then 'canceled' when h < 85 then 'expired'
              when h < 90 then 'pending' when h < 95 then 'paymentFailed' else 'rejected' end as state,
         case when c.type <> 'premium' then 'free'
              else (array['stripe','stripe','stripe','stripe','account','external','nonCharge','trial','trial','stripe'])[h % 10 + 1] end as type,
         :'t0'::timestamptz - (30 + pg_temp.h(r.n || 'd' || k, 700)) * interval '1 day' as created
  from (select pg_temp.h(r.n || 's' || k, 100) as h) x
) s
where k < 1 + r.n % 5;
insert into category_follow (category_id, user_id)
select pg_temp.oid24(11 + (r.n * 13 + k * 101) % 490, 't'), pg_temp.oid24(r.n, 'r')
from generate_series(1, 10000) r(n), generate_series(0, 2) k where k < r.n % 4;

-- The benchmark's reader: active in 5 premium channels (one summaries-only), a trial, a canceled
-- one, and two free channels; 3 followed topics.
insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state, subscribed, cancel_at,
                                  price_per_month, is_full_article_content, trial_duration)
select c.channel_id, u.user_id,
       case when c.n = 7 then 'trial' when c.type = 'premium' then 'stripe' else 'free' end,
       case when c.n = 6 then 'canceled' else 'active' end, c.n <> 6,
       case when c.n = 7 then :'t0'::timestamptz + interval '10 days' when c.n = 6 then :'t0'::timestamptz - interval '10 days' end,
       case when c.type = 'premium' and c.n <> 7 then 49 + c.n end, c.n <> 5,
       case when c.n = 7 then 14 end
from users u, ch c where u.email = :'bench_email' and c.n in (1, 2, 3, 4, 5, 6, 7, 39, 46);
insert into category_follow (category_id, user_id)
select pg_temp.oid24(n, 't'), u.user_id from users u, (values (11), (12), (13)) t(n) where u.email = :'bench_email';

-- ---- views ----

do $$ begin perform pg_temp.drop_indexes('article_view_event'); perform pg_temp.drop_indexes('article_view_day'); perform pg_temp.drop_indexes('article_view'); end $$;
-- 250,000 sessions of 4 views of distinct articles; 30% of sessions on the 2,000 newest articles.
-- A view falls between the article's publication and t0, most of them soon after it.
insert into article_view_event (article_id, user_id, session_id, kind, view_type, source, viewed_at)
select pg_temp.oid24(v.a, 'a'), pg_temp.oid24(pg_temp.h(v.s || 'u', 10000) + 1, 'r'), 'bench-' || v.s,
       case when pg_temp.h(v.e || 'k', 10) < 8 then 'full' else 'preview' end, 'article',
       (array['for-you', 'search', 'email', 'channel', null])[v.e % 5 + 1],
       pg_temp.published(v.a, :'t0') + (v.a * interval '630.72 seconds') * power(pg_temp.h(v.e || 't', 1000000) / 1e6, 3)
from (
  select e, s, 1 + (base - 1 + (e % 4) * 17) % 100000 as a
  from (select e, e / 4 as s from generate_series(0, 999999) e) x
  cross join lateral (select case when pg_temp.h(s || 'p', 10) < 3 then 1 + pg_temp.h(s || 'a', 2000)
                                  else 1 + pg_temp.h(s || 'a', 100000) end as base) y
) v;
-- The benchmark's reader has read the 10 newest articles of channels 1 and 2 twice (two sessions).
insert into article_view_event (article_id, user_id, session_id, kind, view_type, viewed_at)
select a.article_id, u.user_id, 'bench-me-' || k, 'full', 'article', least(:'t0'::timestamptz, a.publish_date + k * interval '1 minute')
from users u
cross join lateral (select article_id, publish_date from article where state = 'Published' and premium_channel_id in (select channel_id from ch where n in (1, 2))
                    order by publish_date desc limit 10) a
cross join generate_series(1, 2) k
where u.email = :'bench_email';

insert into article_view_day (article_id, day, full_views, preview_views)
select article_id, (viewed_at at time zone 'UTC')::date, count(*) filter (where kind = 'full'), count(*) filter (where kind = 'preview')
from article_view_event group by 1, 2;
insert into article_view (article_id, user_id, views, last_viewed)
select article_id, user_id, count(*), max(viewed_at) from article_view_event where kind = 'full' group by 1, 2;

do $$ begin perform pg_temp.restore_indexes('article_view_event'); perform pg_temp.restore_indexes('article_view_day'); perform pg_temp.restore_indexes('article_view'); end $$;

select to_char(clock_timestamp() - :'load_started'::timestamptz, 'MI:SS') as took \gset
\echo Rows and indexes loaded in :took (min:s); vacuum analyze next
vacuum analyze;
