//! Taxonomy records and the validation of what clients send (spec 1 §5).

use crate::error::{Error, FieldErrors, REQUIRED_MESSAGE};

/// The tree is at most this deep (spec 1 §3: "nested up to 5 levels").
pub const MAX_LEVEL: i32 = 5;
pub const CATEGORY_NAME_MAX: usize = 100;
pub const TAG_NAME_MAX: usize = 50;
pub const DESCRIPTION_MAX: usize = 500;

pub fn max_length_message(max: usize) -> String {
    format!("Maximum {max} characters")
}

/// A topic with its counts, as every read returns it.
#[derive(Debug, Clone)]
pub struct Category {
    pub category_id: String,
    pub name: String,
    pub description: String,
    pub parent_id: Option<String>,
    pub is_featured: bool,
    pub small_image: Option<String>,
    pub large_image: Option<String>,
    pub promotional_content_id: Option<String>,
    pub promotional_content_name: Option<String>,
    pub promotional_content_link: Option<String>,
    pub promotional_content_article_image: Option<String>,
    pub is_locked: bool,
    pub is_premium: bool,
    pub version: i32,
    pub level: i32,
    pub article_count: i64,
    pub subscribers_count: i64,
    pub contributors_count: i64,
    pub views: i64,
    pub is_following: bool,
}

#[derive(Debug, Clone)]
pub struct Tag {
    pub tag_id: String,
    pub name: String,
    pub description: String,
    pub version: i32,
    pub article_count: i64,
    pub views: i64,
}

/// Checks a required text field: trimmed, non-blank, at most `max` characters.
pub fn required_text(fields: &mut FieldErrors, field: &str, value: &str, max: usize) -> String {
    let value = value.trim();
    if value.is_empty() {
        fields.insert(field.to_owned(), REQUIRED_MESSAGE.to_owned());
    } else if value.chars().count() > max {
        fields.insert(field.to_owned(), max_length_message(max));
    }
    value.to_owned()
}

/// An optional id: blank means none; a malformed one is NOT_FOUND, like a missing record.
pub fn optional_id(value: Option<&str>, entity: &'static str) -> Result<Option<String>, Error> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(id) if crate::ids::is_valid_id(id) => Ok(Some(id.to_owned())),
        Some(_) => Err(Error::NotFound(entity)),
    }
}

/// An optional file name of an upload: blank means none.
pub fn optional_file(fields: &mut FieldErrors, field: &str, value: Option<&str>) -> Option<String> {
    let value = value.map(str::trim).filter(|v| !v.is_empty())?;
    if !crate::uploads::is_upload_name(value) {
        fields.insert(field.to_owned(), "Upload the image first".to_owned());
    }
    Some(value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_text_trims_and_checks_length() {
        let mut fields = FieldErrors::new();
        assert_eq!(required_text(&mut fields, "name", "  Energy  ", 100), "Energy");
        assert!(fields.is_empty());
        required_text(&mut fields, "name", "   ", 100);
        assert_eq!(fields["name"], REQUIRED_MESSAGE);
        let mut fields = FieldErrors::new();
        required_text(&mut fields, "name", &"é".repeat(101), 100);
        assert_eq!(fields["name"], "Maximum 100 characters");
        let mut fields = FieldErrors::new();
        required_text(&mut fields, "name", &"é".repeat(100), 100);
        assert!(fields.is_empty(), "characters, not bytes");
    }

    #[test]
    fn malformed_ids_are_not_found() {
        assert!(matches!(optional_id(Some("nope"), "Topic"), Err(Error::NotFound("Topic"))));
        assert_eq!(optional_id(Some(" "), "Topic").unwrap(), None);
    }
}
