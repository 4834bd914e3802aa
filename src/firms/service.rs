//! The rules of firms: who may do what (staff change firms, Contributors read them; a firm's own
//! administrators manage its seats and invite colleagues, for their firm only), the firm form's
//! validation and versions, domains (unique across firms, no public mail service; readers at a
//! new domain join, readers who came by a removed one leave), and membership.

use sqlx::{PgConnection, PgPool};

use super::{domains, queries};
use crate::{
    auth::{Role, Viewer},
    error::{Error, FieldErrors, REQUIRED_MESSAGE, Result, ResultExt},
    ids,
    jobs::JobQueue,
    validation::{optional_email, optional_id, optional_text, required_text},
};

pub const NAME_MAX: usize = 100;
pub const ACCOUNT_NUMBER_MAX: usize = 64;
pub const NOTES_MAX: usize = 1000;
pub const BILLING_METHODS: &[&str] = &["account", "invoice", "card"];
pub const ARCHIVED: &str = "This firm is archived and can no longer be changed.";

/// How a caller may act on one firm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirmRole {
    /// Administrators and Editors: everything.
    Staff(Role),
    /// Contributors: read only.
    StaffReader,
    /// One of the firm's own administrators: its members, seats, invitations and reading.
    FirmAdmin,
}

impl FirmRole {
    pub fn is_staff(self) -> bool {
        !matches!(self, FirmRole::FirmAdmin)
    }
}

/// Staff who change firms: Administrators and Editors.
pub fn require_staff_writer(viewer: &Viewer) -> Result<Role> {
    viewer.require(&[Role::Administrator, Role::Editor])
}

/// How `viewer` may act on `firm_id`: staff on any firm, a firm's administrator on theirs;
/// FORBIDDEN for anyone else (a plain reader, another firm's administrator). NOT_FOUND for a
/// malformed or unknown firm, to staff.
pub async fn access(pool: &PgPool, viewer: &Viewer, firm_id: &str) -> Result<(String, FirmRole)> {
    let role = viewer.require(crate::auth::ALL_ROLES)?;
    let id = optional_id(Some(firm_id), "Firm");
    match role {
        Role::Administrator | Role::Editor | Role::Contributor => {
            let id = id?.ok_or(Error::NotFound("Firm"))?;
            queries::name(pool, &id).await?.ok_or(Error::NotFound("Firm"))?;
            let firm_role = if role == Role::Contributor { FirmRole::StaffReader } else { FirmRole::Staff(role) };
            Ok((id, firm_role))
        }
        Role::Subscriber => {
            // A reader learns nothing of other firms, not even whether an id is one.
            let membership = queries::membership(pool, &viewer.user.user_id).await?;
            match (id, membership) {
                (Ok(Some(id)), Some(m)) if m.firm_id == id && m.is_admin => Ok((id, FirmRole::FirmAdmin)),
                _ => Err(Error::Forbidden),
            }
        }
    }
}

/// `access`, for a change: Contributors are refused, and so is anyone on an archived firm.
pub async fn access_to_change(pool: &PgPool, viewer: &Viewer, firm_id: &str) -> Result<(String, FirmRole)> {
    let (id, role) = access(pool, viewer, firm_id).await?;
    if role == FirmRole::StaffReader {
        return Err(Error::Forbidden);
    }
    Ok((id, role))
}

/// The firm the caller administers (`myFirm`): FORBIDDEN for a reader who administers none.
pub async fn my_firm(pool: &PgPool, viewer: &Viewer) -> Result<String> {
    viewer.require(crate::auth::ALL_ROLES)?;
    match queries::membership(pool, &viewer.user.user_id).await? {
        Some(m) if m.is_admin => Ok(m.firm_id),
        _ => Err(Error::Forbidden),
    }
}

/// Locks an active firm for a change under it; NOT_FOUND when unknown, CONFLICT when archived.
pub async fn lock_active_firm(conn: &mut PgConnection, firm_id: &str) -> Result<String> {
    let id = optional_id(Some(firm_id), "Firm")?.ok_or(Error::NotFound("Firm"))?;
    match queries::lock(conn, &id).await? {
        None => Err(Error::NotFound("Firm")),
        Some((_, state)) if state == "archived" => Err(Error::Conflict(ARCHIVED.into())),
        Some(_) => Ok(id),
    }
}

/// The firm form, as sent.
#[derive(Debug, Clone, Default)]
pub struct FirmChange {
    pub id: Option<String>,
    pub version: Option<i32>,
    pub name: String,
    pub domains: Vec<String>,
    pub account_number: Option<String>,
    pub billing_method: Option<String>,
    pub notes: Option<String>,
}

struct ValidFirm {
    name: String,
    domains: Vec<String>,
    account_number: Option<String>,
    billing_method: String,
    notes: Option<String>,
}

impl ValidFirm {
    fn row(&self) -> queries::NewFirm<'_> {
        queries::NewFirm {
            name: &self.name,
            account_number: self.account_number.as_deref(),
            billing_method: &self.billing_method,
            notes: self.notes.as_deref(),
        }
    }
}

async fn validate(conn: &mut PgConnection, change: &FirmChange, firm_id: Option<&str>) -> Result<ValidFirm> {
    let mut fields = FieldErrors::new();
    let name = required_text(&mut fields, "name", &change.name, NAME_MAX);
    let account_number = optional_text(&mut fields, "accountNumber", change.account_number.as_deref(), ACCOUNT_NUMBER_MAX);
    let notes = optional_text(&mut fields, "notes", change.notes.as_deref(), NOTES_MAX);
    let billing_method = match change.billing_method.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        None => {
            fields.insert("billingMethod".into(), REQUIRED_MESSAGE.into());
            String::new()
        }
        Some(method) if BILLING_METHODS.contains(&method) => method.to_owned(),
        Some(_) => {
            fields.insert("billingMethod".into(), "Choose clearing account, invoice or card".into());
            String::new()
        }
    };
    let domains = domains::split(&change.domains);
    let refusals: Vec<String> = domains.iter().filter_map(|d| domains::refusal(d)).collect();
    if !refusals.is_empty() {
        fields.insert("domains".into(), refusals.join("; "));
    } else if domains.len() > domains::MAX_DOMAINS {
        fields.insert("domains".into(), format!("At most {} domains", domains::MAX_DOMAINS));
    } else {
        let taken = queries::domains_taken(&mut *conn, &domains, firm_id).await?;
        if !taken.is_empty() {
            let said: Vec<String> = taken.iter().map(|(domain, firm)| format!("{domain} is a domain of {firm}")).collect();
            fields.insert("domains".into(), said.join("; "));
        }
    }
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    Ok(ValidFirm { name, domains, account_number, billing_method, notes })
}

fn on_unique(result: Result<()>) -> Result<()> {
    result
        .on_constraint("firm_name_key", || Error::Duplicate { field: "name".into() })
        .on_constraint("firm_account_number_key", || Error::field("accountNumber", "Another firm has this account number"))
        .on_constraint("firm_domain_pkey", || Error::field("domains", "Another firm has one of these domains"))
}

/// Adds a firm; readers in no firm at its domains join it. Returns its id.
pub async fn add(pool: &PgPool, staff_id: &str, change: &FirmChange) -> Result<String> {
    let mut tx = pool.begin().await?;
    let firm = validate(&mut tx, change, None).await?;
    let id = ids::new_id();
    on_unique(queries::insert(&mut tx, &id, &firm.row(), Some(staff_id)).await.map_err(Error::from))?;
    on_unique(queries::set_domains(&mut tx, &id, &firm.domains).await.map(|_| ()).map_err(Error::from))?;
    queries::join_by_domains(&mut tx, &id).await?;
    tx.commit().await?;
    Ok(id)
}

/// Edits a firm at the version it was read: readers at an added domain join it, readers who
/// joined by a removed domain leave it (and lose its seats).
pub async fn edit(pool: &PgPool, change: &FirmChange) -> Result<String> {
    let version = change.version.ok_or_else(|| Error::field("version", REQUIRED_MESSAGE))?;
    let mut tx = pool.begin().await?;
    let id = lock_active_firm(&mut tx, change.id.as_deref().unwrap_or_default()).await?;
    Error::check_version(queries::lock(&mut tx, &id).await?.map(|(v, _)| v), version, "Firm")?;
    let firm = validate(&mut tx, change, Some(&id)).await?;
    on_unique(queries::update(&mut tx, &id, &firm.row()).await.map_err(Error::from))?;
    let removed = on_unique_domains(queries::set_domains(&mut tx, &id, &firm.domains).await)?;
    queries::leave_by_domains(&mut tx, &id, &removed).await?;
    queries::join_by_domains(&mut tx, &id).await?;
    tx.commit().await?;
    Ok(id)
}

fn on_unique_domains(result: sqlx::Result<Vec<String>>) -> Result<Vec<String>> {
    result.on_constraint("firm_domain_pkey", || Error::field("domains", "Another firm has one of these domains"))
}

/// Archives a firm with no live subscription; its members stay (its history stays readable).
pub async fn archive(pool: &PgPool, id: &str, version: i32) -> Result<String> {
    let mut tx = pool.begin().await?;
    let id = lock_active_firm(&mut tx, id).await?;
    Error::check_version(queries::lock(&mut tx, &id).await?.map(|(v, _)| v), version, "Firm")?;
    let now = chrono::Utc::now();
    let live = queries::subscriptions_of(&mut *tx, std::slice::from_ref(&id)).await?;
    if live.iter().any(|row| row.machine().is_live_or_pending(now)) {
        return Err(Error::Conflict("End the firm's subscriptions before archiving it.".into()));
    }
    queries::archive(&mut tx, &id).await?;
    tx.commit().await?;
    Ok(id)
}

/// How many readers in no firm are at `domains` (the confirmation before adding them).
pub async fn readers_joining(pool: &PgPool, domains: &[String], firm_id: Option<&str>) -> Result<i64> {
    let domains: Vec<String> = domains::split(domains).into_iter().filter(|d| domains::refusal(d).is_none()).collect();
    let mut conn = pool.acquire().await?;
    let taken: Vec<String> = queries::domains_taken(&mut *conn, &domains, firm_id).await?.into_iter().map(|(d, _)| d).collect();
    let free: Vec<String> = domains.into_iter().filter(|d| !taken.contains(d)).collect();
    Ok(queries::firmless_readers_at(&mut *conn, &free).await?)
}

// ---- members ----

/// Staff make a reader a member of a firm (a reader belongs to at most one).
pub async fn add_member(pool: &PgPool, firm_id: &str, user_id: &str) -> Result<()> {
    let mut tx = pool.begin().await?;
    let firm_id = lock_active_firm(&mut tx, firm_id).await?;
    let user_id = optional_id(Some(user_id), "User")?.ok_or(Error::NotFound("User"))?;
    let candidate = queries::lock_candidate(&mut tx, &user_id).await?.ok_or(Error::NotFound("User"))?;
    if candidate.role.as_deref() != Some("Subscriber") {
        return Err(Error::field("userId", "Only readers can belong to a firm"));
    }
    match (candidate.firm_id, candidate.firm_name) {
        (Some(current), _) if current == firm_id => return Ok(()),
        (Some(_), name) => {
            return Err(Error::field("userId", format!("This reader belongs to {}: remove them there first", name.unwrap_or_default())));
        }
        _ => {}
    }
    queries::add_member(&mut tx, &firm_id, &user_id, "staff").await?;
    tx.commit().await?;
    Ok(())
}

/// Staff remove a member; their seats of the firm end at once.
pub async fn remove_member(pool: &PgPool, firm_id: &str, user_id: &str) -> Result<()> {
    let mut tx = pool.begin().await?;
    let firm_id = optional_id(Some(firm_id), "Firm")?.ok_or(Error::NotFound("Firm"))?;
    let user_id = optional_id(Some(user_id), "User")?.ok_or(Error::NotFound("User"))?;
    if !queries::remove_member(&mut tx, &firm_id, &user_id).await? {
        return Err(Error::NotFound("Member"));
    }
    tx.commit().await?;
    Ok(())
}

pub async fn set_admin(pool: &PgPool, firm_id: &str, user_id: &str, is_admin: bool) -> Result<()> {
    let mut tx = pool.begin().await?;
    let firm_id = lock_active_firm(&mut tx, firm_id).await?;
    let user_id = optional_id(Some(user_id), "User")?.ok_or(Error::NotFound("Member"))?;
    if !queries::set_admin(&mut tx, &firm_id, &user_id, is_admin).await? {
        return Err(Error::NotFound("Member"));
    }
    tx.commit().await?;
    Ok(())
}

pub const EMAIL_MAX: usize = 320;

/// A firm's administrator invites a colleague by email: the invitation email goes through the
/// outbox, and the colleague joins the firm at their first sign-in (or their next, with an
/// account already). An address of another firm's domain, or of someone in a firm, is refused.
pub async fn invite(pool: &PgPool, jobs: &dyn JobQueue, viewer: &Viewer, email: &str) -> Result<()> {
    let firm_id = my_firm(pool, viewer).await?;
    let mut fields = FieldErrors::new();
    let email = optional_email(&mut fields, "email", Some(email), EMAIL_MAX);
    let Some(email) = email.filter(|_| fields.is_empty()) else {
        if fields.is_empty() {
            fields.insert("email".into(), REQUIRED_MESSAGE.into());
        }
        return Err(Error::invalid(fields));
    };
    let mut tx = pool.begin().await?;
    let firm_id = lock_active_firm(&mut tx, &firm_id).await?;
    let domain = domains::of_email(&email).unwrap_or_default();
    if let Some((_, other)) = queries::domains_taken(&mut *tx, std::slice::from_ref(&domain), Some(&firm_id)).await?.pop() {
        return Err(Error::field("email", format!("This address belongs to {other}")));
    }
    if let Some(user_id) = crate::users::queries::user_id_by_email(&mut *tx, &email).await? {
        let candidate = queries::lock_candidate(&mut tx, &user_id).await?;
        if candidate.as_ref().and_then(|c| c.firm_id.as_deref()) == Some(firm_id.as_str()) {
            return Err(Error::field("email", "This colleague is already a member of your firm"));
        }
        if candidate.is_some_and(|c| c.firm_id.is_some() || c.role.as_deref() != Some("Subscriber")) {
            return Err(Error::field("email", "This address cannot join your firm"));
        }
    }
    queries::invite(&mut tx, &firm_id, &email, &viewer.user.user_id).await?;
    let firm_name = queries::name(&mut *tx, &firm_id).await?.unwrap_or_default();
    let invited_at = crate::subscriptions::store::occasion_at(chrono::Utc::now());
    crate::email::compose::firm_invitation(&mut tx, jobs, (&firm_id, &firm_name), &email, &viewer.user.name, &invited_at).await?;
    tx.commit().await?;
    Ok(())
}

/// Withdraws an invitation not yet taken up: staff who change firms, or the firm's own
/// administrators. NOT_FOUND when there is none for that address.
pub async fn withdraw_invitation(pool: &PgPool, viewer: &Viewer, firm_id: &str, email: &str) -> Result<()> {
    let (firm_id, _) = access_to_change(pool, viewer, firm_id).await?;
    if queries::withdraw_invitation(pool, &firm_id, email.trim()).await? {
        Ok(())
    } else {
        Err(Error::NotFound("Invitation"))
    }
}
