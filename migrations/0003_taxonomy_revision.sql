-- A revision of everything the topic list is computed from. Statement-level triggers bump it in
-- the writing transaction, so a process that sees revision N sees all the data of revision N:
-- the cached topic list is reused while the revision is unchanged, in every process.
create table taxonomy_revision (
    singleton   boolean primary key default true check (singleton),
    revision    bigint not null default 0
);
insert into taxonomy_revision default values;

create or replace function bump_taxonomy_revision() returns trigger as $$
begin
    update taxonomy_revision set revision = revision + 1;
    return null;
end;
$$ language plpgsql;

do $$
declare
    source text;
begin
    foreach source in array array['category', 'category_follow', 'promotional_content', 'article',
                                  'article_category', 'article_contributor', 'article_view'] loop
        execute format('create trigger bump_taxonomy_revision after insert or update or delete or truncate on %I
                        for each statement execute function bump_taxonomy_revision()', source);
    end loop;
end;
$$;
