-- Who may read an upload file (issue 35 item 1). A file's class is decided when something links
-- it, by the triggers below, so that every saving path (the API, the demo, imports) records it:
-- - public: linked from something every visitor is shown (a channel's or topic's images, a
--   promotional content's or promotion page's images, a contributor photo). Once public it stays
--   public: it may have been cached anywhere.
-- - an article's: linked from article bodies (PDF pages, images), listed in upload_article; served
--   to staff, and to readers through a short-lived signed URL that the article page gives only to
--   a reader the entitlement rule lets see the article in full.
-- - otherwise (just uploaded, in a template only, no row at all): staff only.

create table upload (
    name        text primary key check (name ~ '^([0-9a-f]{24}|[0-9a-f]{32})\.(png|jpg|gif)$'),
    is_public   boolean not null default false,
    created_at  timestamptz not null default now()
);

create table upload_article (
    name        text not null references upload (name) on delete cascade,
    article_id  text not null references article (article_id) on delete cascade,
    primary key (name, article_id)
);
create index upload_article_article_id_idx on upload_article (article_id);

-- New names are 128 random bits (32 hex); the old ones (24 hex, id-shaped) stay valid.
alter table users drop constraint users_profile_picture_check,
    add constraint users_profile_picture_check check (profile_picture ~ '^([0-9a-f]{24}|[0-9a-f]{32})\.(png|jpg)$');

-- The upload names a value holds: a bare name, a `/uploads/<name>` link, or html with such links.
create function upload_names(value text) returns setof text language sql immutable as $$
    select distinct m[1]
    from regexp_matches(coalesce(value, ''), '(?<![0-9a-f])((?:[0-9a-f]{32}|[0-9a-f]{24})\.(?:png|jpg|gif))', 'g') m;
$$;

-- The columns named by the trigger's arguments hold public files.
create function mark_uploads_public() returns trigger language plpgsql as $$
declare
    saved jsonb := to_jsonb(new);
    column_name text;
begin
    foreach column_name in array tg_argv loop
        insert into upload (name, is_public)
        select name, true from upload_names(saved ->> column_name) name
        on conflict (name) do update set is_public = true where not upload.is_public;
    end loop;
    return null;
end $$;

create trigger upload_public_channel after insert or update of profile_image, cover_image on channel
    for each row execute function mark_uploads_public('profile_image', 'cover_image');
create trigger upload_public_category after insert or update of small_image, large_image on category
    for each row execute function mark_uploads_public('small_image', 'large_image');
create trigger upload_public_promotional_content after insert or update of article_image, sidebar_image on promotional_content
    for each row execute function mark_uploads_public('article_image', 'sidebar_image');
create trigger upload_public_promotion_page after insert or update of social_sharing_image_url, html on promotion_page
    for each row execute function mark_uploads_public('social_sharing_image_url', 'html');
create trigger upload_public_users after insert or update of profile_picture on users
    for each row when (new.profile_picture is not null) execute function mark_uploads_public('profile_picture');

-- An article's files are the ones its body links now.
create function link_article_uploads() returns trigger language plpgsql as $$
begin
    delete from upload_article a where a.article_id = new.article_id and a.name not in (select upload_names(new.html));
    insert into upload (name) select upload_names(new.html) on conflict (name) do nothing;
    insert into upload_article (name, article_id) select upload_names(new.html), new.article_id on conflict do nothing;
    return null;
end $$;

create trigger upload_article_insert after insert on article
    for each row execute function link_article_uploads();
create trigger upload_article_update after update of html on article
    for each row when (old.html is distinct from new.html) execute function link_article_uploads();

-- The files linked before this migration.
insert into upload (name, is_public)
select name, true from (
    select upload_names(profile_image) name from channel
    union select upload_names(cover_image) from channel
    union select upload_names(small_image) from category
    union select upload_names(large_image) from category
    union select upload_names(article_image) from promotional_content
    union select upload_names(sidebar_image) from promotional_content
    union select upload_names(social_sharing_image_url) from promotion_page
    union select upload_names(html) from promotion_page
    union select upload_names(profile_picture) from users
) linked
on conflict (name) do update set is_public = true;

insert into upload (name) select upload_names(html) from article on conflict (name) do nothing;
insert into upload_article (name, article_id) select upload_names(html), article_id from article on conflict do nothing;
