-- A reader's reading revision, for what servers keep of their For You page: the topics they follow
-- and their recommendations, which leave out the articles they have read twice. Moved in the
-- writing transaction (like 0019's subscriptions revision) by a change to their follows, and by a
-- view that makes an article one they have read twice (not by every view).

create table user_reading_revision (
    user_id     text primary key references users (user_id) on delete cascade,
    revision    bigint not null
);

-- Readers in id order, so that two statements over many readers take their rows in one order. A
-- reader's deletion cascades to their follows and views, whose triggers then find them gone.
create function bump_reading_revision(user_ids text[]) returns void language sql as $$
    insert into user_reading_revision (user_id, revision)
    select u.user_id, 1 from users u where u.user_id = any(user_ids) order by u.user_id
    on conflict (user_id) do update set revision = user_reading_revision.revision + 1;
$$;

create function follows_changed() returns trigger language plpgsql as $$
begin
    perform bump_reading_revision(array(select distinct user_id from changed));
    return null;
end $$;

create trigger reading_revision_follow_insert after insert on category_follow
    referencing new table as changed for each statement execute function follows_changed();
create trigger reading_revision_follow_delete after delete on category_follow
    referencing old table as changed for each statement execute function follows_changed();

-- One branch per operation: a statement may name only the transition tables its trigger has.
create function read_twice_changed() returns trigger language plpgsql as $$
begin
    if tg_op = 'INSERT' then
        perform bump_reading_revision(array(select distinct user_id from new_rows where views >= 2));
    elsif tg_op = 'DELETE' then
        perform bump_reading_revision(array(select distinct user_id from old_rows where views >= 2));
    else
        perform bump_reading_revision(array(
            select distinct n.user_id from old_rows o join new_rows n using (article_id, user_id)
            where (o.views >= 2) <> (n.views >= 2)));
    end if;
    return null;
end $$;

create trigger reading_revision_view_insert after insert on article_view
    referencing new table as new_rows for each statement execute function read_twice_changed();
create trigger reading_revision_view_update after update on article_view
    referencing old table as old_rows new table as new_rows for each statement execute function read_twice_changed();
create trigger reading_revision_view_delete after delete on article_view
    referencing old table as old_rows for each statement execute function read_twice_changed();

-- Kept pages of free articles hold until the next premium period ends (src/reading/cache.rs).
create index article_premium_expires_idx on article (premium_expires_at) where state = 'Published' and is_premium;
