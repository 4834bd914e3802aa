-- The intelligence chat (spec 3 §2 'chat widget', issue 14): every question a reader asks, how it
-- was answered and which articles it cited, so staff see what readers ask and what is missing.

create table chat_question (
    chat_question_id text primary key check (chat_question_id ~ '^[0-9a-f]{24}$'),
    user_id         text not null references users (user_id) on delete cascade,
    question        text not null check (length(question) between 1 and 1000),
    -- The widget's conversation (its own id, kept across questions of one session).
    conversation_id text check (length(conversation_id) <= 64),
    asked_at        timestamptz not null default now(),
    -- llm: a chat-completions model answered from the passages; passages: the passages themselves.
    mode            text not null check (mode in ('llm', 'passages')),
    -- The articles the answer cited, best first (no foreign key: an article may be deleted later).
    cited_article_ids text[] not null default '{}',
    -- pending until the answer has been streamed (or failed: the model's error, a closed connection).
    outcome         text not null default 'pending' check (outcome in ('pending', 'answered', 'failed')),
    error           text check (length(error) <= 500),
    duration_ms     integer check (duration_ms >= 0)
);
-- The staff list: newest first, searched by question (trigram, like the other admin lists) or reader.
create index chat_question_asked_idx on chat_question (asked_at desc, chat_question_id desc);
create index chat_question_user_idx on chat_question (user_id);
create index chat_question_search_idx on chat_question using gin (lower(question) gin_trgm_ops);
