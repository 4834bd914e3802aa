-- Disclosures (issue 40): the regulatory texts Administrators write per channel and per desk
-- (conflicts of interest, analyst certification, risk warnings), shown under an article's
-- disclaimer. Versioned and append-only: an edit is a new version. A publication pins the versions
-- current at that moment in the article's revision, and the article shows the ones it was
-- published under, so what a reader saw on a given day can be shown later. An empty text withdraws
-- a disclosure (from the articles published after it).

create table disclosure (
    scope_type      text not null check (scope_type in ('channel', 'desk')),
    scope_id        text not null check (scope_id ~ '^[0-9a-f]{24}$'),
    version         integer not null check (version >= 1),
    html            text not null check (length(html) <= 50000),
    created_at      timestamptz not null default now(),
    created_by      text references users (user_id) on delete set null,
    primary key (scope_type, scope_id, version)
);

create function disclosure_append_only() returns trigger language plpgsql as $$
begin
    raise exception 'disclosures are versioned: a new text is a new version (% refused)', tg_op using errcode = 'insufficient_privilege';
end
$$;
create trigger disclosure_no_update before update or delete on disclosure
    for each row execute function disclosure_append_only();
create trigger audit after insert on disclosure for each row execute function
    audit_row_change('disclosure', 'scope_id', 'created_at', 'html');

-- The versions a revision was saved under: [{"scopeType", "scopeId", "version"}].
alter table article_revision add column disclosures jsonb not null default '[]';
