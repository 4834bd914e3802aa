-- Clients registered with the built-in provider (issue 41): an MCP client signs a reader in with the
-- authorization code and PKCE after registering itself (RFC 7591 dynamic client registration, as the
-- MCP authorization spec asks). Public clients only: no secret; the redirect URIs registered are the
-- only ones a code may go to.
create table oidc_client (
    client_id       text primary key check (length(client_id) between 1 and 100),
    client_name     text check (length(client_name) <= 200),
    redirect_uris   text[] not null check (cardinality(redirect_uris) between 1 and 10),
    created_at      timestamptz not null default now()
);
