-- Revision history of articles and their publication times (issue 40).
--
-- Every save, publish, archive and restore of an article keeps a revision: what readers would see
-- (title, summary, body, topics, tags, contributors, channel, premium flags, state, publish date),
-- who and when. Bodies are kept once per distinct text (`article_body`, by SHA-256, compressed by
-- PostgreSQL with lz4): a save that leaves the body as it was adds no body. The revisions are
-- records for auditors: append-only, like the audit trail.
--
-- `first_published_at` is when the article first reached readers; it never changes once set, even
-- through archive and republish (a trigger keeps it). `content_updated_at` is the last time a
-- publication changed what readers see (title, summary or body) after the first.

alter table article
    add column first_published_at timestamptz,
    add column content_updated_at timestamptz;

create function article_first_published_kept() returns trigger language plpgsql as $$
begin
    if old.first_published_at is not null then
        new.first_published_at := old.first_published_at;
    end if;
    return new;
end
$$;
create trigger article_first_published_kept before update of first_published_at on article
    for each row execute function article_first_published_kept();

create table article_body (
    body_hash       bytea primary key check (length(body_hash) = 32),
    html            text not null
);
alter table article_body alter column html set compression lz4;

create table article_revision (
    revision_id             text primary key check (revision_id ~ '^[0-9a-f]{24}$'),
    -- No foreign key: the record outlives the article (the product never deletes one; an
    -- operator's SQL might, and the history must still tell what it said).
    article_id              text not null,
    -- 1, 2, 3... per article.
    number                  integer not null check (number >= 1),
    created_at              timestamptz not null default now(),
    created_by              text references users (user_id) on delete set null,
    -- 'migrated': the article as it was when revisions began.
    action                  text not null check (action in ('add', 'save', 'publish', 'archive', 'restore', 'migrated')),
    -- The article's version this revision is.
    article_version         integer not null,
    state                   text not null,
    title                   text not null,
    summary                 text,
    body_hash               bytea not null references article_body (body_hash),
    premium_channel_id      text,
    is_premium              boolean not null,
    premium_expiry_offset   text,
    publish_date            timestamptz,
    topics                  text[] not null default '{}',
    tags                    text[] not null default '{}',
    contributors            text[] not null default '{}',
    -- The revision a restore brought back.
    restored_from           integer,
    unique (article_id, number)
);
create index article_revision_published_idx on article_revision (article_id, number desc) where state = 'Published';

create function article_revision_append_only() returns trigger language plpgsql as $$
begin
    raise exception 'article revisions are append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end
$$;
create trigger article_revision_no_update before update or delete on article_revision
    for each row execute function article_revision_append_only();
create trigger article_revision_no_truncate before truncate on article_revision
    for each statement execute function article_revision_append_only();
revoke update, delete, truncate on article_revision from public;

-- What articles were when revisions began, and when the published ones first reached readers
-- (their publish date is the best record there is). Not changes anyone made: not audited.
alter table article disable trigger audit;
update article set first_published_at = publish_date
where (state = 'Published' or was_published_previously) and publish_date is not null;
alter table article enable trigger audit;

insert into article_body (body_hash, html)
select distinct sha256(convert_to(html, 'UTF8')), html from article
on conflict (body_hash) do nothing;

insert into article_revision (revision_id, article_id, number, created_at, created_by, action, article_version, state, title,
                              summary, body_hash, premium_channel_id, is_premium, premium_expiry_offset, publish_date,
                              topics, tags, contributors)
select substr(md5(a.article_id || ':revision'), 1, 24), a.article_id, 1, a.updated_at, null, 'migrated', a.version, a.state,
       a.title, a.summary, sha256(convert_to(a.html, 'UTF8')), a.premium_channel_id, a.is_premium, a.premium_expiry_offset,
       a.publish_date,
       array(select c.category_id from article_category c where c.article_id = a.article_id order by c.category_id),
       array(select t.tag_id from article_tag t where t.article_id = a.article_id order by t.tag_id),
       array(select ac.user_id from article_contributor ac where ac.article_id = a.article_id order by ac.user_id)
from article a;
