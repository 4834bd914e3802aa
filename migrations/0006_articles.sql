-- Articles in full, templates, campaigns and the notification requests of publishing
-- (spec 2 §3 Article, Template, Campaign; the article issue).

-- ---- templates (before the article columns that point at them) ----

create table template (
    template_id     text primary key check (template_id ~ '^[0-9a-f]{24}$'),
    -- May hold the today-date placeholder, replaced when an article is started from the template.
    title           text not null check (length(title) between 1 and 500 and position(E'\n' in title) = 0),
    html            text not null default '',
    -- Unlinked (null) when the channel is archived.
    premium_channel_id text references channel (channel_id),
    author_id       text references users (user_id) on delete set null,
    version         integer not null default 1 check (version >= 1),
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now()
);
select trigger_updated_at('template');
create index template_premium_channel_id_idx on template (premium_channel_id);
create index template_title_idx on template (lower(title));

create table template_contributor (
    template_id     text not null references template (template_id) on delete cascade,
    user_id         text not null references users (user_id) on delete cascade,
    primary key (template_id, user_id)
);
create index template_contributor_user_id_idx on template_contributor (user_id);

create table template_category (
    template_id     text not null references template (template_id) on delete cascade,
    category_id     text not null references category (category_id) on delete cascade,
    primary key (template_id, category_id)
);
create index template_category_category_id_idx on template_category (category_id);

create table template_tag (
    template_id     text not null references template (template_id) on delete cascade,
    tag_id          text not null references tag (tag_id) on delete cascade,
    primary key (template_id, tag_id)
);
create index template_tag_tag_id_idx on template_tag (tag_id);

-- ---- articles ----

alter table article
    add column author_id text references users (user_id) on delete set null,
    -- Sanitised on the server before it is stored.
    add column html text not null default '',
    -- The body's text (for the TextAbsent gap and the search column).
    add column body_text text not null default '',
    add column summary text check (length(summary) <= 250),
    add column publish_date timestamptz,
    add column was_published_previously boolean not null default false,
    add column is_premium boolean not null default false,
    add column premium_expiry_offset text check (premium_expiry_offset in ('3d', '1w', '1m')),
    add column show_watermark boolean not null default false,
    add column display_in_chart_section boolean not null default false,
    add column is_pinned boolean not null default false,
    add column is_timeless boolean not null default false,
    add column template_id text references template (template_id) on delete set null,
    add column send_emails boolean not null default false,
    -- Title, summary and body text, weighted A, B, C (kept by the trigger below).
    add column search_vector tsvector not null default ''::tsvector,
    add constraint article_title_line_check check (position(E'\n' in title) = 0 and position(E'\r' in title) = 0),
    add constraint article_publisher_check check (published_by_desk_id is null or published_by_user_id is null),
    add constraint article_expiry_check check (premium_expiry_offset is null or is_premium),
    add constraint article_published_check check (state <> 'Published' or publish_date is not null);

-- Not a generated column: PostgreSQL recomputes those on every update, and the vector of a long
-- body costs tens of milliseconds; this recomputes it only when its text changes (not when an
-- article is archived, say).
create function article_search_vector() returns trigger language plpgsql as $$
begin
    if tg_op = 'UPDATE' and new.title = old.title and new.summary is not distinct from old.summary
       and new.body_text = old.body_text then
        return new;
    end if;
    new.search_vector := setweight(to_tsvector('english', new.title), 'A')
        || setweight(to_tsvector('english', coalesce(new.summary, '')), 'B')
        || setweight(to_tsvector('english', new.body_text), 'C');
    return new;
end $$;
create trigger article_search_vector before insert or update of title, summary, body_text on article
    for each row execute function article_search_vector();
create index article_search_vector_idx on article using gin (search_vector);
-- The list's default order (created, newest first) and its other orders.
create index article_created_idx on article (created_at desc, article_id desc);
create index article_state_created_idx on article (state, created_at desc, article_id desc);
create index article_updated_idx on article (updated_at desc, article_id desc);
create index article_publish_date_idx on article (publish_date desc nulls last, article_id desc);
create index article_title_idx on article (lower(title), article_id);
create index article_template_id_idx on article (template_id);
create index article_published_by_user_id_idx on article (published_by_user_id);
create index article_author_id_idx on article (author_id);

create table article_promotional_content (
    article_id      text not null references article (article_id) on delete cascade,
    promotional_content_id text not null references promotional_content (promotional_content_id) on delete cascade,
    primary key (article_id, promotional_content_id)
);
create index article_promotional_content_pc_idx on article_promotional_content (promotional_content_id);

-- The stats page lists an article's viewers by last view, newest first.
create index article_view_last_viewed_idx on article_view (article_id, last_viewed desc);

-- A publish with "notify subscribers": recorded in the publishing transaction, with a job that
-- the email notifications deliver; `processed_at` is set once delivered.
create table article_notification_request (
    request_id      bigint generated always as identity primary key,
    article_id      text not null references article (article_id) on delete cascade,
    requested_by    text references users (user_id) on delete set null,
    requested_at    timestamptz not null default now(),
    processed_at    timestamptz
);
create index article_notification_request_pending_idx on article_notification_request (requested_at) where processed_at is null;

-- A marketing campaign link to an article (spec 2 §3 Campaign).
create table campaign (
    campaign_id     text primary key check (campaign_id ~ '^[0-9a-f]{24}$'),
    article_id      text not null references article (article_id) on delete cascade,
    campaign_type   text not null check (length(campaign_type) between 1 and 50),
    created_at      timestamptz not null default now()
);
create index campaign_article_id_idx on campaign (article_id);

-- How many articles each state holds, kept by a trigger in the writing transaction: the totals of
-- the list's unfiltered tabs (All, Published, Pending, Archived) without counting every row.
create table article_state_count (
    state           text primary key,
    articles        bigint not null check (articles >= 0)
);
insert into article_state_count (state, articles)
select s.state, (select count(*) from article a where a.state = s.state)
from unnest(array['Pending', 'ReadyForReview', 'Published', 'Archived']) as s(state);

create function article_state_count_change() returns trigger language plpgsql as $$
begin
    if tg_op = 'UPDATE' and new.state = old.state then
        return null;
    end if;
    if tg_op in ('INSERT', 'UPDATE') then
        update article_state_count set articles = articles + 1 where state = new.state;
    end if;
    if tg_op in ('DELETE', 'UPDATE') then
        update article_state_count set articles = articles - 1 where state = old.state;
    end if;
    return null;
end $$;
create trigger article_state_count_change after insert or delete or update of state on article
    for each row execute function article_state_count_change();
