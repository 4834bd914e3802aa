//! `GET /feeds/{secret}.atom`: a feed link's Atom 1.0 document. The newest 50 published articles
//! of its scope, as its reader's search would list them, each with title, summary, authors, topics
//! as categories, first publication and update times and a link to the article page; the body in
//! full only where the reader may read it (the search's cards carry the entitlement rule's answer),
//! else the summary and a link to subscribe.
//!
//! A fetch costs one lookup of the link; the page of articles and its cards come from what the
//! server keeps. `ETag` (of the entries, their times and the reader's access to each) and
//! `Last-Modified` answer `If-None-Match` / `If-Modified-Since` with 304 before any body is read.
//! Each link has its own rate (`INSIGHTS_RATE_LIMIT_FEEDS`). The articles a link delivers in full
//! are recorded once each as readership of kind `feed`.

use atom_syndication::{Category, Content, Entry, Feed, FixedDateTime, Link, Person, Text};
use axum::{
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use super::{ScopeKind, queries, secret_hash};
use crate::{
    auth::{ALL_ROLES, session},
    error::Error,
    http::{HttpError, limits},
    kept::RequestScope,
    reading::{self, ArticleCard, Reader},
    search::{self, queries::SearchFilter, read::Asked},
    state::AppState,
    users,
};

/// The entries of a feed.
pub const ENTRIES: i64 = 50;
const GONE: &str = "Feed link";

pub async fn feed(State(state): State<AppState>, Path(file): Path<String>, headers: HeaderMap) -> Result<Response, HttpError> {
    // What cannot be a link's secret costs no lookup.
    let secret = file.strip_suffix(".atom").filter(|secret| super::looks_like_secret(secret)).ok_or(Error::NotFound(GONE))?;
    let link = queries::active_link_by_hash(&state.pool, &secret_hash(secret)).await?.ok_or(Error::NotFound(GONE))?;
    if let Err(seconds) = state.limits.feeds.check(&limits::Key::User(format!("feed:{}", link.feed_link_id))) {
        return Ok(limits::too_many_requests(seconds, &format!("This feed is fetched too often, try again in {seconds} s")));
    }
    let user = users::queries::find_by_id(&state.pool, &link.user_id).await?.ok_or(Error::NotFound(GONE))?;
    let viewer = session::viewer_of_user(&state, user);
    let role = viewer.require(ALL_ROLES)?;
    let scope = RequestScope::new(state.clone(), Some(link.user_id.clone()), true);
    let reader = Reader::in_scope(&scope, role, &link.user_id).await?;
    let cards = newest(&scope, &reader, &link).await?;

    let tag = etag(&link.feed_link_id, &cards);
    let modified = last_modified(&scope, &reader, &cards).await?;
    let mut response_headers = HeaderMap::new();
    response_headers.insert(header::ETAG, HeaderValue::from_str(&tag).expect("a quoted hex digest"));
    response_headers.insert(header::LAST_MODIFIED, http_date(modified));
    // The address is a secret: no shared cache keeps it, no page it links to learns it.
    response_headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    response_headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response_headers.insert("x-robots-tag", HeaderValue::from_static("noindex"));
    if not_modified(&headers, &tag, modified) {
        return Ok((StatusCode::NOT_MODIFIED, response_headers).into_response());
    }

    let ids: Vec<String> = cards.iter().map(|card| card.id.clone()).collect();
    let mut entries = queries::entries(&state.pool, &ids).await?;
    let public_url = state.config.public_url();
    let document = Feed {
        title: Text::plain(format!("{} · Insights", scope_title(&link))),
        id: format!("{public_url}/feeds/{}", link.feed_link_id),
        updated: fixed(modified),
        authors: vec![Person { name: "Insights".into(), ..Person::default() }],
        links: vec![
            Link { href: super::feed_url(&state, secret), rel: "self".into(), mime_type: Some("application/atom+xml".into()), ..Link::default() },
            Link { href: scope_page(public_url, &link), rel: "alternate".into(), mime_type: Some("text/html".into()), ..Link::default() },
        ],
        entries: cards
            .iter()
            .map(|card| {
                let found = entries.iter().position(|entry| entry.article_id == card.id).map(|at| entries.swap_remove(at));
                entry(public_url, card, found)
            })
            .collect(),
        ..Feed::default()
    };
    let delivered: Vec<String> = cards.iter().filter(|card| card.can_see_full_version).map(|card| card.id.clone()).collect();
    reading::queries::record_source_reads(&state.pool, &link.user_id, "feed", &link.feed_link_id, &delivered).await?;
    queries::touch_link(&state.pool, &link.feed_link_id).await?;
    response_headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/atom+xml; charset=utf-8"));
    Ok((StatusCode::OK, response_headers, document.to_string()).into_response())
}

/// The newest published articles of the link's scope, as its reader's search lists them.
async fn newest(scope: &RequestScope, reader: &Reader, link: &queries::FeedLinkRow) -> crate::error::Result<Vec<ArticleCard>> {
    let id = link.scope_id.clone();
    let kind = ScopeKind::parse(&link.scope_kind);
    let filter = SearchFilter {
        channel: id.clone().filter(|_| kind == ScopeKind::Channel),
        desk: id.clone().filter(|_| kind == ScopeKind::Desk),
        contributor: id.clone().filter(|_| kind == ScopeKind::Contributor),
        ..SearchFilter::default()
    };
    // Staff subscribe to nothing: their `all` is every published article.
    let asked = Asked {
        filter,
        topic: id.filter(|_| kind == ScopeKind::Topic),
        only_my_subscriptions: kind == ScopeKind::All && !reader.role.is_staff(),
    };
    let found = search::read::search(scope, reader, asked, None, ENTRIES).await?;
    Ok(found.documents.into_iter().map(|document| document.article).collect())
}

/// Changes with the entries, their times and whether the reader may read each in full.
fn etag(link_id: &str, cards: &[ArticleCard]) -> String {
    let mut digest = Sha256::new();
    digest.update(link_id.as_bytes());
    for card in cards {
        digest.update(card.id.as_bytes());
        digest.update(entry_updated(card).timestamp_micros().to_be_bytes());
        digest.update([card.can_see_full_version as u8]);
    }
    let hash = digest.finalize();
    format!("\"{}\"", hash[..16].iter().map(|b| format!("{b:02x}")).collect::<String>())
}

/// The latest of the entries' changes and of the reader's subscriptions' (a subscription that
/// started or ended changes what the feed shows in full).
async fn last_modified(scope: &RequestScope, reader: &Reader, cards: &[ArticleCard]) -> crate::error::Result<DateTime<Utc>> {
    let entries = cards.iter().map(entry_updated);
    let subscriptions = match &reader.subscriptions {
        Some(subscriptions) => subscriptions.clone(),
        None if reader.role.is_staff() => return Ok(entries.max().unwrap_or(DateTime::UNIX_EPOCH)),
        None => scope.viewer_subscriptions().await?,
    };
    let changed = subscriptions.rows.iter().flat_map(|row| [Some(row.updated_at), row.cancel_at.filter(|end| *end <= reader.now)]).flatten();
    Ok(entries.chain(changed).max().unwrap_or(DateTime::UNIX_EPOCH))
}

/// `If-None-Match` decides when it is sent; else `If-Modified-Since` (to the second).
fn not_modified(headers: &HeaderMap, tag: &str, modified: DateTime<Utc>) -> bool {
    if let Some(tags) = headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) {
        return tags.split(',').map(|t| t.trim().trim_start_matches("W/")).any(|t| t == tag || t == "*");
    }
    headers
        .get(header::IF_MODIFIED_SINCE)
        .and_then(|v| v.to_str().ok())
        .and_then(|since| DateTime::parse_from_rfc2822(since).ok())
        .is_some_and(|since| modified.timestamp() <= since.timestamp())
}

fn http_date(at: DateTime<Utc>) -> HeaderValue {
    HeaderValue::from_str(&at.format("%a, %d %b %Y %H:%M:%S GMT").to_string()).expect("an HTTP date is ASCII")
}

fn fixed(at: DateTime<Utc>) -> FixedDateTime {
    at.fixed_offset()
}

/// When the entry last changed for readers: its update, else its first publication.
fn entry_updated(card: &ArticleCard) -> DateTime<Utc> {
    card.updated_at.or(card.first_published_at).unwrap_or(card.publish_date)
}

fn scope_title(link: &queries::FeedLinkRow) -> String {
    match (ScopeKind::parse(&link.scope_kind), &link.scope_name) {
        (ScopeKind::All, _) => "My subscriptions".to_owned(),
        (_, Some(name)) => name.clone(),
        (kind, None) => format!("A {} no longer there", kind.as_str()),
    }
}

/// The reader's page of the scope.
fn scope_page(public_url: &str, link: &queries::FeedLinkRow) -> String {
    let id = link.scope_id.as_deref().unwrap_or_default();
    match ScopeKind::parse(&link.scope_kind) {
        ScopeKind::All => format!("{public_url}/insights/for-you"),
        ScopeKind::Channel => format!("{public_url}/insights/browse/channel/{id}"),
        ScopeKind::Topic => format!("{public_url}/insights/browse/{id}"),
        ScopeKind::Desk => format!("{public_url}/insights/desk/{id}"),
        ScopeKind::Contributor => format!("{public_url}/insights/contributor/{id}"),
    }
}

fn entry(public_url: &str, card: &ArticleCard, found: Option<queries::EntryRow>) -> Entry {
    let link = format!("{public_url}/insights/browse/article/{}", card.id);
    let (html, authors) = found.map(|entry| (entry.html, entry.authors)).unwrap_or_default();
    let content = if card.can_see_full_version {
        html
    } else {
        // The summary (escaped: it is plain text) and the way to read the rest.
        let summary = card.summary.as_deref().map(|summary| format!("<p>{}</p>", html_escape::encode_text(summary))).unwrap_or_default();
        match &card.premium_channel {
            Some(channel) => format!(
                "{summary}<p><a href=\"{public_url}/insights/subscribe/channel/{}\">Subscribe to {} to read the full article.</a></p>",
                channel.id,
                html_escape::encode_text(&channel.name)
            ),
            None => summary,
        }
    };
    Entry {
        title: Text::plain(card.title.clone()),
        id: link.clone(),
        updated: fixed(entry_updated(card)),
        published: Some(fixed(card.first_published_at.unwrap_or(card.publish_date))),
        authors: authors.into_iter().map(|name| Person { name, ..Person::default() }).collect(),
        categories: card
            .categories
            .iter()
            .map(|topic| Category { term: topic.id.clone(), label: Some(topic.name.clone()), ..Category::default() })
            .collect(),
        links: vec![Link { href: link, rel: "alternate".into(), mime_type: Some("text/html".into()), ..Link::default() }],
        summary: card.summary.clone().map(Text::plain),
        content: Some(Content { value: Some(content), content_type: Some("html".into()), ..Content::default() }),
        ..Entry::default()
    }
}
