-- Two more things servers keep in memory, moved in the writing transaction like 0018 and 0019:
--   article pages, by article at the content revision (0019). A page shows more than its card: its
--     desk's email, its contributors' profiles and its promotional content links. Those now move the
--     published article's card revision too, and so the content revision;
--   every channel, at the channels' revision (reader channel lists, an article's channel card).

create trigger article_card_promotions_insert after insert on article_promotional_content
    referencing new table as changed for each statement execute function article_links_changed();
create trigger article_card_promotions_delete after delete on article_promotional_content
    referencing old table as changed for each statement execute function article_links_changed();

create function article_page_people_changed() returns trigger language plpgsql as $$
begin
    if tg_table_name = 'desk' then
        perform bump_article_cards(array(
            select a.article_id from old_rows o join new_rows n using (desk_id)
            join article a on a.published_by_desk_id = n.desk_id
            where o.email is distinct from n.email));
    else
        perform bump_article_cards(array(
            select distinct x.article_id from old_rows o join new_rows n using (user_id)
            join article_contributor x on x.user_id = n.user_id
            where (o.name, o.position, o.phone, o.display_avatar, o.profile_picture)
                  is distinct from (n.name, n.position, n.phone, n.display_avatar, n.profile_picture)));
    end if;
    return null;
end $$;

create trigger article_page_desk_changed after update on desk
    referencing old table as old_rows new table as new_rows for each statement execute function article_page_people_changed();
create trigger article_page_contributor_changed after update on users
    referencing old table as old_rows new table as new_rows for each statement execute function article_page_people_changed();

create table channels_revision (
    singleton   boolean primary key default true check (singleton),
    revision    bigint not null default 0
);
insert into channels_revision default values;

create function bump_channels_revision() returns trigger language plpgsql as $$
begin
    update channels_revision set revision = revision + 1;
    return null;
end $$;

create trigger channels_revision_channel after insert or update or delete or truncate on channel
    for each statement execute function bump_channels_revision();
create trigger channels_revision_admin after insert or update or delete or truncate on channel_admin
    for each statement execute function bump_channels_revision();

-- A channel shows its owner's name (a desk or a person) and its creator's name and email, compared
-- exactly (the columns' collations ignore case; a channel's answer does not).
create function channel_people_changed() returns trigger language plpgsql as $$
begin
    if tg_table_name = 'desk' then
        if exists (select from old_rows o join new_rows n using (desk_id) join channel c on c.owner_desk_id = n.desk_id
                   where (o.name collate "C") is distinct from (n.name collate "C")) then
            update channels_revision set revision = revision + 1;
        end if;
    elsif exists (select from old_rows o join new_rows n using (user_id)
                  join channel c on n.user_id in (c.owner_user_id, c.created_by)
                  where (o.name, o.email collate "C") is distinct from (n.name, n.email collate "C")) then
        update channels_revision set revision = revision + 1;
    end if;
    return null;
end $$;

create trigger channels_revision_desk_changed after update on desk
    referencing old table as old_rows new table as new_rows for each statement execute function channel_people_changed();
create trigger channels_revision_user_changed after update on users
    referencing old table as old_rows new table as new_rows for each statement execute function channel_people_changed();
