//! The one error type of the API and its mapping to GraphQL `extensions.code` (DESIGN.md §6).
//! Resolvers return `Result<T, Error>`; the codes are a contract shared with
//! `web/src/lib/errors.ts`.

use std::collections::BTreeMap;

use async_graphql::ErrorExtensions;

pub const DUPLICATE_MESSAGE: &str = "Cannot insert item due to name duplication";
pub const TRIAL_EXPIRED_MESSAGE: &str = "Trial period has expired";
pub const REQUIRED_MESSAGE: &str = "This field is required";

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
    Internal(anyhow::Error),
    Database(sqlx::Error),
}

impl From<anyhow::Error> for Error {
    fn from(error: anyhow::Error) -> Self {
        Error::Internal(error)
    }
}

impl From<sqlx::Error> for Error {
    fn from(error: sqlx::Error) -> Self {
        match error {
            sqlx::Error::RowNotFound => Error::NotFound("Record"),
            other => Error::Database(other),
        }
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
            Error::Unavailable(_) => "UNAVAILABLE",
            Error::Internal(_) | Error::Database(_) => "INTERNAL",
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
