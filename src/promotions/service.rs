//! The rules of promotional content and promotion pages (spec 2 'Promotional content', 'Promotion
//! pages', §4, §5): the form checks with the spec's messages, where a content leads (one
//! destination: a link or a page), expiry at the end of the chosen day, sanitised page html, the
//! Teams channel, versions, and a page deleted only while no other content uses it.

use std::cell::RefCell;

use chrono::{DateTime, NaiveDate, Utc};
use html5ever::{
    tendril::StrTendril,
    tokenizer::{BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts},
};
use sqlx::PgPool;

use super::queries::{self, ContentValues, PageValues};
use crate::{
    articles::{sanitize::Sanitizer, text::body_text},
    error::{Error, FieldErrors, REQUIRED_MESSAGE, Result, ResultExt},
    ids,
    interests::{Delivery, teams},
    templates::service::REQUIRED as PAGE_REQUIRED,
    uploads::is_upload_name,
    validation::{PAST_DATE_MESSAGE, max_length_message, optional_email, optional_file, optional_text, required_text},
};

const NAME_MAX: usize = 50;
const DESCRIPTION_MAX: usize = 250;
const LINK_MAX: usize = 2000;
const PAGE_NAME_MAX: usize = 100;
const PAGE_SUMMARY_MAX: usize = 200;
const SUCCESS_TITLE_MAX: usize = 200;
const SUCCESS_MESSAGE_MAX: usize = 200;
const TEAMS_CHANNEL_MAX: usize = 2000;

pub const DESTINATION_MESSAGE: &str = "Please choose a destination link";
pub const LINK_MESSAGE: &str = "Enter a link starting with https://, http:// or /";
pub const PAGE_MESSAGE: &str = "Choose an existing promotion page";
pub const TEAMS_CHANNEL_MESSAGE: &str = "Enter an email address or a Microsoft Teams webhook URL starting with https://";
pub const IMAGE_MESSAGE: &str = "Upload the image first";
pub const PAGE_IN_USE_MESSAGE: &str = "This page is used by another Promotional Content, so it can’t be deleted.";

/// Where a click on a promotional content goes (the form's destination choice).
#[derive(async_graphql::Enum, Debug, Clone, Copy, PartialEq, Eq)]
#[graphql(name = "PromotionDestination", rename_items = "PascalCase")]
pub enum Destination {
    /// Not chosen yet: the form cannot be saved so.
    NotSelected,
    ExternalLink,
    CustomLandingPage,
}

impl Destination {
    /// The destination a stored content has.
    pub fn of(link: Option<&str>, promotion_page_id: Option<&str>) -> Destination {
        match (link, promotion_page_id) {
            (_, Some(_)) => Destination::CustomLandingPage,
            (Some(_), None) => Destination::ExternalLink,
            (None, None) => Destination::NotSelected,
        }
    }
}

/// Where a click goes: the link, or the app's landing page of the content for a promotion page.
pub fn target(content_id: &str, link: Option<&str>, promotion_page_id: Option<&str>) -> Option<String> {
    match Destination::of(link, promotion_page_id) {
        Destination::CustomLandingPage => Some(format!("/promotion/{content_id}")),
        Destination::ExternalLink => link.map(str::to_owned),
        Destination::NotSelected => None,
    }
}

/// Clicks per impression; none before the first impression.
pub fn click_through_rate(impressions: i64, clicks: i64) -> Option<f64> {
    (impressions > 0).then(|| clicks as f64 / impressions as f64)
}

/// The instant a content chosen to expire on `day` expires: the last second of that day (UTC).
pub fn end_of_day(day: NaiveDate) -> DateTime<Utc> {
    day.and_hms_opt(23, 59, 59).expect("23:59:59 is a time").and_utc()
}

/// A link a promotional content may open: an absolute http(s) URL with a host, or a path of this
/// app ('/…', not '//host', which browsers read as another site).
pub fn is_valid_link(link: &str) -> bool {
    if link.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    if let Some(path) = link.strip_prefix('/') {
        return !path.starts_with('/') && !path.starts_with('\\');
    }
    match url::Url::parse(link) {
        Ok(url) => matches!(url.scheme(), "http" | "https") && url.host_str().is_some_and(|h| !h.is_empty()),
        Err(_) => false,
    }
}

/// Where a page's registered interest is delivered: an email address, or a web URL (a Teams
/// incoming webhook), whose scheme and addresses `check_teams_webhook` judges.
pub fn is_valid_teams_channel(channel: &str) -> bool {
    if !channel.contains("://") {
        let mut fields = FieldErrors::new();
        optional_email(&mut fields, "email", Some(channel), TEAMS_CHANNEL_MAX);
        return fields.is_empty();
    }
    url::Url::parse(channel).is_ok_and(|url| matches!(url.scheme(), "http" | "https") && url.host().is_some())
}

/// A webhook must be https and resolve to public addresses only (`interests::teams`), checked
/// when the page is saved and again at each post.
async fn check_teams_webhook(page: &ValidPage, test_hosts: &[String]) -> Result<()> {
    if Delivery::of_teams_channel(&page.teams_channel) != Delivery::Teams {
        return Ok(());
    }
    match teams::checked_addresses(&page.teams_channel, test_hosts).await {
        Ok(_) => Ok(()),
        Err(refusal) => Err(Error::field("teamsChannel", refusal.message())),
    }
}

/// A promotional content as a client wants it to be (add or edit).
#[derive(Debug, Clone)]
pub struct ContentChange {
    pub id: Option<String>,
    pub version: Option<i32>,
    pub name: String,
    pub description: Option<String>,
    pub article_image: Option<String>,
    pub sidebar_image: Option<String>,
    pub destination: Destination,
    pub link: Option<String>,
    pub promotion_page_id: Option<String>,
    pub expiry_date: Option<NaiveDate>,
}

/// A promotional content that passed the rules, as it will be stored.
#[derive(Debug, PartialEq)]
pub struct ValidContent {
    pub name: String,
    pub description: String,
    pub article_image: Option<String>,
    pub sidebar_image: Option<String>,
    pub link: Option<String>,
    pub promotion_page_id: Option<String>,
    pub expiry_date: Option<DateTime<Utc>>,
}

impl ValidContent {
    fn values(&self) -> ContentValues<'_> {
        ContentValues {
            name: &self.name,
            description: &self.description,
            article_image: self.article_image.as_deref(),
            sidebar_image: self.sidebar_image.as_deref(),
            link: self.link.as_deref(),
            promotion_page_id: self.promotion_page_id.as_deref(),
            expiry_date: self.expiry_date,
        }
    }
}

/// The form rules of spec 2 §5; `today` is the current UTC day. The destination keeps only its own
/// field (a link, or a page) and clears the other.
pub fn validate_content(change: &ContentChange, today: NaiveDate) -> Result<ValidContent> {
    let mut fields = FieldErrors::new();
    let name = required_text(&mut fields, "name", &change.name, NAME_MAX);
    let description = optional_text(&mut fields, "description", change.description.as_deref(), DESCRIPTION_MAX).unwrap_or_default();
    let article_image = optional_file(&mut fields, "articleImage", change.article_image.as_deref());
    let sidebar_image = optional_file(&mut fields, "sidebarImage", change.sidebar_image.as_deref());
    let (mut link, mut promotion_page_id) = (None, None);
    match change.destination {
        Destination::NotSelected => {
            fields.insert("destination".to_owned(), DESTINATION_MESSAGE.to_owned());
        }
        Destination::ExternalLink => match change.link.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
            None => {
                fields.insert("link".to_owned(), REQUIRED_MESSAGE.to_owned());
            }
            Some(value) if value.chars().count() > LINK_MAX => {
                fields.insert("link".to_owned(), max_length_message(LINK_MAX));
            }
            Some(value) if !is_valid_link(value) => {
                fields.insert("link".to_owned(), LINK_MESSAGE.to_owned());
            }
            Some(value) => link = Some(value.to_owned()),
        },
        Destination::CustomLandingPage => match change.promotion_page_id.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
            None => {
                fields.insert("promotionPageId".to_owned(), REQUIRED_MESSAGE.to_owned());
            }
            Some(page) if !ids::is_valid_id(page) => {
                fields.insert("promotionPageId".to_owned(), PAGE_MESSAGE.to_owned());
            }
            Some(page) => promotion_page_id = Some(page.to_owned()),
        },
    }
    // Spec 2 §5 gives 'Invalid Expiry Date' for a day that is no date (the web app's dd/MM/yyyy
    // text; the API's `Date` refuses those as 'Invalid Date'), and no message of its own for a day
    // in the past: spec 1 §5's.
    let expiry_date = match change.expiry_date {
        Some(day) if day < today => {
            fields.insert("expiryDate".to_owned(), PAST_DATE_MESSAGE.to_owned());
            None
        }
        day => day.map(end_of_day),
    };
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    Ok(ValidContent { name, description, article_image, sidebar_image, link, promotion_page_id, expiry_date })
}

fn missing_page() -> Error {
    Error::field("promotionPageId", PAGE_MESSAGE)
}

const PAGE_FOREIGN_KEY: &str = "promotional_content_promotion_page_id_fkey";

/// Adds a promotional content; returns its id.
#[tracing::instrument(skip_all)]
pub async fn add_content(pool: &PgPool, change: &ContentChange) -> Result<String> {
    let content = validate_content(change, Utc::now().date_naive())?;
    let id = ids::new_id();
    let mut tx = pool.begin().await?;
    queries::insert_content(&mut tx, &id, &content.values()).await.on_constraint(PAGE_FOREIGN_KEY, missing_page)?;
    tx.commit().await?;
    Ok(id)
}

/// Edits a promotional content, based on the version the client read.
#[tracing::instrument(skip_all, fields(id = change.id.as_deref()))]
pub async fn edit_content(pool: &PgPool, change: &ContentChange) -> Result<String> {
    let id = change.id.as_deref().map(str::trim).filter(|id| !id.is_empty()).ok_or_else(|| Error::field("_id", REQUIRED_MESSAGE))?;
    if !ids::is_valid_id(id) {
        return Err(Error::NotFound("Promotional content"));
    }
    let version = change.version.ok_or_else(|| Error::field("version", REQUIRED_MESSAGE))?;
    let content = validate_content(change, Utc::now().date_naive())?;
    let mut tx = pool.begin().await?;
    Error::check_version(queries::lock_content_version(&mut tx, id).await?, version, "Promotional content")?;
    queries::update_content(&mut tx, id, &content.values()).await.on_constraint(PAGE_FOREIGN_KEY, missing_page)?;
    tx.commit().await?;
    Ok(id.to_owned())
}

/// Deletes a promotional content: topics lose it, articles drop it, its counters go.
#[tracing::instrument(skip_all, fields(id))]
pub async fn delete_content(pool: &PgPool, id: &str) -> Result<()> {
    if !ids::is_valid_id(id) || !queries::delete_content(pool, id).await? {
        return Err(Error::NotFound("Promotional content"));
    }
    Ok(())
}

/// A promotion page as a client wants it to be (add or edit).
#[derive(Debug, Clone, Default)]
pub struct PageChange {
    pub id: Option<String>,
    pub version: Option<i32>,
    pub name: String,
    pub html: String,
    pub teams_channel: String,
    pub page_summary: String,
    pub social_sharing_image_url: String,
    pub success_title: String,
    pub success_message: String,
}

/// A promotion page that passed the rules: its html sanitised.
#[derive(Debug, PartialEq)]
pub struct ValidPage {
    pub name: String,
    pub html: String,
    pub teams_channel: String,
    pub page_summary: String,
    pub social_sharing_image_url: String,
    pub success_title: String,
    pub success_message: String,
}

impl ValidPage {
    fn values(&self) -> PageValues<'_> {
        PageValues {
            name: &self.name,
            html: &self.html,
            teams_channel: &self.teams_channel,
            page_summary: &self.page_summary,
            social_sharing_image_url: &self.social_sharing_image_url,
            success_title: &self.success_title,
            success_message: &self.success_message,
        }
    }
}

/// A required page field: trimmed, 'This field is required.' when blank (spec 2 §5 spells the
/// page form's message with a full stop), at most `max` characters.
fn page_text(fields: &mut FieldErrors, field: &str, value: &str, max: usize) -> String {
    let value = value.trim();
    if value.is_empty() {
        fields.insert(field.to_owned(), PAGE_REQUIRED.to_owned());
    } else if value.chars().count() > max {
        fields.insert(field.to_owned(), max_length_message(max));
    }
    value.to_owned()
}

/// The page form's rules (spec 2 §5): every field required; the html sanitised like an article's,
/// and html with neither text nor media once sanitised is missing.
pub fn validate_page(sanitizer: &Sanitizer, change: &PageChange) -> Result<ValidPage> {
    let mut fields = FieldErrors::new();
    let name = page_text(&mut fields, "name", &change.name, PAGE_NAME_MAX);
    let html = sanitizer.clean(&change.html);
    if body_text(&html).is_empty() {
        fields.insert("html".to_owned(), PAGE_REQUIRED.to_owned());
    }
    let teams_channel = page_text(&mut fields, "teamsChannel", &change.teams_channel, TEAMS_CHANNEL_MAX);
    if !teams_channel.is_empty() && !fields.contains_key("teamsChannel") && !is_valid_teams_channel(&teams_channel) {
        fields.insert("teamsChannel".to_owned(), TEAMS_CHANNEL_MESSAGE.to_owned());
    }
    let page_summary = page_text(&mut fields, "pageSummary", &change.page_summary, PAGE_SUMMARY_MAX);
    let social_sharing_image_url = change.social_sharing_image_url.trim().to_owned();
    if social_sharing_image_url.is_empty() {
        fields.insert("socialSharingImageUrl".to_owned(), PAGE_REQUIRED.to_owned());
    } else if !is_upload_name(&social_sharing_image_url) {
        fields.insert("socialSharingImageUrl".to_owned(), IMAGE_MESSAGE.to_owned());
    }
    let success_title = page_text(&mut fields, "successTitle", &change.success_title, SUCCESS_TITLE_MAX);
    let success_message = page_text(&mut fields, "successMessage", &change.success_message, SUCCESS_MESSAGE_MAX);
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    Ok(ValidPage { name, html, teams_channel, page_summary, social_sharing_image_url, success_title, success_message })
}

/// Adds a promotion page; returns its id.
#[tracing::instrument(skip_all)]
pub async fn add_page(pool: &PgPool, sanitizer: &Sanitizer, test_hosts: &[String], change: &PageChange) -> Result<String> {
    let page = validate_page(sanitizer, change)?;
    check_teams_webhook(&page, test_hosts).await?;
    let id = ids::new_id();
    let mut tx = pool.begin().await?;
    queries::insert_page(&mut tx, &id, &page.values()).await?;
    tx.commit().await?;
    Ok(id)
}

/// Edits a promotion page, based on the version the client read; every content using it shows
/// the change (the form warns about that).
#[tracing::instrument(skip_all, fields(id = change.id.as_deref()))]
pub async fn edit_page(pool: &PgPool, sanitizer: &Sanitizer, test_hosts: &[String], change: &PageChange) -> Result<String> {
    let id = change.id.as_deref().map(str::trim).filter(|id| !id.is_empty()).ok_or_else(|| Error::field("_id", PAGE_REQUIRED))?;
    if !ids::is_valid_id(id) {
        return Err(Error::NotFound("Promotion page"));
    }
    let version = change.version.ok_or_else(|| Error::field("version", PAGE_REQUIRED))?;
    let page = validate_page(sanitizer, change)?;
    check_teams_webhook(&page, test_hosts).await?;
    let mut tx = pool.begin().await?;
    Error::check_version(queries::lock_page_version(&mut tx, id).await?, version, "Promotion page")?;
    queries::update_page(&mut tx, id, &page.values()).await?;
    tx.commit().await?;
    Ok(id.to_owned())
}

fn page_in_use() -> Error {
    Error::Conflict(PAGE_IN_USE_MESSAGE.to_owned())
}

/// Deletes a promotion page unless content other than `parent_content_id` (the content whose form
/// deletes it) points to it; the parent's pointer is cleared in the same transaction. The parent's
/// version is left as it is: its form saves its own destination right after.
#[tracing::instrument(skip_all, fields(id, parent_content_id))]
pub async fn delete_page(pool: &PgPool, id: &str, parent_content_id: Option<&str>) -> Result<()> {
    if !ids::is_valid_id(id) {
        return Err(Error::NotFound("Promotion page"));
    }
    let parent = parent_content_id.map(str::trim).filter(|p| !p.is_empty());
    if parent.is_some_and(|p| !ids::is_valid_id(p)) {
        return Err(Error::NotFound("Promotional content"));
    }
    let mut tx = pool.begin().await?;
    // The row lock makes content that starts pointing to the page meanwhile wait for this
    // transaction, then fail its foreign key: the check below cannot go stale.
    queries::lock_page_version(&mut tx, id).await?.ok_or(Error::NotFound("Promotion page"))?;
    if queries::other_users_of_page(&mut tx, id, parent).await? > 0 {
        return Err(page_in_use());
    }
    if let Some(parent) = parent {
        queries::detach_page(&mut tx, parent, id).await?;
    }
    queries::delete_page(&mut tx, id).await.on_constraint(PAGE_FOREIGN_KEY, page_in_use)?;
    tx.commit().await?;
    Ok(())
}

/// Counts an impression or a click of a live content; false for an unknown or expired id, which a
/// reader never sees as an error.
pub async fn count(pool: &PgPool, id: &str, impressions: i64, clicks: i64) -> Result<bool> {
    if !ids::is_valid_id(id) {
        return Ok(false);
    }
    Ok(queries::count_day(pool, id, impressions, clicks).await?)
}

/// Collects the ids of the promotional content blocks (`<div data-promotional-content-id>`) of an
/// article body, in order of appearance, each once.
struct BlockIds(RefCell<Vec<String>>);

impl TokenSink for BlockIds {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        if let Token::TagToken(tag) = token
            && tag.kind == TagKind::StartTag
        {
            for attr in tag.attrs.iter().filter(|a| &*a.name.local == "data-promotional-content-id") {
                let id = attr.value.trim();
                let mut ids = self.0.borrow_mut();
                if ids::is_valid_id(id) && !ids.iter().any(|known| known == id) {
                    ids.push(id.to_owned());
                }
            }
        }
        TokenSinkResult::Continue
    }
}

/// The promotional content ids an article body embeds, in order, each once (read with html5ever's
/// tokenizer, as the body's text is).
pub fn embedded_ids(html: &str) -> Vec<String> {
    let tokenizer = Tokenizer::new(BlockIds(RefCell::default()), TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    tokenizer.sink.0.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn content() -> ContentChange {
        ContentChange {
            id: None,
            version: None,
            name: "Energy outlook".into(),
            description: None,
            article_image: None,
            sidebar_image: None,
            destination: Destination::ExternalLink,
            link: Some("https://example.com/energy".into()),
            promotion_page_id: None,
            expiry_date: None,
        }
    }

    fn fields_of(result: Result<impl std::fmt::Debug>) -> FieldErrors {
        match result {
            Err(Error::BadUserInput { fields, .. }) => fields,
            other => panic!("expected BAD_USER_INPUT, got {other:?}"),
        }
    }

    #[test]
    fn a_destination_must_be_chosen_and_keeps_only_its_own_field() {
        let today = day("2030-01-10");
        let none = ContentChange { destination: Destination::NotSelected, ..content() };
        assert_eq!(fields_of(validate_content(&none, today))["destination"], DESTINATION_MESSAGE);

        let page = "0123456789abcdef01234567".to_owned();
        let link = ContentChange { promotion_page_id: Some(page.clone()), ..content() };
        let valid = validate_content(&link, today).unwrap();
        assert_eq!((valid.link.as_deref(), valid.promotion_page_id), (Some("https://example.com/energy"), None));

        let landing = ContentChange { destination: Destination::CustomLandingPage, promotion_page_id: Some(page.clone()), ..content() };
        let valid = validate_content(&landing, today).unwrap();
        assert_eq!((valid.link, valid.promotion_page_id), (None, Some(page)));

        let no_page = ContentChange { destination: Destination::CustomLandingPage, ..content() };
        assert_eq!(fields_of(validate_content(&no_page, today))["promotionPageId"], REQUIRED_MESSAGE);
        let bad_page = ContentChange { promotion_page_id: Some("nope".into()), ..no_page };
        assert_eq!(fields_of(validate_content(&bad_page, today))["promotionPageId"], PAGE_MESSAGE);

        let no_link = ContentChange { link: Some("  ".into()), ..content() };
        assert_eq!(fields_of(validate_content(&no_link, today))["link"], REQUIRED_MESSAGE);
        let bad_link = ContentChange { link: Some("javascript:alert(1)".into()), ..content() };
        assert_eq!(fields_of(validate_content(&bad_link, today))["link"], LINK_MESSAGE);
    }

    #[test]
    fn names_descriptions_and_images_are_checked() {
        let today = day("2030-01-10");
        let bad = ContentChange {
            name: " ".into(),
            description: Some("d".repeat(251)),
            article_image: Some("../../etc/passwd".into()),
            sidebar_image: Some("0123456789abcdef01234567.png".into()),
            ..content()
        };
        let fields = fields_of(validate_content(&bad, today));
        assert_eq!(fields["name"], REQUIRED_MESSAGE);
        assert_eq!(fields["description"], "Maximum 250 characters");
        assert_eq!(fields["articleImage"], IMAGE_MESSAGE);
        assert!(!fields.contains_key("sidebarImage"));
        let long = ContentChange { name: "é".repeat(51), ..content() };
        assert_eq!(fields_of(validate_content(&long, today))["name"], "Maximum 50 characters");
        let fifty = ContentChange { name: "é".repeat(50), description: Some("  ".into()), ..content() };
        assert_eq!(validate_content(&fifty, today).unwrap().description, "");
    }

    #[test]
    fn expiry_is_today_or_later_and_lasts_the_whole_day() {
        let today = day("2030-01-10");
        let past = ContentChange { expiry_date: Some(day("2030-01-09")), ..content() };
        assert_eq!(fields_of(validate_content(&past, today))["expiryDate"], PAST_DATE_MESSAGE);
        let same_day = ContentChange { expiry_date: Some(today), ..content() };
        let stored = validate_content(&same_day, today).unwrap().expiry_date.unwrap();
        assert_eq!(stored.to_rfc3339(), "2030-01-10T23:59:59+00:00");
    }

    #[test]
    fn links_are_web_urls_or_app_paths() {
        for good in ["https://example.com", "http://example.com/a?b=c#d", "/promotion/0123456789abcdef01234567", "/browse"] {
            assert!(is_valid_link(good), "{good}");
        }
        for bad in [
            "javascript:alert(1)",
            "//evil.example",
            "/\\evil.example",
            "ftp://x.example",
            "example.com",
            "https://",
            "/a b",
            "data:text/html,x",
        ] {
            assert!(!is_valid_link(bad), "{bad}");
        }
    }

    #[test]
    fn teams_channels_are_emails_or_web_urls() {
        for good in ["marketing@insights.example", "https://acme.webhook.office.com/webhookb2/abc", "http://127.0.0.1:4010/hook"] {
            assert!(is_valid_teams_channel(good), "{good}");
        }
        for bad in ["marketing", "ftp://x.example", "a@b", "https://"] {
            assert!(!is_valid_teams_channel(bad), "{bad}");
        }
    }

    fn page() -> PageChange {
        PageChange {
            name: "Energy week".into(),
            html: "<p>Join us</p>".into(),
            teams_channel: "events@insights.example".into(),
            page_summary: "Summary".into(),
            social_sharing_image_url: "0123456789abcdef01234567.jpg".into(),
            success_title: "Thanks".into(),
            success_message: "We will be in touch".into(),
            ..PageChange::default()
        }
    }

    #[test]
    fn every_page_field_is_required_and_html_empty_once_sanitised_is_missing() {
        let sanitizer = Sanitizer::new("http://127.0.0.1:8080");
        let empty = PageChange { html: "<script>alert(1)</script><p> </p>".into(), ..PageChange::default() };
        let fields = fields_of(validate_page(&sanitizer, &empty));
        for field in ["name", "html", "teamsChannel", "pageSummary", "socialSharingImageUrl", "successTitle", "successMessage"] {
            assert_eq!(fields[field], "This field is required.", "{field}");
        }
        let long = PageChange { page_summary: "s".repeat(201), success_message: "m".repeat(201), ..page() };
        let fields = fields_of(validate_page(&sanitizer, &long));
        assert_eq!(fields["pageSummary"], "Maximum 200 characters");
        assert_eq!(fields["successMessage"], "Maximum 200 characters");
        let bad =
            PageChange { teams_channel: "ftp://hooks.example/x".into(), social_sharing_image_url: "http://x/y.png".into(), ..page() };
        let fields = fields_of(validate_page(&sanitizer, &bad));
        assert_eq!(fields["teamsChannel"], TEAMS_CHANNEL_MESSAGE);
        assert_eq!(fields["socialSharingImageUrl"], IMAGE_MESSAGE);
        let dirty = PageChange { html: r#"<p onclick="x()">Join <script>alert(1)</script>us</p>"#.into(), ..page() };
        assert_eq!(validate_page(&sanitizer, &dirty).unwrap().html, "<p>Join us</p>");
    }

    #[test]
    fn embedded_blocks_are_read_in_order_once() {
        let (a, b) = ("0123456789abcdef01234567", "1123456789abcdef01234567");
        let html = format!(
            r#"<p>x</p><div data-promotional-content-id="{b}"></div><div data-promotional-content-id='{a}'></div><p>{a}</p><div data-promotional-content-id="{b}"></div><div data-promotional-content-id="bad"></div>"#
        );
        assert_eq!(embedded_ids(&html), vec![b.to_owned(), a.to_owned()]);
        assert!(embedded_ids("<p>none</p>").is_empty());
    }

    #[test]
    fn targets_and_rates() {
        let id = "0123456789abcdef01234567";
        assert_eq!(target(id, Some("https://x.example"), None).as_deref(), Some("https://x.example"));
        assert_eq!(target(id, None, Some("1123456789abcdef01234567")).as_deref(), Some("/promotion/0123456789abcdef01234567"));
        assert_eq!(target(id, None, None), None);
        assert_eq!(click_through_rate(0, 0), None);
        assert_eq!(click_through_rate(200, 5), Some(0.025));
    }
}
