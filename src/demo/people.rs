//! The demo's users, written as sign-in writes them: the subject the built-in provider gives the
//! email (`provider::subject_for`), the token's sorted scopes, the role they grant, first and last
//! name split as the provider's claims split them. So when a ready user of the sign-in page signs
//! in, the stored row already matches the token and is used as it is, with its subscriptions,
//! follows and views.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};

use super::{
    cast::{self, Reader},
    queries::{self, NewUser},
};
use crate::{
    auth::{Role, provider},
    ids,
    state::AppState,
};

pub struct StaffUser {
    pub id: String,
    pub role: Role,
}

pub struct ReaderUser {
    pub id: String,
    pub reader: Reader,
}

pub struct People {
    /// By email.
    pub staff: HashMap<&'static str, StaffUser>,
    pub readers: Vec<ReaderUser>,
    pub added: usize,
}

impl People {
    pub fn staff_id(&self, email: &str) -> anyhow::Result<&str> {
        self.staff.get(email).map(|s| s.id.as_str()).ok_or_else(|| anyhow::anyhow!("{email} is not in the demo's staff"))
    }
}

fn split_name(name: &str) -> (Option<&str>, Option<&str>) {
    match name.trim().split_once(' ') {
        Some((first, last)) => (Some(first), Some(last.trim())),
        None => (Some(name.trim()).filter(|n| !n.is_empty()), None),
    }
}

struct Person<'a> {
    email: &'a str,
    name: &'a str,
    company: &'a str,
    phone: Option<&'a str>,
    position: Option<&'a str>,
    scopes: Vec<String>,
    internal: bool,
    first_login: DateTime<Utc>,
    last_login: DateTime<Utc>,
}

async fn insert(conn: &mut sqlx::PgConnection, state: &AppState, person: Person<'_>) -> anyhow::Result<(String, bool, Role)> {
    let mut scopes = person.scopes;
    // As `Identity::from_claims` reads a token's scopes.
    scopes.sort();
    scopes.dedup();
    let role = Role::from_scopes(&scopes).ok_or_else(|| anyhow::anyhow!("{} has no Insights role", person.email))?;
    let subject = provider::subject_for(&state.config, person.email, person.internal);
    let (first_name, last_name) = split_name(person.name);
    let id = ids::new_id();
    let row = NewUser {
        user_id: &id,
        subject: &subject,
        email: person.email,
        name: person.name,
        first_name,
        last_name,
        company: Some(person.company),
        phone: person.phone,
        position: person.position,
        scopes: &scopes,
        role: Some(role.as_str()),
        is_internal: person.internal,
        first_login: person.first_login,
        last_login: Some(person.last_login),
    };
    let (id, added) = queries::insert_user(conn, &row).await?;
    Ok((id, added, role))
}

/// Adds the staff and the readers (keeping users that exist: same subject).
pub async fn seed(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<People> {
    let mut tx = state.pool.begin().await?;
    let mut people = People { staff: HashMap::new(), readers: Vec::new(), added: 0 };
    for (i, staff) in cast::staff().into_iter().enumerate() {
        let person = Person {
            email: staff.email,
            name: staff.name,
            company: cast::STAFF_COMPANY,
            phone: Some(staff.phone),
            position: Some(staff.position),
            scopes: staff.scopes.iter().map(|s| s.to_string()).collect(),
            internal: true,
            first_login: now - Duration::days(760 - 11 * i as i64),
            last_login: now - Duration::hours(2 + 5 * i as i64),
        };
        let (id, added, role) = insert(&mut tx, state, person).await?;
        people.added += usize::from(added);
        people.staff.insert(staff.email, StaffUser { id, role });
    }
    for reader in cast::readers(i64::from(state.config.constants.trial_days)) {
        let person = Person {
            email: &reader.email,
            name: &reader.name,
            company: &reader.company,
            phone: None,
            position: reader.position,
            scopes: reader.scopes.clone(),
            internal: false,
            first_login: now - Duration::days(reader.first_login_days_ago) - Duration::hours(3),
            last_login: now - Duration::days(reader.last_login_days_ago) - Duration::minutes(40),
        };
        let (id, added, _) = insert(&mut tx, state, person).await?;
        people.added += usize::from(added);
        people.readers.push(ReaderUser { id, reader });
    }
    tx.commit().await?;
    Ok(people)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_like_the_providers_claims() {
        assert_eq!(split_name("Sam Subscriber"), (Some("Sam"), Some("Subscriber")));
        assert_eq!(split_name("Anna van der Berg"), (Some("Anna"), Some("van der Berg")));
        assert_eq!(split_name("Plato"), (Some("Plato"), None));
    }
}
