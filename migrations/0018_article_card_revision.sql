-- Readers' article cards are kept in memory by each server (src/reading/cache.rs), by the article
-- and its card revision: everything a card shows moves the revision in the same transaction, so
-- the list statements, which read the revision with the ids, always find the card of their snapshot
-- or none. Only published articles are cards; an article becomes one by an update, which moves it.

create sequence article_card_revision_seq;
-- A constant default adds the column without rewriting the table; new articles take the sequence.
alter table article add column card_revision bigint not null default 0;
alter table article alter column card_revision set default nextval('article_card_revision_seq');

-- An edit of the article (every edit moves its version) moves its revision and its last-edited
-- time; an update that moves only the revision (the triggers below: a renamed tag, topic, channel,
-- desk or publisher) leaves the last-edited time. (The condition names columns: a whole-row one is
-- refused on a table with generated columns.)
create function article_touched() returns trigger language plpgsql as $$
begin
    new.updated_at = now();
    new.card_revision = nextval('article_card_revision_seq');
    return new;
end $$;

drop trigger set_updated_at on article;
create trigger set_updated_at before update on article
    for each row when (old.card_revision = new.card_revision) execute function article_touched();

create function bump_article_cards(ids text[]) returns void language sql as $$
    update article set card_revision = nextval('article_card_revision_seq')
    where article_id = any(ids) and state = 'Published';
$$;

-- Topic and tag links.
create function article_links_changed() returns trigger language plpgsql as $$
begin
    perform bump_article_cards(array(select distinct article_id from changed));
    return null;
end $$;

do $$
declare
    link text;
begin
    foreach link in array array['article_category', 'article_tag'] loop
        execute format('create trigger article_card_links_insert after insert on %I
                        referencing new table as changed for each statement execute function article_links_changed()', link);
        execute format('create trigger article_card_links_delete after delete on %I
                        referencing old table as changed for each statement execute function article_links_changed()', link);
    end loop;
end;
$$;

-- Names a card shows, compared exactly (the columns' collation ignores case; a card does not).
create function topic_or_tag_renamed() returns trigger language plpgsql as $$
begin
    if tg_table_name = 'category' then
        perform bump_article_cards(array(
            select x.article_id from old_rows o join new_rows n using (category_id)
            join article_category x on x.category_id = n.category_id
            where (o.name collate "C") is distinct from (n.name collate "C")));
    else
        perform bump_article_cards(array(
            select x.article_id from old_rows o join new_rows n using (tag_id)
            join article_tag x on x.tag_id = n.tag_id
            where (o.name collate "C") is distinct from (n.name collate "C")));
    end if;
    return null;
end $$;

create trigger article_card_category_renamed after update on category
    referencing old table as old_rows new table as new_rows for each statement execute function topic_or_tag_renamed();
create trigger article_card_tag_renamed after update on tag
    referencing old table as old_rows new table as new_rows for each statement execute function topic_or_tag_renamed();

-- A card shows its channel's name, type and state, and its publisher's name (a desk or a person).
create function article_publisher_changed() returns trigger language plpgsql as $$
begin
    if tg_table_name = 'channel' then
        perform bump_article_cards(array(
            select a.article_id from old_rows o join new_rows n using (channel_id)
            join article a on a.premium_channel_id = n.channel_id
            where (o.name collate "C", o.type, o.state) is distinct from (n.name collate "C", n.type, n.state)));
    elsif tg_table_name = 'desk' then
        perform bump_article_cards(array(
            select a.article_id from old_rows o join new_rows n using (desk_id)
            join article a on a.published_by_desk_id = n.desk_id
            where (o.name collate "C") is distinct from (n.name collate "C")));
    else
        perform bump_article_cards(array(
            select a.article_id from old_rows o join new_rows n using (user_id)
            join article a on a.published_by_user_id = n.user_id
            where o.name is distinct from n.name));
    end if;
    return null;
end $$;

create trigger article_card_channel_changed after update on channel
    referencing old table as old_rows new table as new_rows for each statement execute function article_publisher_changed();
create trigger article_card_desk_changed after update on desk
    referencing old table as old_rows new table as new_rows for each statement execute function article_publisher_changed();
create trigger article_card_publisher_renamed after update on users
    referencing old table as old_rows new table as new_rows for each statement execute function article_publisher_changed();
