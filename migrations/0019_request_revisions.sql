-- Two more revisions for what servers keep in memory (read with the topics' revision in one
-- statement per request, src/revisions.rs), each moved in the writing transaction like those of
-- 0003 and 0017, so a kept value is never served past the snapshot that changed it:
--   content_revision: which published articles there are and everything reader lists select and
--     order them by (kept search pages and counts);
--   user_subscriptions_revision: one reader's channel subscriptions (kept per reader).

create table content_revision (
    singleton   boolean primary key default true check (singleton),
    revision    bigint not null default 0
);
insert into content_revision default values;

-- A statement that touched a published article (before or after it) moves the revision. Every
-- change to an article's links, topics' and tags' names, its channel or its publisher moves the
-- published article's card revision (0018), so this trigger sees them too.
create function published_articles_changed() returns trigger language plpgsql as $$
declare
    touched boolean;
begin
    -- One branch per operation: a statement may name only the transition tables its trigger has.
    if tg_op = 'INSERT' then
        touched := exists (select from new_rows where state = 'Published');
    elsif tg_op = 'DELETE' then
        touched := exists (select from old_rows where state = 'Published');
    else
        touched := exists (select from old_rows where state = 'Published') or exists (select from new_rows where state = 'Published');
    end if;
    if touched then
        update content_revision set revision = revision + 1;
    end if;
    return null;
end $$;

create trigger content_revision_insert after insert on article
    referencing new table as new_rows for each statement execute function published_articles_changed();
create trigger content_revision_update after update on article
    referencing old table as old_rows new table as new_rows for each statement execute function published_articles_changed();
create trigger content_revision_delete after delete on article
    referencing old table as old_rows for each statement execute function published_articles_changed();

-- Contributors filter a search but are not on the card: their links move the revision directly.
create function published_contributors_changed() returns trigger language plpgsql as $$
begin
    if exists (select from changed x join article a using (article_id) where a.state = 'Published') then
        update content_revision set revision = revision + 1;
    end if;
    return null;
end $$;

create trigger content_revision_contributor_insert after insert on article_contributor
    referencing new table as changed for each statement execute function published_contributors_changed();
create trigger content_revision_contributor_delete after delete on article_contributor
    referencing old table as changed for each statement execute function published_contributors_changed();

-- A reader's deletion cascades to their subscriptions, whose trigger then runs after the reader is
-- gone: the join with `users` below skips them (their row here goes with them).
create table user_subscriptions_revision (
    user_id     text primary key references users (user_id) on delete cascade,
    revision    bigint not null
);

-- Readers in id order, so that two statements over many readers take their rows in one order.
create function bump_subscriptions_revision(user_ids text[]) returns void language sql as $$
    insert into user_subscriptions_revision (user_id, revision)
    select u.user_id, 1 from users u where u.user_id = any(user_ids) order by u.user_id
    on conflict (user_id) do update set revision = user_subscriptions_revision.revision + 1;
$$;

create function channel_subscriptions_changed() returns trigger language plpgsql as $$
begin
    if tg_op = 'UPDATE' then
        perform bump_subscriptions_revision(array(select user_id from new_rows union select user_id from old_rows));
    else
        perform bump_subscriptions_revision(array(select distinct user_id from changed));
    end if;
    return null;
end $$;

create trigger subscriptions_revision_insert after insert on channel_subscription
    referencing new table as changed for each statement execute function channel_subscriptions_changed();
create trigger subscriptions_revision_update after update on channel_subscription
    referencing old table as old_rows new table as new_rows for each statement execute function channel_subscriptions_changed();
create trigger subscriptions_revision_delete after delete on channel_subscription
    referencing old table as changed for each statement execute function channel_subscriptions_changed();

-- A reader's subscriptions show their channels' names and types.
create function subscribed_channel_changed() returns trigger language plpgsql as $$
begin
    perform bump_subscriptions_revision(array(
        select distinct s.user_id from old_rows o join new_rows n using (channel_id)
        join channel_subscription s on s.channel_id = n.channel_id
        where (o.name collate "C", o.type) is distinct from (n.name collate "C", n.type)));
    return null;
end $$;

create trigger subscriptions_revision_channel_changed after update on channel
    referencing old table as old_rows new table as new_rows for each statement execute function subscribed_channel_changed();
