//! The one error type of the API and its mapping to GraphQL `extensions.code` (DESIGN.md §6).
//! Resolvers return `Result<T, Error>`; the codes are a contract shared with
//! `web/src/lib/errors.ts`.

use std::collections::BTreeMap;

use async_graphql::ErrorExtensions;

pub const DUPLICATE_MESSAGE: &str = "Cannot insert item due to name duplication";
pub const TRIAL_EXPIRED_MESSAGE: &str = "Trial period has expired";
pub const REQUIRED_MESSAGE: &str = "This field is required";
pub const DATABASE_UNREACHABLE_MESSAGE: &str = "The database is unreachable; try again shortly";
/// A statement stopped by PostgreSQL: past the requests' statement timeout (or cancelled).
pub const STATEMENT_TIMEOUT_MESSAGE: &str = "The request took too long and was stopped; try again, or narrow it down";
/// What `Retry-After` says while the database is unreachable: about a PostgreSQL restart.
pub const DATABASE_RETRY_AFTER_SECS: u64 = 3;

/// Field name → the spec's message, for BAD_USER_INPUT.
pub type FieldErrors = BTreeMap<String, String>;

/// Deliberately not `Display`: async-graphql converts any `Display` error into a plain error
/// without extensions, so this type must go through its own `From` below to keep its code.
#[derive(Debug)]
pub enum Error {
    Unauthenticated,
    Forbidden,
    NotFound(&'static str),
    /// An article that is not published (or does not exist), asked for by a reader page: the
    /// client sends the reader back to For You (spec 3 §8).
    ArticleNotFound,
    BadUserInput {
        message: String,
        fields: FieldErrors,
    },
    /// A publish refused for what the article lacks (spec 2 §4 publish gaps), e.g. "TextAbsent".
    PublishGaps(Vec<&'static str>),
    Conflict(String),
    Duplicate {
        field: String,
    },
    TrialExpired,
    /// An outside service the feature needs (the card payment provider) did not answer; the
    /// message says which, the details are logged.
    Unavailable(&'static str),
    /// The database cannot be reached (refused or dropped connections, no connection within the
    /// pool's acquire timeout, an administrator shutdown): UNAVAILABLE, HTTP 503 with
    /// `Retry-After`, and the request may simply be sent again.
    DatabaseUnreachable(anyhow::Error),
    Internal(anyhow::Error),
    Database(sqlx::Error),
}

impl From<anyhow::Error> for Error {
    fn from(error: anyhow::Error) -> Self {
        if reaches_unreachable_database(&error) {
            Error::DatabaseUnreachable(error)
        } else if error.chain().any(|cause| cause.downcast_ref::<sqlx::Error>().is_some_and(is_statement_timeout)) {
            tracing::warn!(error = format!("{error:#}"), "statement stopped");
            Error::Unavailable(STATEMENT_TIMEOUT_MESSAGE)
        } else {
            Error::Internal(error)
        }
    }
}

/// Whether a database-unreachable sqlx error is among the causes of `error`.
pub fn reaches_unreachable_database(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| cause.downcast_ref::<sqlx::Error>().is_some_and(is_database_unreachable))
}

impl From<sqlx::Error> for Error {
    fn from(error: sqlx::Error) -> Self {
        match error {
            sqlx::Error::RowNotFound => Error::NotFound("Record"),
            other if is_database_unreachable(&other) => Error::DatabaseUnreachable(other.into()),
            other if is_text_not_storable(&other) => {
                tracing::info!(error = %other, "text refused by the database");
                Error::BadUserInput { message: crate::validation::NUL_MESSAGE.to_owned(), fields: FieldErrors::new() }
            }
            other if is_statement_timeout(&other) => {
                tracing::warn!(error = %other, "statement stopped");
                Error::Unavailable(STATEMENT_TIMEOUT_MESSAGE)
            }
            other => Error::Database(other),
        }
    }
}

/// Whether PostgreSQL refused a text it cannot store: a NUL character ("invalid byte sequence",
/// 22021) or `\u0000` in JSON ("unsupported Unicode escape sequence", 22P05). The GraphQL request
/// and the forms refuse NUL first; this is for any path they do not see.
fn is_text_not_storable(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(db) if db.code().is_some_and(|code| matches!(code.as_ref(), "22021" | "22P05")))
}

/// Whether PostgreSQL stopped the statement: its `statement_timeout` (`db::connect_for_requests`)
/// or a cancel request (SQLSTATE 57014, query_canceled).
pub fn is_statement_timeout(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(db) if db.code().as_deref() == Some("57014"))
}

/// Whether `error` says the database could not be reached (rather than refusing a statement):
/// connection-level failures, pool timeouts, and the SQLSTATEs of a server going away or not yet
/// up (class 08 connection exception, 57P01–57P03 shutdown / cannot connect now, 53300 too many
/// connections).
pub fn is_database_unreachable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => {
            db.code().is_some_and(|code| code.starts_with("08") || matches!(code.as_ref(), "57P01" | "57P02" | "57P03" | "53300"))
        }
        _ => false,
    }
}

impl Error {
    /// The message the client sees; internals are replaced by a generic text.
    pub fn message(&self) -> String {
        match self {
            Error::Unauthenticated => "Authentication required".to_owned(),
            Error::Forbidden => "You don't have sufficient permissions to perform this action".to_owned(),
            Error::NotFound(entity) => format!("{entity} not found"),
            Error::ArticleNotFound => "Article not found".to_owned(),
            Error::BadUserInput { message, .. } => message.clone(),
            Error::PublishGaps(gaps) => {
                format!("The article cannot be published yet: {}", gaps.join(", "))
            }
            Error::Conflict(message) => message.clone(),
            Error::Duplicate { .. } => DUPLICATE_MESSAGE.to_owned(),
            Error::TrialExpired => TRIAL_EXPIRED_MESSAGE.to_owned(),
            Error::Unavailable(message) => (*message).to_owned(),
            Error::DatabaseUnreachable(_) => DATABASE_UNREACHABLE_MESSAGE.to_owned(),
            Error::Internal(_) | Error::Database(_) => "Internal server error".to_owned(),
        }
    }

    /// Logs the details of an internal error (with the request's span, hence its request id).
    pub fn log_if_internal(&self) {
        match self {
            Error::Internal(error) => {
                tracing::error!(error = format!("{error:#}"), "internal error")
            }
            Error::Database(error) => tracing::error!(error = %error, "database error"),
            // Expected while PostgreSQL restarts; the health check reports it too.
            Error::DatabaseUnreachable(error) => tracing::warn!(error = format!("{error:#}"), "database unreachable"),
            _ => {}
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            Error::Unauthenticated => "UNAUTHENTICATED",
            Error::Forbidden => "FORBIDDEN",
            Error::NotFound(_) => "NOT_FOUND",
            Error::ArticleNotFound => "ARTICLE_NOT_FOUND",
            Error::BadUserInput { .. } | Error::PublishGaps(_) => "BAD_USER_INPUT",
            Error::Conflict(_) => "CONFLICT",
            Error::Duplicate { .. } => "DUPLICATE",
            Error::TrialExpired => "TRIAL_EXPIRED",
            Error::Unavailable(_) | Error::DatabaseUnreachable(_) => "UNAVAILABLE",
            Error::Internal(_) | Error::Database(_) => "INTERNAL",
        }
    }

    /// Whether the client logs the error as a warning (spec 1 §8 "Errors flagged as warnings are
    /// logged as warnings"; `extensions.warning: true`): an outcome the user's own input or someone
    /// else's change explains (a refused form, a missing publish field, a stale version or a
    /// refused state change, a taken name), which the user reads and acts on. Everything else
    /// (authorization, missing records, outages, internal errors) is logged as an error.
    pub fn is_warning(&self) -> bool {
        matches!(self, Error::BadUserInput { .. } | Error::PublishGaps(_) | Error::Conflict(_) | Error::Duplicate { .. })
    }

    /// Seconds after which the same request may succeed, for the errors that pass by themselves
    /// (`Retry-After`, and `extensions.retryAfter` on GraphQL).
    pub fn retry_after(&self) -> Option<u64> {
        matches!(self, Error::DatabaseUnreachable(_)).then_some(DATABASE_RETRY_AFTER_SECS)
    }

    /// A database error shared by the callers of a DataLoader (hence not owned): UNAVAILABLE when
    /// the database is unreachable, else INTERNAL.
    pub fn shared_database(error: &sqlx::Error, doing: &str) -> Error {
        let described = anyhow::anyhow!("{doing}: {error}");
        if is_database_unreachable(error) {
            Error::DatabaseUnreachable(described)
        } else if is_statement_timeout(error) {
            Error::Unavailable(STATEMENT_TIMEOUT_MESSAGE)
        } else {
            Error::Internal(described)
        }
    }

    /// One invalid field with its message.
    pub fn field(field: &str, message: impl Into<String>) -> Self {
        let mut fields = FieldErrors::new();
        fields.insert(field.to_owned(), message.into());
        Error::invalid(fields)
    }

    /// Several invalid fields; the message names the first so a plain alert still says something useful.
    pub fn invalid(fields: FieldErrors) -> Self {
        let message =
            fields.iter().next().map(|(field, message)| format!("{field}: {message}")).unwrap_or_else(|| "Invalid input".to_owned());
        Error::BadUserInput { message, fields }
    }

    /// A stale `version` on an edit.
    /// Checks an edit's `version` against the stored one, read under a row lock: NOT_FOUND when the
    /// record is missing, CONFLICT when the edit was based on an older version.
    pub fn check_version(stored: Option<i32>, version: i32, entity: &'static str) -> Result<(), Error> {
        match stored {
            None => Err(Error::NotFound(entity)),
            Some(stored) if stored != version => Err(Error::stale_version()),
            Some(_) => Ok(()),
        }
    }

    pub fn stale_version() -> Self {
        Error::Conflict("This item was changed by someone else. Reload it and apply your changes again.".to_owned())
    }
}

impl ErrorExtensions for Error {
    fn extend(&self) -> async_graphql::Error {
        // Internals never reach the client; the request id ties the client's report to the log.
        self.log_if_internal();
        async_graphql::Error::new(self.message()).extend_with(|_, extensions| {
            extensions.set("code", self.code());
            if let Some(seconds) = self.retry_after() {
                extensions.set("retryAfter", seconds);
            }
            if self.is_warning() {
                extensions.set("warning", true);
            }
            match self {
                Error::BadUserInput { fields, .. } => {
                    let fields: async_graphql::indexmap::IndexMap<async_graphql::Name, async_graphql::Value> =
                        fields.iter().map(|(k, v)| (async_graphql::Name::new(k), async_graphql::Value::from(v.as_str()))).collect();
                    extensions.set("fields", async_graphql::Value::Object(fields));
                }
                Error::PublishGaps(gaps) => {
                    let gaps = gaps.iter().map(|gap| async_graphql::Value::from(*gap)).collect();
                    extensions.set("gaps", async_graphql::Value::List(gaps));
                }
                Error::Duplicate { field } => {
                    let mut fields = async_graphql::indexmap::IndexMap::new();
                    fields.insert(async_graphql::Name::new(field), async_graphql::Value::from(DUPLICATE_MESSAGE));
                    extensions.set("fields", async_graphql::Value::Object(fields));
                }
                _ => {}
            }
        })
    }
}

impl From<Error> for async_graphql::Error {
    fn from(error: Error) -> Self {
        error.extend()
    }
}

/// Turns a violation of a *named* unique constraint into a field error at the query call
/// site (realworld-axum-sqlx's `on_constraint`).
pub trait ResultExt<T> {
    fn on_constraint(self, name: &str, map: impl FnOnce() -> Error) -> Result<T, Error>;
}

impl<T, E: Into<Error>> ResultExt<T> for Result<T, E> {
    fn on_constraint(self, name: &str, map: impl FnOnce() -> Error) -> Result<T, Error> {
        self.map_err(|error| match error.into() {
            Error::Database(sqlx::Error::Database(db)) if db.constraint() == Some(name) => map(),
            other => other,
        })
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;

    /// A server error with a SQLSTATE, as PostgreSQL sends them.
    #[derive(Debug)]
    struct Sqlstate(&'static str);

    impl std::fmt::Display for Sqlstate {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "SQLSTATE {}", self.0)
        }
    }

    impl std::error::Error for Sqlstate {}

    impl sqlx::error::DatabaseError for Sqlstate {
        fn message(&self) -> &str {
            self.0
        }
        fn code(&self) -> Option<Cow<'_, str>> {
            Some(Cow::Borrowed(self.0))
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> sqlx::error::ErrorKind {
            sqlx::error::ErrorKind::Other
        }
    }

    fn server(code: &'static str) -> sqlx::Error {
        sqlx::Error::Database(Box::new(Sqlstate(code)))
    }

    #[test]
    fn connection_failures_are_unavailable_with_a_retry_after() {
        let refused = || sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        let reset = || sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset));
        let unreachable = [
            sqlx::Error::PoolTimedOut,
            sqlx::Error::PoolClosed,
            refused(),
            reset(),
            sqlx::Error::Tls("handshake".into()),
            server("57P01"),
            server("57P02"),
            server("57P03"),
            server("08006"),
            server("08001"),
            server("53300"),
        ];
        for error in unreachable {
            let shown = error.to_string();
            let error = Error::from(error);
            assert_eq!((error.code(), error.retry_after()), ("UNAVAILABLE", Some(DATABASE_RETRY_AFTER_SECS)), "{shown}");
            assert_eq!(error.message(), DATABASE_UNREACHABLE_MESSAGE);
        }
        // Also when wrapped with context on the way up.
        let wrapped = Error::from(anyhow::Error::from(refused()).context("load the user"));
        assert_eq!(wrapped.code(), "UNAVAILABLE");
    }

    #[test]
    fn user_and_concurrency_outcomes_are_flagged_as_warnings() {
        let flag = |error: Error| error.extend().extensions.and_then(|e| e.get("warning").cloned());
        for warning in [
            Error::field("name", REQUIRED_MESSAGE),
            Error::PublishGaps(vec!["TextAbsent"]),
            Error::stale_version(),
            Error::Duplicate { field: "name".into() },
        ] {
            let code = warning.code();
            assert_eq!(flag(warning), Some(async_graphql::Value::Boolean(true)), "{code}");
        }
        for error in [
            Error::Forbidden,
            Error::Unauthenticated,
            Error::NotFound("Topic"),
            Error::TrialExpired,
            Error::Unavailable("Stripe"),
            Error::Internal(anyhow::anyhow!("no")),
        ] {
            let code = error.code();
            assert_eq!(flag(error), None, "{code}");
        }
    }

    #[test]
    fn statement_failures_stay_internal() {
        for error in [server("23505"), server("42P01"), sqlx::Error::Protocol("odd".into())] {
            let shown = error.to_string();
            let error = Error::from(error);
            assert_eq!((error.code(), error.retry_after()), ("INTERNAL", None), "{shown}");
        }
        assert_eq!(Error::from(sqlx::Error::RowNotFound).code(), "NOT_FOUND");
        assert_eq!(Error::from(anyhow::anyhow!("no")).code(), "INTERNAL");
        assert_eq!(Error::Unavailable("Stripe").retry_after(), None);
    }

    #[test]
    fn a_statement_stopped_by_postgresql_says_the_request_took_too_long() {
        for error in [Error::from(server("57014")), Error::from(anyhow::Error::from(server("57014")).context("search"))] {
            assert_eq!((error.code(), error.message().as_str(), error.retry_after()), ("UNAVAILABLE", STATEMENT_TIMEOUT_MESSAGE, None));
        }
        assert_eq!(Error::shared_database(&server("57014"), "load cards").code(), "UNAVAILABLE");
    }
}
