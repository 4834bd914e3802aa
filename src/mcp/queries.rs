//! The MCP tools' own SQL: the channels a reader can find, and names a tool may be given for ids.

use sqlx::PgExecutor;

#[derive(Debug, Clone)]
pub struct ChannelRow {
    pub channel_id: String,
    pub name: String,
    pub channel_type: String,
    pub description: Option<String>,
    pub price: Option<String>,
}

/// The active channels, by name.
pub async fn channels(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<ChannelRow>> {
    sqlx::query_as!(
        ChannelRow,
        r#"select channel_id, name::text as "name!", type as channel_type, description, price::text as price
           from channel where state = 'active' order by lower(name::text), channel_id"#
    )
    .fetch_all(db)
    .await
}

/// The channel or desk an assistant names by its name (ignoring case) rather than its id.
pub async fn id_by_name(db: impl PgExecutor<'_>, kind: &str, name: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        r#"select case $1
                  when 'channel' then (select channel_id from channel where lower(name::text) = lower($2) limit 1)
                  when 'desk' then (select desk_id from desk where lower(name::text) = lower($2) limit 1)
                  end as id"#,
        kind,
        name
    )
    .fetch_one(db)
    .await
}

/// Logs a tool call as the chat's questions are logged (mode `agent`): the call as the question
/// (cut to the log's 1,000 characters), the MCP session as the conversation, the articles it gave.
#[allow(clippy::too_many_arguments)]
pub async fn log_call(
    db: impl PgExecutor<'_>,
    id: &str,
    user_id: &str,
    call: &str,
    session: Option<&str>,
    cited: &[String],
    error: Option<&str>,
    duration_ms: i32,
) -> sqlx::Result<()> {
    let call: String = call.chars().take(1000).collect();
    sqlx::query!(
        "insert into chat_question (chat_question_id, user_id, question, conversation_id, mode, cited_article_ids, outcome, error, duration_ms)
         values ($1, $2, $3, $4, 'agent', $5, case when $6::text is null then 'answered' else 'failed' end, left($6, 500), $7)",
        id,
        user_id,
        call,
        session,
        cited,
        error,
        duration_ms
    )
    .execute(db)
    .await?;
    Ok(())
}
