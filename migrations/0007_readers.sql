-- Readers (spec 3 §2–§9, the reader issue): when premium access to an article ends, the reader
-- lists' indexes, every view as an event with its per-day totals (trending), registered interest.
-- The ranked-search index (RUM) is created at start-up when the extension is installed
-- (`search::ensure_ranked_index`), so a server without it still starts.

-- ---- articles ----

-- publish date + premium expiry offset, as `premium_expires_at` computes it in Rust (whole UTC days
-- and months, clamped to the end of a shorter month); null: no expiry or not published.
alter table article
    add column premium_expires_at timestamptz generated always as (
        case premium_expiry_offset
            when '3d' then (publish_date at time zone 'UTC' + interval '3 days') at time zone 'UTC'
            when '1w' then (publish_date at time zone 'UTC' + interval '7 days') at time zone 'UTC'
            when '1m' then (publish_date at time zone 'UTC' + interval '1 month') at time zone 'UTC'
        end) stored;

-- Reader lists: published articles newest first, everywhere and per channel, publisher and chart section.
create index article_published_idx on article (publish_date desc, article_id desc) where state = 'Published';
create index article_channel_published_idx on article (premium_channel_id, publish_date desc, article_id desc)
    where state = 'Published';
create index article_desk_published_idx on article (published_by_desk_id, publish_date desc, article_id desc)
    where state = 'Published';
create index article_charts_idx on article (premium_channel_id, publish_date desc, article_id desc)
    where state = 'Published' and display_in_chart_section;
-- Pinned first, then newest (search with pinnedFirst).
create index article_pinned_published_idx on article (is_pinned, publish_date, article_id) where state = 'Published';

-- ---- views ----

-- Every view of an article by a reader: one row per article, reader, browser session and kind, so
-- a reload in the same session is not counted twice. 'full': the article was shown whole;
-- 'preview': only its teaser (the reader may not read it in full).
create table article_view_event (
    event_id        bigint generated always as identity primary key,
    article_id      text not null references article (article_id) on delete cascade,
    user_id         text not null references users (user_id) on delete cascade,
    session_id      text not null check (length(session_id) between 1 and 100),
    kind            text not null check (kind in ('full', 'preview')),
    -- Where it was shown: 'article' or 'marketing-article'.
    view_type       text not null check (length(view_type) between 1 and 50),
    -- How the reader came: 'campaign', 'email', 'search', ... (spec 2 §3 'Article view stat').
    source          text check (length(source) <= 50),
    source_id       text check (length(source_id) <= 100),
    source_detail   text check (length(source_detail) <= 200),
    -- Set only for a campaign of this article.
    campaign_id     text references campaign (campaign_id) on delete set null,
    viewed_at       timestamptz not null default now(),
    constraint article_view_event_session_key unique (article_id, user_id, session_id, kind)
);
create index article_view_event_user_id_idx on article_view_event (user_id);
create index article_view_event_campaign_id_idx on article_view_event (campaign_id) where campaign_id is not null;
create index article_view_event_viewed_at_idx on article_view_event (viewed_at);

-- Views per article and UTC day, written with each counted event: trending ('most viewed in the
-- last 30 days') sums 30 days of these rows instead of counting a month of events.
create table article_view_day (
    article_id      text not null references article (article_id) on delete cascade,
    day             date not null,
    full_views      integer not null default 0 check (full_views >= 0),
    preview_views   integer not null default 0 check (preview_views >= 0),
    primary key (article_id, day)
);
create index article_view_day_day_idx on article_view_day (day, article_id) include (full_views, preview_views);

-- ---- interest ----

-- A reader asking to be told about a premium article they may not read; the email issue delivers
-- it to the desk (`notified_at` set once sent).
create table article_interest (
    article_id      text not null references article (article_id) on delete cascade,
    user_id         text not null references users (user_id) on delete cascade,
    registered_at   timestamptz not null default now(),
    notified_at     timestamptz,
    primary key (article_id, user_id)
);
create index article_interest_pending_idx on article_interest (registered_at) where notified_at is null;
create index article_interest_user_id_idx on article_interest (user_id);

-- ---- subscriptions ----

-- A reader's active subscriptions (the entitlement check reads them on every reader request).
create index channel_subscription_user_active_idx on channel_subscription (user_id, channel_id)
    where subscription_state = 'active';
