-- One way to move each kind of revision (issue 37), instead of a copy per counter: the map of which
-- columns move which revision is code (src/kept/map.rs), tested row by row (tests/api/kept.rs),
-- and reads better over a few shared functions. The same rows move the same counters, in the same
-- writing transaction, as before.
--   bump_revision(counter): a singleton counter (taxonomy_revision 0003, topic_counts_revision 0017,
--     content_revision 0019, channels_revision 0020) moves by one;
--   revision_moved(): the trigger over it, the counter named by its first argument; with a second
--     argument 'if changed', only when the statement's transition table `changed` holds a row;
--   bump_user_revision(counter, user_ids): a per-user counter (user_subscriptions_revision 0019,
--     user_reading_revision 0021) moves for each of these users;
--   bump_article_cards(ids) (0018, 0022) stays the one way to move other articles' card revisions
--     (an article's own edit moves its own in the row, 0018's article_touched).

-- The counter's name comes from a trigger's argument or a function of ours, never from a caller.
create function bump_revision(counter regclass) returns void language plpgsql as $$
begin
    execute format('update %s set revision = revision + 1', counter);
end $$;

create function revision_moved() returns trigger language plpgsql as $$
begin
    -- A statement that changed no row (an article save that keeps its topics) leaves the counter
    -- when asked; `changed` is named only on that branch (a trigger has only its own tables).
    if tg_nargs < 2 then
        perform bump_revision(tg_argv[0]::regclass);
    elsif exists (select from changed) then
        perform bump_revision(tg_argv[0]::regclass);
    end if;
    return null;
end $$;

-- Readers in id order, so that two statements over many readers take their rows in one order. A
-- reader's deletion cascades to their subscriptions, follows and views, whose triggers then find
-- them gone: the join with `users` skips them. No reader: no statement to plan.
create function bump_user_revision(counter regclass, user_ids text[]) returns void language plpgsql as $$
begin
    if cardinality(user_ids) > 0 then
        execute format('insert into %1$s (user_id, revision)
                        select u.user_id, 1 from users u where u.user_id = any($1) order by u.user_id
                        on conflict (user_id) do update set revision = %1$s.revision + 1', counter)
        using user_ids;
    end if;
end $$;

-- Topics (0003): any statement on topics and promotional content.
do $$
declare
    source text;
begin
    foreach source in array array['category', 'promotional_content'] loop
        execute format('drop trigger bump_taxonomy_revision on %I', source);
        execute format('create trigger taxonomy_revision after insert or update or delete or truncate on %I
                        for each statement execute function revision_moved(''taxonomy_revision'')', source);
    end loop;
end;
$$;

-- Topic counts (0017): article links, follows and views, when a row changed.
do $$
declare
    source text;
    operation text;
begin
    foreach source in array array['category_follow', 'article_category', 'article_contributor', 'article_view'] loop
        foreach operation in array array['insert', 'update', 'delete', 'truncate'] loop
            execute format('drop trigger bump_topic_counts_revision_%s on %I', operation, source);
        end loop;
        execute format('create trigger topic_counts_revision_insert after insert on %I
                        referencing new table as changed for each statement
                        execute function revision_moved(''topic_counts_revision'', ''if changed'')', source);
        execute format('create trigger topic_counts_revision_update after update on %I
                        referencing new table as changed for each statement
                        execute function revision_moved(''topic_counts_revision'', ''if changed'')', source);
        execute format('create trigger topic_counts_revision_delete after delete on %I
                        referencing old table as changed for each statement
                        execute function revision_moved(''topic_counts_revision'', ''if changed'')', source);
        execute format('create trigger topic_counts_revision_truncate after truncate on %I
                        for each statement execute function revision_moved(''topic_counts_revision'')', source);
    end loop;
end;
$$;

-- Channels (0020): any statement on channels and their admins.
drop trigger channels_revision_channel on channel;
drop trigger channels_revision_admin on channel_admin;
create trigger channels_revision_channel after insert or update or delete or truncate on channel
    for each statement execute function revision_moved('channels_revision');
create trigger channels_revision_admin after insert or update or delete or truncate on channel_admin
    for each statement execute function revision_moved('channels_revision');

-- The functions that decide which rows matter keep their triggers and call the shared bumps.

create or replace function published_articles_changed() returns trigger language plpgsql as $$
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
        perform bump_revision('content_revision');
    end if;
    return null;
end $$;

create or replace function published_contributors_changed() returns trigger language plpgsql as $$
begin
    if exists (select from changed x join article a using (article_id) where a.state = 'Published') then
        perform bump_revision('content_revision');
    end if;
    return null;
end $$;

create or replace function channel_people_changed() returns trigger language plpgsql as $$
begin
    if tg_table_name = 'desk' then
        if exists (select from old_rows o join new_rows n using (desk_id) join channel c on c.owner_desk_id = n.desk_id
                   where (o.name collate "C") is distinct from (n.name collate "C")) then
            perform bump_revision('channels_revision');
        end if;
    elsif exists (select from old_rows o join new_rows n using (user_id)
                  join channel c on n.user_id in (c.owner_user_id, c.created_by)
                  where (o.name, o.email collate "C") is distinct from (n.name, n.email collate "C")) then
        perform bump_revision('channels_revision');
    end if;
    return null;
end $$;

create or replace function channel_subscriptions_changed() returns trigger language plpgsql as $$
begin
    if tg_op = 'UPDATE' then
        perform bump_user_revision('user_subscriptions_revision', array(select user_id from new_rows union select user_id from old_rows));
    else
        perform bump_user_revision('user_subscriptions_revision', array(select distinct user_id from changed));
    end if;
    return null;
end $$;

create or replace function subscribed_channel_changed() returns trigger language plpgsql as $$
begin
    perform bump_user_revision('user_subscriptions_revision', array(
        select distinct s.user_id from old_rows o join new_rows n using (channel_id)
        join channel_subscription s on s.channel_id = n.channel_id
        where (o.name collate "C", o.type) is distinct from (n.name collate "C", n.type)));
    return null;
end $$;

create or replace function follows_changed() returns trigger language plpgsql as $$
begin
    perform bump_user_revision('user_reading_revision', array(select distinct user_id from changed));
    return null;
end $$;

create or replace function read_twice_changed() returns trigger language plpgsql as $$
begin
    if tg_op = 'INSERT' then
        perform bump_user_revision('user_reading_revision', array(select distinct user_id from new_rows where views >= 2));
    elsif tg_op = 'DELETE' then
        perform bump_user_revision('user_reading_revision', array(select distinct user_id from old_rows where views >= 2));
    else
        perform bump_user_revision('user_reading_revision', array(
            select distinct n.user_id from old_rows o join new_rows n using (article_id, user_id)
            where (o.views >= 2) <> (n.views >= 2)));
    end if;
    return null;
end $$;

drop function bump_taxonomy_revision();
drop function bump_topic_counts_revision();
drop function bump_topic_counts_revision_if_changed();
drop function bump_channels_revision();
drop function bump_subscriptions_revision(text[]);
drop function bump_reading_revision(text[]);
