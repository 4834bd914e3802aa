-- Foundation: shared helpers, users, and the built-in identity provider's state.

-- Case-insensitive comparison for emails and names (realworld-axum-sqlx).
create collation if not exists case_insensitive (provider = icu, locale = 'und-u-ks-level2', deterministic = false);

create or replace function set_updated_at() returns trigger as $$
begin
    new.updated_at = now();
    return new;
end;
$$ language plpgsql;

create or replace function trigger_updated_at(tablename regclass) returns void as $$
begin
    execute format('create trigger set_updated_at before update on %s for each row
                    when (old is distinct from new) execute function set_updated_at();', tablename);
end;
$$ language plpgsql;

-- Named `users`, not `user`: `user` is a reserved word in SQL.
create table users (
    user_id         text primary key check (user_id ~ '^[0-9a-f]{24}$'),
    -- The identity provider's subject (`sub`), e.g. `ad|…` for company-directory users.
    subject         text not null constraint users_subject_key unique check (length(subject) between 1 and 255),
    email           text collate case_insensitive not null check (length(email) <= 320),
    name            text not null default '' check (length(name) <= 200),
    first_name      text check (length(first_name) <= 100),
    last_name       text check (length(last_name) <= 100),
    company         text check (length(company) <= 200),
    phone           text check (length(phone) <= 50),
    position        text check (length(position) <= 50),
    scopes          text[] not null default '{}',
    role            text check (role in ('Administrator', 'Editor', 'Contributor', 'Subscriber')),
    is_internal     boolean not null default false,
    display_avatar  boolean not null default false,
    tableau_access  boolean not null default false,
    -- Trials are counted from the first login.
    first_login     timestamptz not null default now(),
    last_login      timestamptz,
    version         integer not null default 1 check (version >= 1),
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now()
);
select trigger_updated_at('users');
create index users_email_idx on users (email);

-- Signing keys of the built-in OIDC provider; the newest signs, all are published in the JWKS.
create table oidc_signing_key (
    kid             text primary key,
    algorithm       text not null check (algorithm in ('ES256')),
    private_key_pem text not null,
    created_at      timestamptz not null default now()
);

-- Single-use authorization codes (stored hashed), with the PKCE challenge they must meet.
create table oidc_authorization_code (
    code_hash       text primary key,
    client_id       text not null,
    redirect_uri    text not null,
    code_challenge  text not null,
    nonce           text,
    subject         text not null,
    scope           text not null,
    claims          jsonb not null,
    expires_at      timestamptz not null,
    created_at      timestamptz not null default now()
);
create index oidc_authorization_code_expires_at_idx on oidc_authorization_code (expires_at);

-- Refresh tokens (stored hashed); each use rotates the token.
create table oidc_refresh_token (
    token_hash      text primary key,
    client_id       text not null,
    subject         text not null,
    scope           text not null,
    claims          jsonb not null,
    expires_at      timestamptz not null,
    created_at      timestamptz not null default now()
);
create index oidc_refresh_token_expires_at_idx on oidc_refresh_token (expires_at);
create index oidc_refresh_token_subject_idx on oidc_refresh_token (subject);
