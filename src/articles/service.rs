//! The rules of writing articles (spec 2 §4–§6 and the issue): who may open and change an article,
//! the lifecycle (save stores a draft, publish checks the gaps, archive), the channel rules, the
//! custom publish date, versions, and the notification request of a publish.

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgConnection, PgPool};

use super::{
    model::{ArticleState, EXPIRY_OFFSETS, PublishGap},
    queries::{self, ArticleValues, LockedArticle},
    text::body_text,
};
use crate::{
    auth::Role,
    channels::queries as channels,
    error::{Error, FieldErrors, REQUIRED_MESSAGE, Result, ResultExt},
    ids,
    jobs::JobRequest,
    state::AppState,
    users::queries as users,
    validation::{id_list, max_length_message, optional_id, optional_text},
};

pub const TITLE_MAX: usize = 500;
pub const SUMMARY_MAX: usize = 250;
pub const INVALID_PUBLISH_DATE: &str = "Invalid Publish Date";
pub const ARCHIVED_CHANNEL_MESSAGE: &str = "This channel is archived and accepts no new articles.";
/// The placeholder a template title may hold for today's date.
pub const TODAY_PLACEHOLDER: &str = "{{today}}";
/// A custom publish date may be this far ahead of the server's clock (the client's clock drifts).
const CLOCK_SKEW: Duration = Duration::minutes(1);

/// An article as the editor sends it.
#[derive(Debug, Clone, Default)]
pub struct ArticleChange {
    pub id: Option<String>,
    pub version: Option<i32>,
    pub title: String,
    pub html: Option<String>,
    pub summary: Option<String>,
    pub premium_channel_id: Option<String>,
    pub contributors: Vec<String>,
    pub categories: Vec<String>,
    pub tags: Vec<String>,
    pub promotional_content_ids: Vec<String>,
    pub is_premium: Option<bool>,
    pub premium_expiry_offset: Option<String>,
    pub publish_date: Option<DateTime<Utc>>,
    pub show_watermark: bool,
    pub display_in_chart_section: bool,
    pub is_pinned: bool,
    pub is_timeless: bool,
    pub template_id: Option<String>,
    pub send_emails: Option<bool>,
}

/// Save stores a draft; publish publishes (spec 2 §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Save,
    Publish,
}

/// Who writes: the signed-in staff user.
#[derive(Debug, Clone, Copy)]
pub struct Author<'a> {
    pub user_id: &'a str,
    pub role: Role,
    /// May embed Tableau charts and choose 'Display in chart section' (spec 1 §6).
    pub tableau_access: bool,
}

impl Author<'_> {
    /// Publish rights: Editors, and Administrators above them.
    pub fn may_publish(&self) -> bool {
        matches!(self.role, Role::Administrator | Role::Editor)
    }

    fn is_admin(&self) -> bool {
        self.role == Role::Administrator
    }
}

/// Whether a user may open an article: an Administrator any; others as a contributor of it, an
/// admin of its channel or a member of its publishing desk (`has_access`).
pub fn may_open(role: Role, has_access: bool) -> bool {
    role == Role::Administrator || (role.is_staff() && has_access)
}

/// A title on one line: newlines become spaces.
pub fn one_line(title: &str) -> String {
    title.replace("\r\n", " ").replace(['\n', '\r'], " ").trim().to_owned()
}

/// Today's date as templates show it, like "05 Jan 2024".
pub fn today_text(now: DateTime<Utc>) -> String {
    now.format("%d %b %Y").to_string()
}

/// A template title with its placeholder replaced by today's date.
pub fn title_for_today(title: &str, now: DateTime<Utc>) -> String {
    title.replace(TODAY_PLACEHOLDER, &today_text(now))
}

/// The checked, normalised fields of a change (before the stored article is consulted).
struct ValidArticle {
    title: String,
    html: String,
    body_text: String,
    body_is_empty: bool,
    summary: Option<String>,
    channel_id: Option<String>,
    contributors: Vec<String>,
    categories: Vec<String>,
    tags: Vec<String>,
    promotional_content: Vec<String>,
    template_id: Option<String>,
}

async fn validate(state: &AppState, change: &ArticleChange, action: Action, now: DateTime<Utc>) -> Result<ValidArticle> {
    let mut fields = FieldErrors::new();
    let title = one_line(&change.title);
    // Publishing reports a missing title as a gap; a draft needs one.
    if title.is_empty() && action == Action::Save {
        fields.insert("title".to_owned(), REQUIRED_MESSAGE.to_owned());
    } else if title.chars().count() > TITLE_MAX {
        fields.insert("title".to_owned(), max_length_message(TITLE_MAX));
    }
    let summary = optional_text(&mut fields, "summary", change.summary.as_deref(), SUMMARY_MAX);
    if change.publish_date.is_some_and(|date| date > now + CLOCK_SKEW) {
        fields.insert("publishDate".to_owned(), INVALID_PUBLISH_DATE.to_owned());
    }
    if let Some(offset) = &change.premium_expiry_offset
        && !EXPIRY_OFFSETS.contains(&offset.as_str())
    {
        fields.insert("premiumExpiryOffset".to_owned(), "Choose 3d, 1w or 1m".to_owned());
    }
    let contributors = id_list(&change.contributors, "User")?;
    if !contributors.is_empty() && !users::non_staff_among(&state.pool, &contributors).await?.is_empty() {
        fields.insert("contributors".to_owned(), "Choose contributors among the staff users".to_owned());
    }
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    let html = state.sanitizer.clean(change.html.as_deref().unwrap_or_default());
    let body = body_text(&html);
    Ok(ValidArticle {
        title,
        body_is_empty: body.is_empty(),
        body_text: with_page_texts(body.text, &crate::uploads::page_texts(&state.pool, &html).await?),
        html,
        summary,
        channel_id: optional_id(change.premium_channel_id.as_deref(), "Channel")?,
        contributors,
        categories: id_list(&change.categories, "Category")?,
        tags: id_list(&change.tags, "Tag")?,
        promotional_content: id_list(&change.promotional_content_ids, "Promotional content")?,
        template_id: optional_id(change.template_id.as_deref(), "Template")?,
    })
}

/// The body's text followed by the text of the PDF pages it shows (migration 0033), so that an
/// article made of PDF pages is found by what its pages say.
fn with_page_texts(text: String, pages: &[crate::uploads::PageText]) -> String {
    if pages.is_empty() {
        return text;
    }
    let words = pages.iter().flat_map(|page| page.text.split_whitespace());
    std::iter::once(text.as_str()).filter(|text| !text.is_empty()).chain(words).collect::<Vec<_>>().join(" ")
}

/// The channel's part of an article: its publisher and premium flags (spec 2 §4 channel rules).
struct ChannelPart {
    desk_id: Option<String>,
    user_id: Option<String>,
    is_premium: bool,
    expiry_offset: Option<String>,
}

async fn channel_part(
    conn: &mut PgConnection,
    author: Author<'_>,
    change: &ArticleChange,
    channel_id: Option<&str>,
    stored: Option<&LockedArticle>,
    premium_features: bool,
) -> Result<ChannelPart> {
    let stored_channel = stored.and_then(|s| s.premium_channel_id.as_deref());
    let Some(channel_id) = channel_id else {
        return Ok(ChannelPart { desk_id: None, user_id: None, is_premium: false, expiry_offset: None });
    };
    let channel =
        channels::publishing_channel(&mut *conn, channel_id, author.user_id).await?.ok_or(Error::NotFound("Channel"))?;
    if channel.state == "archived" {
        return Err(Error::Conflict(ARCHIVED_CHANNEL_MESSAGE.to_owned()));
    }
    // Non-admins choose among the channels they may publish to (`me.channelsToPublish`); an
    // article they may open keeps the channel it already has.
    if !author.is_admin() && !channel.may_publish && stored_channel != Some(channel_id) {
        return Err(Error::Forbidden);
    }
    // The premium flag is the inverse of open-to-all, and only for channels that are not free-open;
    // without it there is no expiry.
    let (is_premium, expiry_offset) = if premium_features {
        let is_premium = channel.channel_type != "freeOpen" && change.is_premium.unwrap_or(false);
        (is_premium, change.premium_expiry_offset.clone().filter(|_| is_premium))
    } else {
        // Premium features off (INSIGHTS_FEATURE_PREMIUM_FEATURES=false): an article's premium
        // terms are not the author's to choose. It keeps those it has while it stays in its
        // channel; in a new channel it is for the channel's subscribers (unless the channel is
        // free-open), with no period that ends. Nothing a reader has not paid for is opened.
        match stored.filter(|s| s.premium_channel_id.as_deref() == Some(channel_id)) {
            Some(stored) => (stored.is_premium, stored.premium_expiry_offset.clone()),
            None => (channel.channel_type != "freeOpen", None),
        }
    };
    Ok(ChannelPart { desk_id: channel.owner_desk_id, user_id: channel.owner_user_id, is_premium, expiry_offset })
}

fn publish_gaps(valid: &ValidArticle, contributors: &[String], channel: &ChannelPart) -> Vec<&'static str> {
    let checks = [
        (PublishGap::TextAbsent, valid.body_is_empty),
        (PublishGap::PublisherAbsent, channel.desk_id.is_none() && channel.user_id.is_none()),
        (PublishGap::ContributorAbsent, contributors.is_empty()),
        (PublishGap::SummaryAbsent, valid.summary.is_none()),
        (PublishGap::CategoriesAbsent, valid.categories.is_empty()),
        (PublishGap::TitleAbsent, valid.title.is_empty()),
        (PublishGap::ChannelAbsent, valid.channel_id.is_none()),
    ];
    checks.into_iter().filter(|(_, missing)| *missing).map(|(gap, _)| gap.as_str()).collect()
}

/// Refuses a change of an article the author may not make (the stored article is locked).
async fn check_may_change(conn: &mut PgConnection, author: Author<'_>, id: &str, stored: &LockedArticle) -> Result<()> {
    if !author.is_admin() && !may_open(author.role, queries::has_access(&mut *conn, id, author.user_id).await?) {
        return Err(Error::Forbidden);
    }
    // Contributors save and edit drafts; a published or archived article needs publish rights.
    if !author.may_publish() && !ArticleState::parse(&stored.state).is_draft() {
        return Err(Error::Forbidden);
    }
    Ok(())
}

/// Adds (no `id`) or edits an article, as a draft (`Save`) or published (`Publish`). Returns its id.
pub async fn write_article(state: &AppState, author: Author<'_>, change: &ArticleChange, action: Action, is_new: bool) -> Result<String> {
    write_article_as(state, author, change, action, is_new, None).await
}

/// `write_article`, keeping the result as the article's next revision; `restored_from`: the
/// revision number a restore brings back.
#[tracing::instrument(skip_all, fields(action = ?action))]
async fn write_article_as(
    state: &AppState,
    author: Author<'_>,
    change: &ArticleChange,
    action: Action,
    is_new: bool,
    restored_from: Option<i32>,
) -> Result<String> {
    if !author.role.is_staff() || (action == Action::Publish && !author.may_publish()) {
        return Err(Error::Forbidden);
    }
    let now = Utc::now();
    let valid = validate(state, change, action, now).await?;
    let mut tx = state.pool.begin().await?;
    let (id, stored) = if is_new {
        (ids::new_id(), None)
    } else {
        let id = optional_id(change.id.as_deref(), "Article")?.ok_or_else(|| Error::field("_id", REQUIRED_MESSAGE))?;
        let version = change.version.ok_or_else(|| Error::field("version", REQUIRED_MESSAGE))?;
        let stored = queries::lock_article(&mut tx, &id).await?.ok_or(Error::NotFound("Article"))?;
        check_may_change(&mut tx, author, &id, &stored).await?;
        Error::check_version(Some(stored.version), version, "Article")?;
        (id, Some(stored))
    };
    // Only publishers set a custom publish date; others keep the stored one.
    let stored_date = stored.as_ref().and_then(|s| s.publish_date);
    if change.publish_date.is_some() && change.publish_date != stored_date && !author.may_publish() {
        return Err(Error::Forbidden);
    }
    // 'Display in chart section' is changed only by users with Tableau access; others keep it.
    let stored_chart_flag = stored.as_ref().is_some_and(|s| s.display_in_chart_section);
    if change.display_in_chart_section != stored_chart_flag && !author.tableau_access {
        return Err(Error::Forbidden);
    }
    let premium_features = state.config.features.premium_features;
    let channel = channel_part(&mut tx, author, change, valid.channel_id.as_deref(), stored.as_ref(), premium_features).await?;

    let mut contributors = valid.contributors.clone();
    // Whoever starts an article is credited on it, so they can come back to it.
    if is_new && !author.is_admin() && !contributors.iter().any(|c| c == author.user_id) {
        contributors.push(author.user_id.to_owned());
    }
    let was_published = stored.as_ref().is_some_and(|s| s.was_published_previously || s.state == "Published");
    let (article_state, publish_date, send_emails) = match action {
        Action::Save => (ArticleState::Pending, change.publish_date.or(stored_date), false),
        Action::Publish => {
            let gaps = publish_gaps(&valid, &contributors, &channel);
            if !gaps.is_empty() {
                return Err(Error::PublishGaps(gaps));
            }
            // A fresh article published now always notifies; otherwise the editor decides.
            let back_dated = change.publish_date.is_some();
            let send_emails = if !was_published && !back_dated { true } else { change.send_emails.unwrap_or(false) };
            (ArticleState::Published, Some(change.publish_date.or(stored_date).unwrap_or(now)), send_emails)
        }
    };
    let title = match (&valid.template_id, is_new) {
        (Some(_), true) => title_for_today(&valid.title, now),
        _ => valid.title.clone(),
    };
    let values = ArticleValues {
        title: &title,
        html: &valid.html,
        body_text: &valid.body_text,
        summary: valid.summary.as_deref(),
        state: article_state.as_str(),
        publish_date,
        was_published_previously: was_published || article_state == ArticleState::Published,
        premium_channel_id: valid.channel_id.as_deref(),
        published_by_desk_id: channel.desk_id.as_deref(),
        published_by_user_id: channel.user_id.as_deref(),
        is_premium: channel.is_premium,
        premium_expiry_offset: channel.expiry_offset.as_deref(),
        show_watermark: change.show_watermark,
        display_in_chart_section: change.display_in_chart_section,
        is_pinned: change.is_pinned,
        is_timeless: change.is_timeless,
        send_emails,
    };
    if is_new {
        queries::insert_article(&mut tx, &id, author.user_id, valid.template_id.as_deref(), &values)
            .await
            .on_constraint("article_template_id_fkey", || Error::NotFound("Template"))?;
    } else {
        queries::update_article(&mut tx, &id, &values).await?;
    }
    queries::set_relations(&mut tx, &id, &contributors, &valid.categories, &valid.tags, &valid.promotional_content)
        .await
        .on_constraint("article_category_category_id_fkey", || Error::field("categories", "Choose existing topics"))
        .on_constraint("article_tag_tag_id_fkey", || Error::field("tags", "Choose existing tags"))
        .on_constraint("article_promotional_content_promotional_content_id_fkey", || {
            Error::field("promotionalContentIds", "Choose existing promotional content")
        })
        .on_constraint("article_contributor_user_id_fkey", || Error::field("contributors", "Choose contributors among the staff users"))?;
    let revision_action = match (restored_from, is_new, action) {
        (Some(_), ..) => "restore",
        (None, _, Action::Publish) => "publish",
        (None, true, Action::Save) => "add",
        (None, false, Action::Save) => "save",
    };
    queries::record_revision(&mut tx, &ids::new_id(), &id, author.user_id, revision_action, restored_from).await?;
    if send_emails {
        let request_id = queries::request_notification(&mut tx, &id, author.user_id, was_published).await?;
        state.jobs.enqueue(&mut tx, JobRequest::NotifyArticleSubscribers { request_id, article_id: id.clone() }).await?;
    }
    tx.commit().await?;
    tracing::info!(article = %id, state = article_state.as_str(), send_emails, "article written");
    Ok(id)
}

/// Archives an existing article that is not archived yet.
#[tracing::instrument(skip(pool))]
pub async fn archive_article(pool: &PgPool, author: Author<'_>, id: &str, version: i32) -> Result<String> {
    if !author.role.is_staff() {
        return Err(Error::Forbidden);
    }
    let id = optional_id(Some(id), "Article")?.ok_or(Error::NotFound("Article"))?;
    let mut tx = pool.begin().await?;
    let stored = queries::lock_article(&mut tx, &id).await?.ok_or(Error::NotFound("Article"))?;
    check_may_change(&mut tx, author, &id, &stored).await?;
    Error::check_version(Some(stored.version), version, "Article")?;
    if stored.state == "Archived" {
        return Err(Error::Conflict("This article is already archived.".to_owned()));
    }
    queries::set_state(&mut tx, &id, ArticleState::Archived.as_str()).await?;
    queries::record_revision(&mut tx, &ids::new_id(), &id, author.user_id, "archive", None).await?;
    tx.commit().await?;
    Ok(id)
}

/// Who may read an article's history: whoever may open it in the editor.
pub async fn require_may_open(pool: &PgPool, author: Author<'_>, article_id: &str) -> Result<()> {
    if !author.role.is_staff() {
        return Err(Error::Forbidden);
    }
    if author.is_admin() || may_open(author.role, queries::has_access(pool, article_id, author.user_id).await?) {
        Ok(())
    } else {
        Err(Error::Forbidden)
    }
}

/// An article's revision, for a caller who may open the article; NOT_FOUND for another article's.
pub async fn revision(pool: &PgPool, author: Author<'_>, revision_id: &str) -> Result<queries::Revision> {
    let id = optional_id(Some(revision_id), "Revision")?.ok_or(Error::NotFound("Revision"))?;
    let revision = queries::revision(pool, &id).await?.ok_or(Error::NotFound("Revision"))?;
    require_may_open(pool, author, &revision.article_id).await?;
    Ok(revision)
}

/// Restores a revision as a new one: an edit (a draft, like 'Update draft') with the revision's
/// title, summary, body, channel, premium flags, topics, tags and contributors, based on the
/// article's `version` (CONFLICT when stale); the article's other settings stay as they are.
/// Topics and tags deleted since are left out. Returns the article's id.
pub async fn restore_revision(state: &AppState, author: Author<'_>, article_id: &str, revision_id: &str, version: i32) -> Result<String> {
    let revision = revision(&state.pool, author, revision_id).await?;
    let article_id = optional_id(Some(article_id), "Article")?.ok_or(Error::NotFound("Article"))?;
    if revision.article_id != article_id {
        return Err(Error::NotFound("Revision"));
    }
    let current = queries::article_by_id(&state.pool, &article_id, author.user_id).await?.ok_or(Error::NotFound("Article"))?;
    let promotional_content_ids = queries::relations_of(&state.pool, std::slice::from_ref(&article_id))
        .await?
        .remove(&article_id)
        .map(|relations| relations.promotional_content.into_iter().map(|p| p.id).collect())
        .unwrap_or_default();
    let existing = |named: &[queries::NamedId]| named.iter().filter(|n| n.name.is_some()).map(|n| n.id.clone()).collect();
    let change = ArticleChange {
        id: Some(article_id),
        version: Some(version),
        title: revision.title.clone(),
        html: Some(revision.html.clone()),
        summary: revision.summary.clone(),
        premium_channel_id: revision.premium_channel_id.clone(),
        contributors: existing(&revision.contributors),
        categories: existing(&revision.topics),
        tags: existing(&revision.tags),
        promotional_content_ids,
        is_premium: Some(revision.is_premium),
        premium_expiry_offset: revision.premium_expiry_offset.clone(),
        publish_date: current.publish_date,
        show_watermark: current.show_watermark,
        display_in_chart_section: current.display_in_chart_section,
        is_pinned: current.is_pinned,
        is_timeless: current.is_timeless,
        template_id: current.template_id.clone(),
        send_emails: None,
    };
    write_article_as(state, author, &change, Action::Save, false, Some(revision.number)).await
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn titles_are_kept_on_one_line() {
        assert_eq!(one_line("Oil\nand\r\ngas\r"), "Oil and gas");
        assert_eq!(one_line("  Q3 outlook \n"), "Q3 outlook");
    }

    #[test]
    fn the_placeholder_becomes_todays_date() {
        let now = Utc.with_ymd_and_hms(2024, 1, 5, 23, 0, 0).unwrap();
        assert_eq!(title_for_today("Morning note {{today}}", now), "Morning note 05 Jan 2024");
        assert_eq!(title_for_today("No placeholder", now), "No placeholder");
    }

    #[test]
    fn administrators_open_any_article_and_readers_none() {
        assert!(may_open(Role::Administrator, false));
        assert!(may_open(Role::Contributor, true));
        assert!(!may_open(Role::Editor, false));
        assert!(!may_open(Role::Subscriber, true));
    }
}
