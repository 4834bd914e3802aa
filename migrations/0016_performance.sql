-- Issue 15's performance pass.

-- A topic's or tag's articles straight from the index (index-only scans), without visiting the
-- link rows.
create index article_category_category_article_idx on article_category (category_id, article_id);
drop index article_category_category_id_idx;
create index article_tag_tag_article_idx on article_tag (tag_id, article_id);
drop index article_tag_tag_id_idx;

-- Servers keep signed-in users in memory (src/users/cache.rs): every change to a user tells them
-- to drop their copy. A large change (an import) tells them to drop everything.
create function notify_users_changed() returns trigger language plpgsql as $$
begin
    if (select count(*) from changed) > 100 then
        perform pg_notify('insights_user_changed', '*');
    else
        perform pg_notify('insights_user_changed', subject) from changed;
    end if;
    return null;
end $$;

create trigger users_changed_update after update on users
    referencing old table as changed for each statement execute function notify_users_changed();
create trigger users_changed_delete after delete on users
    referencing old table as changed for each statement execute function notify_users_changed();
