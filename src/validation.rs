//! Checks shared by every area's input: required and optional text with the spec's messages,
//! ids, and uploaded file names.

use crate::error::{Error, FieldErrors, REQUIRED_MESSAGE};

/// Spec 1 §5's shared date messages, for a date field whose own message the spec does not give
/// (it gives 'Invalid Publish Date' and 'Invalid Expiry Date' for some): a value that is no date,
/// a date before the earliest one allowed, and a date in the past.
pub const INVALID_DATE_MESSAGE: &str = "Invalid Date";
pub const BEFORE_MIN_DATE_MESSAGE: &str = "Date should not be before minimal date";
pub const PAST_DATE_MESSAGE: &str = "Date cannot be in the past";

/// Said of text holding the NUL character, which PostgreSQL cannot store.
pub const NUL_MESSAGE: &str = "Text cannot contain the NUL character";

pub fn max_length_message(max: usize) -> String {
    format!("Maximum {max} characters")
}

/// An optional text field: trimmed, blank means none, at most `max` characters.
pub fn optional_text(fields: &mut FieldErrors, field: &str, value: Option<&str>, max: usize) -> Option<String> {
    let value = value.map(str::trim).filter(|v| !v.is_empty())?;
    if value.chars().count() > max {
        fields.insert(field.to_owned(), max_length_message(max));
    } else if value.contains('\0') {
        fields.insert(field.to_owned(), NUL_MESSAGE.to_owned());
    }
    Some(value.to_owned())
}

/// An optional email address: trimmed, blank means none, at most `max` characters, one `@` with
/// text before it and a dotted domain after it, no spaces.
pub fn optional_email(fields: &mut FieldErrors, field: &str, value: Option<&str>, max: usize) -> Option<String> {
    let value = optional_text(fields, field, value, max)?;
    let valid = match value.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.contains('@')
                && domain.split('.').count() >= 2
                && domain.split('.').all(|part| !part.is_empty())
                && !value.contains(char::is_whitespace)
        }
        None => false,
    };
    if !valid && !fields.contains_key(field) {
        fields.insert(field.to_owned(), INVALID_EMAIL_MESSAGE.to_owned());
    }
    Some(value)
}

/// Spec 1 §5's email message (it allows 'Email should be valid' or 'Invalid email address'): the
/// one the web app's forms show (`web/src/lib/email.ts`), for every email field.
pub const INVALID_EMAIL_MESSAGE: &str = "Email should be valid";

/// Checks a required text field: trimmed, non-blank, at most `max` characters.
pub fn required_text(fields: &mut FieldErrors, field: &str, value: &str, max: usize) -> String {
    let value = value.trim();
    if value.is_empty() {
        fields.insert(field.to_owned(), REQUIRED_MESSAGE.to_owned());
    } else if value.chars().count() > max {
        fields.insert(field.to_owned(), max_length_message(max));
    } else if value.contains('\0') {
        fields.insert(field.to_owned(), NUL_MESSAGE.to_owned());
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

/// A list of ids: blanks dropped, sorted, deduplicated; a malformed one is NOT_FOUND.
pub fn id_list(values: &[String], entity: &'static str) -> Result<Vec<String>, Error> {
    let mut ids = Vec::with_capacity(values.len());
    for value in values {
        ids.extend(optional_id(Some(value), entity)?);
    }
    ids.sort();
    ids.dedup();
    Ok(ids)
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
        required_text(&mut fields, "name", "Ener\0gy", 100);
        assert_eq!(fields["name"], NUL_MESSAGE);
        optional_text(&mut fields, "note", Some("\0"), 100);
        assert_eq!(fields["note"], NUL_MESSAGE);
    }

    #[test]
    fn emails_need_a_local_part_and_a_dotted_domain() {
        for good in ["desk@insights.example", " a.b+c@x.co "] {
            let mut fields = FieldErrors::new();
            optional_email(&mut fields, "email", Some(good), 50);
            assert!(fields.is_empty(), "{good}");
        }
        for bad in ["desk", "@x.co", "a@b", "a@b.", "a b@x.co", "a@b@c.co"] {
            let mut fields = FieldErrors::new();
            optional_email(&mut fields, "email", Some(bad), 50);
            assert_eq!(fields["email"], INVALID_EMAIL_MESSAGE, "{bad}");
        }
        let mut fields = FieldErrors::new();
        assert_eq!(optional_email(&mut fields, "email", Some("  "), 50), None);
    }

    #[test]
    fn malformed_ids_are_not_found() {
        assert!(matches!(optional_id(Some("nope"), "Topic"), Err(Error::NotFound("Topic"))));
        assert_eq!(optional_id(Some(" "), "Topic").unwrap(), None);
    }
}
