-- Promotional content and promotion pages (spec 2 'Promotional content', 'Promotion pages', §5;
-- issue 14): the landing page a promotional content can open, where each one leads, and how often
-- it is seen and followed.

-- A landing page with a 'Register interest' button; interest goes to `teams_channel` (a Microsoft
-- Teams incoming-webhook URL or an email address).
create table promotion_page (
    promotion_page_id text primary key check (promotion_page_id ~ '^[0-9a-f]{24}$'),
    name            text not null check (length(name) between 1 and 100),
    -- Sanitised like an article's html before it is stored.
    html            text not null check (length(html) >= 1),
    teams_channel   text not null check (length(teams_channel) between 1 and 2000),
    page_summary    text not null check (length(page_summary) between 1 and 200),
    -- An upload's name (the image cropped to 2:1 in the browser).
    social_sharing_image_url text not null check (length(social_sharing_image_url) between 1 and 200),
    success_title   text not null check (length(success_title) between 1 and 200),
    success_message text not null check (length(success_message) between 1 and 200),
    version         integer not null default 1,
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now()
);
select trigger_updated_at('promotion_page');
create index promotion_page_name_idx on promotion_page (lower(name), promotion_page_id);

-- Where a promotional content leads: an external link or a promotion page, never both (the form's
-- destination choice). A page in use cannot be deleted (spec 2 §4).
alter table promotional_content
    add column promotion_page_id text references promotion_page (promotion_page_id) on delete restrict,
    add constraint promotional_content_one_destination check (num_nonnulls(link, promotion_page_id) <= 1);
create index promotional_content_promotion_page_idx on promotional_content (promotion_page_id)
    where promotion_page_id is not null;
create index promotional_content_name_idx on promotional_content (lower(name), promotional_content_id);
create index promotional_content_expiry_idx on promotional_content (expiry_date);
create index category_promotional_content_idx on category (promotional_content_id)
    where promotional_content_id is not null;

-- Impressions (the article sidebar, once per page view when visible) and clicks, per day.
create table promotional_content_day (
    promotional_content_id text not null references promotional_content (promotional_content_id) on delete cascade,
    day             date not null,
    impressions     bigint not null default 0 check (impressions >= 0),
    clicks          bigint not null default 0 check (clicks >= 0),
    primary key (promotional_content_id, day)
);
