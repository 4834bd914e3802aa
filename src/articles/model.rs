//! The article enums of spec 1 §3 and spec 2 §3–§4, as the API and the database spell them.

use async_graphql::Enum;
use chrono::{DateTime, Days, Months, NaiveTime, Utc};

#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug)]
#[graphql(rename_items = "PascalCase")]
pub enum ArticleState {
    Pending,
    ReadyForReview,
    Published,
    Archived,
}

impl ArticleState {
    pub fn as_str(self) -> &'static str {
        match self {
            ArticleState::Pending => "Pending",
            ArticleState::ReadyForReview => "ReadyForReview",
            ArticleState::Published => "Published",
            ArticleState::Archived => "Archived",
        }
    }

    pub fn parse(value: &str) -> ArticleState {
        match value {
            "ReadyForReview" => ArticleState::ReadyForReview,
            "Published" => ArticleState::Published,
            "Archived" => ArticleState::Archived,
            _ => ArticleState::Pending,
        }
    }

    /// A draft: what Contributors may change.
    pub fn is_draft(self) -> bool {
        matches!(self, ArticleState::Pending | ArticleState::ReadyForReview)
    }
}

/// The list's kind tabs (spec 2 "Articles list").
#[derive(Enum, Clone, Copy, PartialEq, Eq, Default, Debug)]
#[graphql(rename_items = "camelCase")]
pub enum ArticleListType {
    /// Created, edited or published today.
    Today,
    #[default]
    All,
    /// The caller's: as author or contributor.
    My,
    Published,
    Pending,
    Archived,
}

/// What a tab of the list selects.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct TabScope<'a> {
    pub state: Option<ArticleState>,
    /// Edited (publishing is an edit) since this instant.
    pub changed_since: Option<DateTime<Utc>>,
    /// Authored by or credited to this user.
    pub mine: Option<&'a str>,
}

impl ArticleListType {
    /// The articles of this tab for `user_id`; 'Today' starts at midnight UTC.
    pub fn scope(self, user_id: &str, now: DateTime<Utc>) -> TabScope<'_> {
        let by_state = |state| TabScope { state: Some(state), ..TabScope::default() };
        match self {
            ArticleListType::All => TabScope::default(),
            ArticleListType::Today => TabScope { changed_since: Some(now.date_naive().and_time(NaiveTime::MIN).and_utc()), ..TabScope::default() },
            ArticleListType::My => TabScope { mine: Some(user_id), ..TabScope::default() },
            ArticleListType::Published => by_state(ArticleState::Published),
            ArticleListType::Pending => by_state(ArticleState::Pending),
            ArticleListType::Archived => by_state(ArticleState::Archived),
        }
    }
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Default, Debug)]
#[graphql(rename_items = "PascalCase")]
pub enum ArticleSortField {
    Title,
    PublishedBy,
    Views,
    PublishDate,
    LastEdited,
    #[default]
    Created,
    Premium,
}

/// What publishing needs and the article lacks (spec 2 §4), in the spec's order; refusals carry
/// their names in `extensions.gaps`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PublishGap {
    TextAbsent,
    PublisherAbsent,
    ContributorAbsent,
    SummaryAbsent,
    CategoriesAbsent,
    TitleAbsent,
    ChannelAbsent,
}

impl PublishGap {
    pub fn as_str(self) -> &'static str {
        match self {
            PublishGap::TextAbsent => "TextAbsent",
            PublishGap::PublisherAbsent => "PublisherAbsent",
            PublishGap::ContributorAbsent => "ContributorAbsent",
            PublishGap::SummaryAbsent => "SummaryAbsent",
            PublishGap::CategoriesAbsent => "CategoriesAbsent",
            PublishGap::TitleAbsent => "TitleAbsent",
            PublishGap::ChannelAbsent => "ChannelAbsent",
        }
    }
}

/// How long a premium article stays premium after its publish date: '3d', '1w' or '1m'.
pub const EXPIRY_OFFSETS: &[&str] = &["3d", "1w", "1m"];

/// When premium access to an article ends: its publish date plus the offset; none without either.
pub fn premium_expires_at(publish_date: Option<DateTime<Utc>>, offset: Option<&str>) -> Option<DateTime<Utc>> {
    let date = publish_date?;
    match offset? {
        "3d" => date.checked_add_days(Days::new(3)),
        "1w" => date.checked_add_days(Days::new(7)),
        "1m" => date.checked_add_months(Months::new(1)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn the_today_tab_starts_at_midnight_utc() {
        let now = Utc.with_ymd_and_hms(2024, 1, 5, 17, 30, 0).unwrap();
        let midnight = Utc.with_ymd_and_hms(2024, 1, 5, 0, 0, 0).unwrap();
        assert_eq!(ArticleListType::Today.scope("u", now).changed_since, Some(midnight));
        assert_eq!(ArticleListType::My.scope("u", now).mine, Some("u"));
        assert_eq!(ArticleListType::Archived.scope("u", now).state, Some(ArticleState::Archived));
    }

    #[test]
    fn expiry_adds_the_offset_to_the_publish_date() {
        let published = Utc.with_ymd_and_hms(2024, 1, 31, 10, 0, 0).unwrap();
        let at = |offset| premium_expires_at(Some(published), Some(offset)).unwrap().to_rfc3339();
        assert_eq!(at("3d"), "2024-02-03T10:00:00+00:00");
        assert_eq!(at("1w"), "2024-02-07T10:00:00+00:00");
        assert_eq!(at("1m"), "2024-02-29T10:00:00+00:00");
        assert_eq!(premium_expires_at(None, Some("1w")), None);
        assert_eq!(premium_expires_at(Some(published), None), None);
    }
}
