//! Roles from token scopes (spec 1 §6), the identity carried by a token, and trial state.

use chrono::{DateTime, Utc};
use serde_json::Value;

pub mod scopes {
    pub const ADMIN: &str = "admin:insights";
    pub const EDITOR: &str = "insights:content-publish";
    pub const CONTRIBUTOR: &str = "insights:content-edit";
    pub const READER: &str = "insights:content-reader";
    pub const TRIAL_READER: &str = "insights:content-reader-trial";
    pub const INTELLIGENCE: &str = "intelligence";
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, async_graphql::Enum)]
#[graphql(rename_items = "PascalCase")]
pub enum Role {
    // Declared lowest first so that `max` picks the highest role.
    Subscriber,
    Contributor,
    Editor,
    Administrator,
}

impl Role {
    /// The highest role any of `scopes` grants; `None` means not permissioned.
    pub fn from_scopes<S: AsRef<str>>(scopes: &[S]) -> Option<Role> {
        scopes
            .iter()
            .filter_map(|scope| match scope.as_ref() {
                scopes::ADMIN => Some(Role::Administrator),
                scopes::EDITOR => Some(Role::Editor),
                scopes::CONTRIBUTOR => Some(Role::Contributor),
                scopes::READER | scopes::TRIAL_READER => Some(Role::Subscriber),
                _ => None,
            })
            .max()
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Administrator => "Administrator",
            Role::Editor => "Editor",
            Role::Contributor => "Contributor",
            Role::Subscriber => "Subscriber",
        }
    }

    pub fn is_staff(self) -> bool {
        self >= Role::Contributor
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, async_graphql::Enum)]
#[graphql(rename_items = "PascalCase")]
pub enum TrialState {
    NoTrial,
    TrialContinues,
    TrialExpired,
}

/// A trial reader holds the trial scope and no other reader or editing scope (so their role is
/// Subscriber). The one place this rule is written.
pub fn is_trial_reader<S: AsRef<str>>(scopes: &[S]) -> bool {
    let has = |wanted: &str| scopes.iter().any(|s| s.as_ref() == wanted);
    has(scopes::TRIAL_READER) && !has(scopes::READER) && !has(scopes::CONTRIBUTOR) && !has(scopes::EDITOR) && !has(scopes::ADMIN)
}

/// When a trial reader's account trial ends: `trial_days` (`INSIGHTS_TRIAL_DAYS`) from their first
/// sign-in; none for anyone else. After it every call answers TRIAL_EXPIRED, and a channel trial
/// given to them ends no later (`subscriptions::machine`).
pub fn account_trial_ends(is_trial: bool, first_login: DateTime<Utc>, trial_days: u32) -> Option<DateTime<Utc>> {
    is_trial.then(|| first_login + chrono::Duration::days(i64::from(trial_days)))
}

/// Minutes of trial left: -1 for no trial, 0 once expired (spec 3 §9).
pub fn trial_minutes_left(is_trial: bool, first_login: DateTime<Utc>, trial_days: u32, now: DateTime<Utc>) -> i64 {
    let Some(ends) = account_trial_ends(is_trial, first_login, trial_days) else { return -1 };
    if ends <= now {
        return 0;
    }
    // Round up: a trial with seconds left is still running, and 0 only ever means expired.
    let seconds = (ends - now).num_seconds();
    (seconds + 59) / 60
}

impl TrialState {
    pub fn from_minutes_left(minutes_left: i64) -> TrialState {
        match minutes_left {
            -1 => TrialState::NoTrial,
            0 => TrialState::TrialExpired,
            _ => TrialState::TrialContinues,
        }
    }
}

/// The `users` columns' limits (migration 0001): longer claims are cut to them, so that a long
/// name at the identity provider cannot lock its user out.
pub mod claim_limits {
    pub const SUBJECT: usize = 255;
    pub const EMAIL: usize = 320;
    pub const NAME: usize = 200;
    pub const FIRST_NAME: usize = 100;
    pub const LAST_NAME: usize = 100;
    pub const COMPANY: usize = 200;
    pub const PHONE: usize = 50;
}

/// The message of a token whose email address cannot be stored (shown on the sign-in error page).
pub const UNUSABLE_EMAIL: &str =
    "The email address your identity provider gives for your account cannot be used in Insights (it is longer than 320 characters or holds control characters): ask your administrator to correct it, then sign in again.";

/// What a validated token says about its user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub subject: String,
    pub email: String,
    pub name: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub company: Option<String>,
    pub phone: Option<String>,
    pub scopes: Vec<String>,
}

impl Identity {
    /// Reads the identity from token claims: scopes from the space-separated `scope` claim and
    /// the `permissions` array; email and name from the configured claim names, then standard ones.
    /// Display fields lose NUL characters (PostgreSQL text cannot hold them) and are cut to the
    /// columns' limits; the subject and the email are kept as they are (see `usable_email`): cut,
    /// they could name someone else. A subject that cannot be stored makes no identity.
    pub fn from_claims(claims: &serde_json::Map<String, Value>, email_claim: &str, name_claim: &str) -> Option<Identity> {
        let raw = |key: &str| claims.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
        let text = |key: &str| raw(key).map(str::to_owned);
        let display = |value: Option<String>, max: usize| {
            let clean: String = value?.chars().filter(|c| *c != '\0').take(max).collect();
            Some(clean.trim().to_owned()).filter(|s| !s.is_empty())
        };
        let subject = text("sub").filter(|s| s.chars().count() <= claim_limits::SUBJECT && !s.contains('\0'))?;
        let mut scopes: Vec<String> = Vec::new();
        if let Some(scope) = claims.get("scope").and_then(Value::as_str) {
            scopes.extend(scope.split_whitespace().map(str::to_owned));
        }
        if let Some(permissions) = claims.get("permissions").and_then(Value::as_array) {
            scopes.extend(permissions.iter().filter_map(Value::as_str).map(str::to_owned));
        }
        scopes.sort();
        scopes.dedup();
        let first_name = display(text("given_name"), claim_limits::FIRST_NAME);
        let last_name = display(text("family_name"), claim_limits::LAST_NAME);
        let name = display(text(name_claim).or_else(|| text("name")), claim_limits::NAME)
            .or_else(|| match (&first_name, &last_name) {
                (Some(f), Some(l)) => display(Some(format!("{f} {l}")), claim_limits::NAME),
                (Some(n), None) | (None, Some(n)) => Some(n.clone()),
                _ => None,
            })
            .unwrap_or_default();
        Some(Identity {
            email: text(email_claim).or_else(|| text("email")).unwrap_or_default(),
            name,
            first_name,
            last_name,
            company: display(text("company").or_else(|| text("organization")), claim_limits::COMPANY),
            phone: display(text("phone_number"), claim_limits::PHONE),
            subject,
            scopes,
        })
    }

    pub fn role(&self) -> Option<Role> {
        Role::from_scopes(&self.scopes)
    }

    /// Whether the email can be stored as it is: at most the column's length, no control characters.
    pub fn usable_email(&self) -> bool {
        self.email.chars().count() <= claim_limits::EMAIL && !self.email.chars().any(char::is_control)
    }

    pub fn is_trial(&self) -> bool {
        is_trial_reader(&self.scopes)
    }

    pub fn has_intelligence(&self) -> bool {
        self.scopes.iter().any(|s| s == scopes::INTELLIGENCE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highest_role_wins() {
        let cases: &[(&[&str], Option<Role>)] = &[
            (&[scopes::ADMIN], Some(Role::Administrator)),
            (&[scopes::EDITOR], Some(Role::Editor)),
            (&[scopes::CONTRIBUTOR], Some(Role::Contributor)),
            (&[scopes::READER], Some(Role::Subscriber)),
            (&[scopes::TRIAL_READER], Some(Role::Subscriber)),
            (&[scopes::READER, scopes::CONTRIBUTOR], Some(Role::Contributor)),
            (&[scopes::CONTRIBUTOR, scopes::EDITOR, scopes::READER], Some(Role::Editor)),
            (&[scopes::EDITOR, scopes::ADMIN], Some(Role::Administrator)),
            (&[scopes::INTELLIGENCE], None),
            (&["openid", "profile"], None),
            (&[], None),
        ];
        for (given, expected) in cases {
            assert_eq!(Role::from_scopes(given), *expected, "{given:?}");
        }
    }

    #[test]
    fn trial_reader_needs_the_trial_scope_alone() {
        assert!(is_trial_reader(&[scopes::TRIAL_READER, "openid"]));
        assert!(!is_trial_reader(&[scopes::TRIAL_READER, scopes::READER]));
        assert!(!is_trial_reader(&[scopes::TRIAL_READER, scopes::CONTRIBUTOR]));
        assert!(!is_trial_reader(&[scopes::READER]));
    }

    #[test]
    fn trial_minutes_left_counts_from_first_login() {
        let start = DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z").unwrap().with_timezone(&Utc);
        assert_eq!(trial_minutes_left(false, start, 14, start), -1);
        assert_eq!(trial_minutes_left(true, start, 14, start), 14 * 1440);
        assert_eq!(trial_minutes_left(true, start, 14, start + chrono::Duration::days(14)), 0);
        assert_eq!(trial_minutes_left(true, start, 14, start + chrono::Duration::days(20)), 0);
        assert_eq!(trial_minutes_left(true, start, 14, start + chrono::Duration::days(14) - chrono::Duration::seconds(10)), 1);
        assert_eq!(trial_minutes_left(true, start, 14, start + chrono::Duration::seconds(5)), 14 * 1440);
    }

    #[test]
    fn identity_reads_scope_and_permissions() {
        let claims = serde_json::json!({
            "sub": "ad|1", "email": "a@b.c", "given_name": "Ada", "family_name": "Lovelace",
            "scope": "openid insights:content-edit", "permissions": ["admin:insights"]
        });
        let identity = Identity::from_claims(claims.as_object().unwrap(), "email", "name").unwrap();
        assert_eq!(identity.name, "Ada Lovelace");
        assert_eq!(identity.role(), Some(Role::Administrator));
    }

    #[test]
    fn long_or_nul_display_claims_are_cut_to_the_columns_and_an_unstorable_email_is_unusable() {
        let claims = serde_json::json!({
            "sub": "ext|1", "email": "ann@client.example", "name": format!("Ann\u{0} {}", "N".repeat(300)),
            "given_name": "G".repeat(150), "family_name": "\u{0}Lee", "company": "C".repeat(250), "phone_number": "5".repeat(60),
        });
        let identity = Identity::from_claims(claims.as_object().unwrap(), "email", "name").unwrap();
        assert_eq!(identity.name, format!("Ann {}", "N".repeat(196)));
        assert_eq!(identity.first_name.as_deref().map(str::len), Some(100));
        assert_eq!(identity.last_name.as_deref(), Some("Lee"));
        assert_eq!(identity.company.as_deref().map(str::len), Some(200));
        assert_eq!(identity.phone.as_deref().map(str::len), Some(50));
        assert!(identity.usable_email());

        for email in [format!("{}@client.example", "a".repeat(320)), "ann\u{0}@client.example".to_owned()] {
            let claims = serde_json::json!({ "sub": "ext|1", "email": email });
            assert!(!Identity::from_claims(claims.as_object().unwrap(), "email", "name").unwrap().usable_email(), "{email:?}");
        }
        for subject in ["s".repeat(256), "ext|\u{0}".to_owned()] {
            let claims = serde_json::json!({ "sub": subject });
            assert!(Identity::from_claims(claims.as_object().unwrap(), "email", "name").is_none());
        }
    }
}
