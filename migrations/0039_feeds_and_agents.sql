-- Research where clients work (issue 41): private Atom feeds and personal access tokens.
--
-- A feed link and an access token each carry a secret shown once to the reader who made it; only
-- its SHA-256 is kept (the secrets are 256 random bits, so a fast hash is enough). Revoking one
-- stamps `revoked_at`: every server looks the secret up on each use, so it stops at once.

create table feed_link (
    feed_link_id    text primary key check (feed_link_id ~ '^[0-9a-f]{24}$'),
    user_id         text not null references users (user_id) on delete cascade,
    -- What the feed holds: the reader's subscriptions, or one channel, topic (with its sub-topics),
    -- desk or contributor.
    scope_kind      text not null check (scope_kind in ('all', 'channel', 'topic', 'desk', 'contributor')),
    scope_id        text check (scope_id ~ '^[0-9a-f]{24}$'),
    secret_hash     bytea not null unique check (length(secret_hash) = 32),
    created_at      timestamptz not null default now(),
    last_used_at    timestamptz,
    revoked_at      timestamptz,
    check ((scope_kind = 'all') = (scope_id is null))
);
create index feed_link_user_idx on feed_link (user_id, created_at desc) where revoked_at is null;

-- A link with its scope's name now (none for 'all', or for a scope deleted since).
create view feed_link_named as
select l.*, coalesce(c.name::text, t.name::text, d.name::text, u.name::text) as scope_name
from feed_link l
left join channel c on l.scope_kind = 'channel' and c.channel_id = l.scope_id
left join category t on l.scope_kind = 'topic' and t.category_id = l.scope_id
left join desk d on l.scope_kind = 'desk' and d.desk_id = l.scope_id
left join users u on l.scope_kind = 'contributor' and u.user_id = l.scope_id;

create table access_token (
    access_token_id text primary key check (access_token_id ~ '^[0-9a-f]{24}$'),
    user_id         text not null references users (user_id) on delete cascade,
    name            text not null check (length(name) between 1 and 100),
    secret_hash     bytea not null unique check (length(secret_hash) = 32),
    -- Read-only: the token reads what its reader may read (the API's queries, the MCP tools), and
    -- changes nothing.
    scope           text not null default 'read' check (scope = 'read'),
    created_at      timestamptz not null default now(),
    last_used_at    timestamptz,
    revoked_at      timestamptz
);
create index access_token_user_idx on access_token (user_id, created_at desc) where revoked_at is null;

-- Made, used and revoked by readers, revoked by Administrators: in the audit trail, without the
-- secrets' hashes and without each use.
create trigger audit after insert or update or delete on feed_link for each row execute function
    audit_row_change('feed_link', 'feed_link_id', 'secret_hash,last_used_at');
create trigger audit after insert or update or delete on access_token for each row execute function
    audit_row_change('access_token', 'access_token_id', 'secret_hash,last_used_at');

-- Readership by source: besides the web's full reads and previews, an article delivered in full by
-- a private feed ('feed': once per feed link, however often the feed is fetched) and one read by a
-- reader's AI assistant through the MCP server ('agent': once per session).
alter table article_view_event drop constraint article_view_event_kind_check;
alter table article_view_event add constraint article_view_event_kind_check check (kind in ('full', 'preview', 'feed', 'agent'));

-- A reader's AI assistant calling the MCP server's tools is logged as the chat's questions are
-- (the staff's Reader questions list): the call as its question, the MCP session as the
-- conversation, the articles it returned as cited.
alter table chat_question drop constraint chat_question_mode_check;
alter table chat_question add constraint chat_question_mode_check check (mode in ('llm', 'passages', 'agent'));
