-- Topic counts (articles, followers, contributors, views) move with every article link, follow and
-- view; the topics themselves only with topic and promotional-content edits. Each gets its own
-- revision (see 0003), so a view or a draft's save no longer makes every reader's topic list be
-- computed again: only lists that show counts read them, cached by the counts' revision.

create table topic_counts_revision (
    singleton   boolean primary key default true check (singleton),
    revision    bigint not null default 0
);
insert into topic_counts_revision default values;

create function bump_topic_counts_revision() returns trigger language plpgsql as $$
begin
    update topic_counts_revision set revision = revision + 1;
    return null;
end $$;

-- A statement that changed no row (an article save that keeps its topics) leaves the revision.
create function bump_topic_counts_revision_if_changed() returns trigger language plpgsql as $$
begin
    if exists (select from changed) then
        update topic_counts_revision set revision = revision + 1;
    end if;
    return null;
end $$;

drop trigger bump_taxonomy_revision on article;

do $$
declare
    source text;
begin
    foreach source in array array['category_follow', 'article_category', 'article_contributor', 'article_view'] loop
        execute format('drop trigger bump_taxonomy_revision on %I', source);
        execute format('create trigger bump_topic_counts_revision_insert after insert on %I
                        referencing new table as changed for each statement
                        execute function bump_topic_counts_revision_if_changed()', source);
        execute format('create trigger bump_topic_counts_revision_update after update on %I
                        referencing new table as changed for each statement
                        execute function bump_topic_counts_revision_if_changed()', source);
        execute format('create trigger bump_topic_counts_revision_delete after delete on %I
                        referencing old table as changed for each statement
                        execute function bump_topic_counts_revision_if_changed()', source);
        execute format('create trigger bump_topic_counts_revision_truncate after truncate on %I
                        for each statement execute function bump_topic_counts_revision()', source);
    end loop;
end;
$$;
