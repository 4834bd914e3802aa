//! The rules of the users administration (spec 2 §2 Users, §5, §6): who may edit whom, Tableau
//! access for Administrators only, the Function's limit, and contributor photos only for users of
//! the company.

use sqlx::PgPool;

use super::queries;
use crate::{
    auth::Role,
    error::{Error, FieldErrors, Result},
    uploads::UploadStore,
    validation::{optional_file, optional_id, optional_text},
};

/// The Function (job title) field's limit (spec 2 §5).
const POSITION_MAX: usize = 50;

/// Whether `email` is on one of the company's email domains (only those users may show a photo).
pub fn is_company_email(email: &str, domains: &[String]) -> bool {
    email.rsplit_once('@').is_some_and(|(_, domain)| domains.iter().any(|d| d.eq_ignore_ascii_case(domain)))
}

/// An edit of a user's profile by a staff user.
#[derive(Debug, Clone)]
pub struct ProfileChange {
    pub id: String,
    pub version: i32,
    pub position: Option<String>,
    pub display_avatar: bool,
    pub tableau_access: bool,
    /// An uploaded image's file name; none keeps the current photo.
    pub profile_picture: Option<String>,
}

/// Administrators and Editors edit anyone, a Contributor only themself; only an Administrator may
/// change Tableau access; the photo only for users on a company domain. Returns the user's id.
/// The photo must be an upload the store holds (UNAVAILABLE when it cannot say).
pub async fn edit_profile(
    pool: &PgPool,
    uploads: &UploadStore,
    (editor_id, role): (&str, Role),
    change: &ProfileChange,
    company_domains: &[String],
) -> Result<String> {
    let id = optional_id(Some(&change.id), "User")?.ok_or(Error::NotFound("User"))?;
    let user = queries::find_by_id(pool, &id).await?.ok_or(Error::NotFound("User"))?;
    if role == Role::Contributor && user.user_id != editor_id {
        return Err(Error::Forbidden);
    }
    if change.tableau_access != user.tableau_access && role != Role::Administrator {
        return Err(Error::Forbidden);
    }
    let mut fields = FieldErrors::new();
    let position = optional_text(&mut fields, "position", change.position.as_deref(), POSITION_MAX);
    let picture = optional_file(&mut fields, "profilePicture", change.profile_picture.as_deref());
    if picture.as_deref().is_some_and(|name| name.ends_with(".gif")) {
        fields.insert("profilePicture".to_owned(), "Upload a PNG or JPEG image".to_owned());
    }
    if let Some(name) = picture.as_deref().filter(|_| !fields.contains_key("profilePicture"))
        && uploads.head(name).await?.is_none()
    {
        fields.insert("profilePicture".to_owned(), "Upload the image first".to_owned());
    }
    if (change.display_avatar || picture.is_some()) && !is_company_email(&user.email, company_domains) {
        fields.insert("displayAvatar".to_owned(), "Only users of the company can have a contributor photo".to_owned());
    }
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    let mut tx = pool.begin().await?;
    Error::check_version(queries::lock_user_version(&mut tx, &id).await?, change.version, "User")?;
    queries::update_profile(&mut tx, &id, position.as_deref(), change.display_avatar, change.tableau_access, picture.as_deref()).await?;
    tx.commit().await?;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn company_emails_match_a_domain_ignoring_case() {
        let domains = vec!["insights.example".to_owned()];
        assert!(is_company_email("Ann@Insights.Example", &domains));
        assert!(!is_company_email("ann@client.example", &domains));
        assert!(!is_company_email("ann@sub.insights.example", &domains));
        assert!(!is_company_email("insights.example", &domains));
    }
}
