-- The tag admin list at scale (20,000 tags): search over a stored lower-cased text, whose trigram
-- index the planner costs correctly (it misjudged the expression index and scanned the table),
-- and an index in display order, so a page sorted by name reads only its own rows.
drop index tag_search_idx;
alter table tag add column search_text text not null
    generated always as (lower(name collate "default") || ' ' || lower(description)) stored;
create index tag_search_text_idx on tag using gin (search_text gin_trgm_ops);
create index tag_name_order_idx on tag (lower(name collate "default"), tag_id);
create index tag_description_order_idx on tag (lower(description), lower(name collate "default"), tag_id);
