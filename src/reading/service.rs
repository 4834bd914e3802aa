//! The reader side's input rules: what a view stat and a campaign type may hold.

use crate::{
    error::{Error, FieldErrors, Result},
    ids,
    validation::{optional_text, required_text},
};

/// The longest campaign type: it ends the campaign's link (`{campaignId}_{type}`).
pub const CAMPAIGN_TYPE_MAX: usize = 50;

/// A checked `addArticleViewStat` item.
#[derive(Debug, PartialEq, Eq)]
pub struct ViewStat {
    pub view_type: String,
    pub session: String,
    pub source: Option<String>,
    pub source_id: Option<String>,
    pub source_detail: Option<String>,
}

impl ViewStat {
    /// The campaign a view came from: its `sourceId` when the source is 'campaign' (the query keeps
    /// it only for a campaign of the viewed article).
    pub fn campaign_id(&self) -> Option<&str> {
        self.source_id.as_deref().filter(|id| self.source.as_deref() == Some("campaign") && ids::is_valid_id(id))
    }
}

pub fn view_stat(
    view_type: &str,
    session: &str,
    source: Option<&str>,
    source_id: Option<&str>,
    source_detail: Option<&str>,
) -> Result<ViewStat> {
    let mut fields = FieldErrors::new();
    let stat = ViewStat {
        view_type: required_text(&mut fields, "type", view_type, 50),
        session: required_text(&mut fields, "session", session, 100),
        source: optional_text(&mut fields, "source", source, 50),
        source_id: optional_text(&mut fields, "sourceId", source_id, 100),
        source_detail: optional_text(&mut fields, "sourceDetail", source_detail, 200),
    };
    if fields.is_empty() { Ok(stat) } else { Err(Error::invalid(fields)) }
}

/// A campaign type: required, letters, digits, '-' and '_' (it sits in a URL), at most 50.
pub fn campaign_type(value: &str) -> Result<String> {
    let mut fields = FieldErrors::new();
    let value = required_text(&mut fields, "campaignType", value, CAMPAIGN_TYPE_MAX);
    if fields.is_empty() && !value.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        fields.insert("campaignType".to_owned(), "Use letters, digits, '-' and '_' only".to_owned());
    }
    if fields.is_empty() { Ok(value) } else { Err(Error::invalid(fields)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_stats_are_trimmed_bounded_and_attributed_only_to_campaign_ids() {
        let stat = view_stat(" article ", "s1", Some("campaign"), Some(&crate::ids::new_id()), None).unwrap();
        assert_eq!(stat.view_type, "article");
        assert!(stat.campaign_id().is_some());
        assert_eq!(view_stat("article", "s1", Some("email"), Some(&crate::ids::new_id()), None).unwrap().campaign_id(), None);
        assert!(view_stat("article", " ", None, None, None).is_err());
        assert!(view_stat("article", "s", Some(&"x".repeat(51)), None, None).is_err());
    }

    #[test]
    fn campaign_types_fit_in_a_link() {
        assert_eq!(campaign_type(" newsletter ").unwrap(), "newsletter");
        assert!(campaign_type("").is_err());
        assert!(campaign_type("a/b").is_err());
        assert!(campaign_type(&"a".repeat(51)).is_err());
    }
}
