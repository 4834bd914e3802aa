-- The staff side keeps each article's contributors, topics, tags and promotional content in memory
-- too (src/articles/graphql.rs), by the article's card revision, so the revision now moves for
-- every state, not only for published articles, and for everything those lists show:
--   a contributor's email (the lists show it; compared exactly, as its column ignores case);
--   a contributor link added or removed outside an edit (a user's deletion cascades to it);
--   a promotional content's name, link or image.

create or replace function bump_article_cards(ids text[]) returns void language sql as $$
    update article set card_revision = nextval('article_card_revision_seq') where article_id = any(ids);
$$;

create function contributor_email_changed() returns trigger language plpgsql as $$
begin
    perform bump_article_cards(array(
        select distinct x.article_id from old_rows o join new_rows n using (user_id)
        join article_contributor x on x.user_id = n.user_id
        where (o.email collate "C") is distinct from (n.email collate "C")));
    return null;
end $$;

create trigger article_card_contributor_email_changed after update on users
    referencing old table as old_rows new table as new_rows for each statement execute function contributor_email_changed();

create trigger article_card_contributors_insert after insert on article_contributor
    referencing new table as changed for each statement execute function article_links_changed();
create trigger article_card_contributors_delete after delete on article_contributor
    referencing old table as changed for each statement execute function article_links_changed();

create function promotional_content_changed() returns trigger language plpgsql as $$
begin
    perform bump_article_cards(array(
        select distinct x.article_id from old_rows o join new_rows n using (promotional_content_id)
        join article_promotional_content x on x.promotional_content_id = n.promotional_content_id
        where (o.name, o.link, o.article_image) is distinct from (n.name, n.link, n.article_image)));
    return null;
end $$;

create trigger article_card_promotional_content_changed after update on promotional_content
    referencing old table as old_rows new table as new_rows for each statement execute function promotional_content_changed();
