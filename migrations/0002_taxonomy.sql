-- Taxonomy: topics (the spec's Category), tags, topic follows; and the first columns of the
-- article tables that taxonomy counts are computed from (the article issue adds the rest).

create extension if not exists pg_trgm;

-- Promotional content: the summary that topics link to (its administration comes later).
create table promotional_content (
    promotional_content_id text primary key check (promotional_content_id ~ '^[0-9a-f]{24}$'),
    name            text not null check (length(name) between 1 and 50),
    description     text not null default '' check (length(description) <= 250),
    link            text,
    article_image   text,
    sidebar_image   text,
    expiry_date     timestamptz,
    version         integer not null default 1,
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now()
);
select trigger_updated_at('promotional_content');

create table category (
    category_id     text primary key check (category_id ~ '^[0-9a-f]{24}$'),
    name            text collate case_insensitive not null check (length(name) between 1 and 100 and name = btrim(name)),
    description     text not null check (length(description) between 1 and 500),
    parent_id       text references category (category_id) on delete restrict,
    -- A sector is a root topic.
    is_featured     boolean not null default false check (not (is_featured and parent_id is not null)),
    small_image     text check (length(small_image) <= 200),
    large_image     text check (length(large_image) <= 200),
    promotional_content_id text references promotional_content (promotional_content_id) on delete set null,
    is_locked       boolean not null default false,
    is_premium      boolean not null default false,
    version         integer not null default 1 check (version >= 1),
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now(),
    check (parent_id is distinct from category_id),
    -- Names are unique among siblings, ignoring case (the collation) and surrounding spaces (trimmed).
    constraint category_sibling_name_key unique nulls not distinct (parent_id, name)
);
select trigger_updated_at('category');
create index category_parent_id_idx on category (parent_id);

create table tag (
    tag_id          text primary key check (tag_id ~ '^[0-9a-f]{24}$'),
    name            text collate case_insensitive not null check (length(name) between 1 and 50 and name = btrim(name)),
    description     text not null check (length(description) between 1 and 500),
    version         integer not null default 1 check (version >= 1),
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now(),
    constraint tag_name_key unique (name)
);
select trigger_updated_at('tag');
-- Admin search matches anywhere in name or description. LIKE needs a deterministic collation,
-- hence `collate "default"` on the case-insensitive name (queries use the same expression).
create index tag_search_idx on tag using gin ((lower(name collate "default") || ' ' || lower(description)) gin_trgm_ops);

-- A reader following a topic.
create table category_follow (
    category_id     text not null references category (category_id) on delete cascade,
    user_id         text not null references users (user_id) on delete cascade,
    created_at      timestamptz not null default now(),
    primary key (category_id, user_id)
);
create index category_follow_user_id_idx on category_follow (user_id);

-- Articles: the columns taxonomy needs now; the article issue adds the rest.
create table article (
    article_id      text primary key check (article_id ~ '^[0-9a-f]{24}$'),
    title           text not null check (length(title) between 1 and 500),
    state           text not null default 'Pending' check (state in ('Pending', 'ReadyForReview', 'Published', 'Archived')),
    version         integer not null default 1 check (version >= 1),
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now()
);
select trigger_updated_at('article');

-- Deleting a topic or tag removes it from its articles (the articles stay).
create table article_category (
    article_id      text not null references article (article_id) on delete cascade,
    category_id     text not null references category (category_id) on delete cascade,
    primary key (article_id, category_id)
);
create index article_category_category_id_idx on article_category (category_id);

create table article_tag (
    article_id      text not null references article (article_id) on delete cascade,
    tag_id          text not null references tag (tag_id) on delete cascade,
    primary key (article_id, tag_id)
);
create index article_tag_tag_id_idx on article_tag (tag_id);

create table article_contributor (
    article_id      text not null references article (article_id) on delete cascade,
    user_id         text not null references users (user_id) on delete restrict,
    primary key (article_id, user_id)
);
create index article_contributor_user_id_idx on article_contributor (user_id);

-- Per reader: how often and when they last viewed an article.
create table article_view (
    article_id      text not null references article (article_id) on delete cascade,
    user_id         text not null references users (user_id) on delete cascade,
    views           integer not null default 1 check (views > 0),
    last_viewed     timestamptz not null default now(),
    primary key (article_id, user_id)
);
create index article_view_user_id_idx on article_view (user_id);
