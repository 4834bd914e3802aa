//! What each MCP tool answers: structured content (JSON) and the same as text, each article with
//! its citation (title, link, first publication, channel). Articles come from the reader search
//! (`search::read::search`), whose cards carry the entitlement rule's answer for this reader, and
//! a body is given only where that answer is yes (`Reader::can_see`).

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::queries;
use crate::{
    error::{Error, Result},
    ids,
    kept::RequestScope,
    reading::{self, ArticleCard, Reader},
    search::{self, queries::SearchFilter, read::Asked},
    state::AppState,
};

/// The most articles a tool lists at once, and how many it lists unless asked.
pub const LIMIT_MAX: u32 = 25;
pub const LIMIT_DEFAULT: u32 = 10;

/// One call's reader and where its answers link to.
pub struct Call {
    pub scope: RequestScope,
    pub reader: Reader,
    pub public_url: String,
    /// The MCP session (the readership's session).
    pub session: String,
}

/// A tool's answer.
pub struct Answer {
    pub structured: Value,
    pub text: String,
    /// The articles it gave (the call's log).
    pub cited: Vec<String>,
}

impl Call {
    pub async fn new(state: &AppState, user_id: &str, role: crate::auth::Role, session: String) -> Result<Call> {
        let scope = RequestScope::new(state.clone(), Some(user_id.to_owned()), true);
        let reader = Reader::in_scope(&scope, role, user_id).await?;
        Ok(Call { scope, reader, public_url: state.config.public_url().to_owned(), session })
    }

    fn state(&self) -> &AppState {
        self.scope.state()
    }

    fn link(&self, id: &str) -> String {
        format!("{}/insights/browse/article/{id}", self.public_url)
    }

    /// An article's citation and what the reader may do with it.
    fn cited(&self, card: &ArticleCard, snippet: Option<&str>) -> Value {
        json!({
            "id": card.id,
            "title": card.title,
            "link": self.link(&card.id),
            "firstPublishedAt": card.first_published_at.unwrap_or(card.publish_date),
            "updatedAt": card.updated_at,
            "channel": card.premium_channel.as_ref().map(|c| &c.name),
            "topics": card.categories.iter().map(|t| &t.name).collect::<Vec<_>>(),
            "summary": card.summary,
            "snippet": snippet,
            "fullAccess": card.can_see_full_version,
            "resource": format!("insights://article/{}", card.id),
        })
    }

    /// The answer listing `cards` (with each one's snippet, when searched).
    fn listing(&self, heading: &str, cards: &[(ArticleCard, Option<String>)]) -> Answer {
        let articles: Vec<Value> = cards.iter().map(|(card, snippet)| self.cited(card, snippet.as_deref())).collect();
        let mut text = if cards.is_empty() { format!("{heading}: nothing found.\n") } else { format!("{heading}:\n") };
        for (number, (card, snippet)) in cards.iter().enumerate() {
            text.push_str(&format!("\n{}. {}", number + 1, citation(card, &self.link(&card.id))));
            if let Some(snippet) = snippet.as_deref().or(card.summary.as_deref()) {
                text.push_str(&format!("\n   {snippet}"));
            }
            if !card.can_see_full_version {
                text.push_str("\n   (Summary only: the reader's subscriptions do not include the full article.)");
            }
        }
        Answer { structured: json!({ "articles": articles }), text, cited: cards.iter().map(|(card, _)| card.id.clone()).collect() }
    }
}

/// '"Copper squeeze" (Metals Pro), first published 2026-03-05 14:05 UTC — https://…'
fn citation(card: &ArticleCard, link: &str) -> String {
    let channel = card.premium_channel.as_ref().map(|c| format!(" ({})", c.name)).unwrap_or_default();
    let first = card.first_published_at.unwrap_or(card.publish_date).format("%Y-%m-%d %H:%M UTC");
    format!("\"{}\"{channel}, first published {first} — {link}", card.title)
}

#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
pub struct SearchArgs {
    /// What to search for: words, "quoted phrases", -excluded words.
    pub query: String,
    /// Only this channel: its id (from list_channels) or its name.
    pub channel: Option<String>,
    /// Only this topic and its sub-topics: its id (from list_topics) or its name.
    pub topic: Option<String>,
    /// Published on or after this day (YYYY-MM-DD).
    pub from: Option<String>,
    /// Published on or before this day (YYYY-MM-DD).
    pub to: Option<String>,
    /// How many articles (1 to 25, 10 by default).
    pub limit: Option<u32>,
}

#[derive(Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
pub struct LatestArgs {
    /// Only this channel: its id or name.
    pub channel: Option<String>,
    /// Only this topic and its sub-topics: its id or name.
    pub topic: Option<String>,
    /// Only this desk: its id or name.
    pub desk: Option<String>,
    /// How many articles (1 to 25, 10 by default).
    pub limit: Option<u32>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ArticleArgs {
    /// The article's id (from search_research or latest).
    pub id: String,
}

fn limit(asked: Option<u32>) -> Result<i64> {
    match asked.unwrap_or(LIMIT_DEFAULT) {
        limit @ 1..=LIMIT_MAX => Ok(i64::from(limit)),
        _ => Err(Error::field("limit", format!("Ask for 1 to {LIMIT_MAX} articles"))),
    }
}

fn day(field: &str, value: Option<&str>, end: bool) -> Result<Option<DateTime<Utc>>> {
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else { return Ok(None) };
    let day = NaiveDate::parse_from_str(value, "%Y-%m-%d").map_err(|_| Error::field(field, "Give a day as YYYY-MM-DD"))?;
    let day = if end { day.succ_opt().unwrap_or(day) } else { day };
    Ok(Some(day.and_time(chrono::NaiveTime::MIN).and_utc()))
}

/// A channel, topic or desk given by its id or its name.
async fn named(call: &Call, kind: &'static str, value: Option<&str>) -> Result<Option<String>> {
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else { return Ok(None) };
    if ids::is_valid_id(value) {
        return Ok(Some(value.to_owned()));
    }
    let found = if kind == "topic" {
        let topics = call.scope.topics().await?;
        topics.list.iter().find(|t| t.name.eq_ignore_ascii_case(value)).map(|t| t.category_id.clone())
    } else {
        queries::id_by_name(&call.state().pool, kind, value).await?
    };
    found.map(Some).ok_or_else(|| Error::field(kind, format!("No {kind} is named \"{value}\"")))
}

pub async fn search_research(call: &Call, args: SearchArgs) -> Result<Answer> {
    let query = search::search_text("query", Some(&args.query))?.ok_or_else(|| Error::field("query", "Say what to search for"))?;
    let filter = SearchFilter {
        query: Some(query.clone()),
        channel: named(call, "channel", args.channel.as_deref()).await?,
        date_from: day("from", args.from.as_deref(), false)?,
        date_to: day("to", args.to.as_deref(), true)?,
        ..SearchFilter::default()
    };
    let topic = named(call, "topic", args.topic.as_deref()).await?;
    let asked = Asked { filter, topic, only_my_subscriptions: false };
    let found = search::read::search(&call.scope, &call.reader, asked, None, limit(args.limit)?).await?;
    // Snippets come marked for the web (<mark>); an assistant reads plain text.
    let cards: Vec<(ArticleCard, Option<String>)> =
        found.documents.into_iter().map(|d| (d.article, d.highlight.map(|h| plain_snippet(&h)))).collect();
    Ok(call.listing(&format!("Research matching \"{query}\", best first"), &cards))
}

pub async fn latest(call: &Call, args: LatestArgs) -> Result<Answer> {
    let filter = SearchFilter {
        channel: named(call, "channel", args.channel.as_deref()).await?,
        desk: named(call, "desk", args.desk.as_deref()).await?,
        ..SearchFilter::default()
    };
    let topic = named(call, "topic", args.topic.as_deref()).await?;
    let cards = newest(call, filter, topic, limit(args.limit)?).await?;
    Ok(call.listing("The latest research, newest first", &cards.into_iter().map(|c| (c, None)).collect::<Vec<_>>()))
}

/// The newest published articles `filter` selects, as the reader's cards.
pub async fn newest(call: &Call, filter: SearchFilter, topic: Option<String>, limit: i64) -> Result<Vec<ArticleCard>> {
    let asked = Asked { filter, topic, only_my_subscriptions: false };
    let found = search::read::search(&call.scope, &call.reader, asked, None, limit).await?;
    Ok(found.documents.into_iter().map(|d| d.article).collect())
}

/// The article as Markdown (from its sanitised HTML, tables kept) when the reader may read it in
/// full (recorded as their assistant's read), else its title, summary and how to subscribe. None:
/// no published article has this id.
pub async fn article(call: &Call, id: &str) -> Result<Option<Answer>> {
    if !ids::is_valid_id(id) {
        return Ok(None);
    }
    let Some(row) = reading::read::article_page(&call.scope, id).await? else { return Ok(None) };
    if row.state != "Published" {
        return Ok(None);
    }
    let entitled = call.reader.can_see(&reading::row_facts(&row));
    let link = call.link(&row.article_id);
    let first = row.first_published_at.or(row.publish_date);
    let channel = row.channel_name.clone();
    let mut markdown = format!("# {}\n\n", row.title);
    markdown.push_str(&format!(
        "*{}First published {}{}.* Source: {link}\n\n",
        channel.as_deref().map(|c| format!("{c}. ")).unwrap_or_default(),
        first.map(|at| at.format("%Y-%m-%d %H:%M UTC").to_string()).unwrap_or_default(),
        row.content_updated_at.map(|at| format!(", updated {}", at.format("%Y-%m-%d %H:%M UTC"))).unwrap_or_default(),
    ));
    if let Some(summary) = &row.summary {
        markdown.push_str(&format!("**Summary:** {summary}\n\n"));
    }
    if entitled {
        markdown.push_str(&to_markdown(&row.html));
        reading::queries::record_source_reads(&call.state().pool, &call.reader.user_id, "agent", &call.session, &[row.article_id.clone()])
            .await?;
    } else {
        let subscribe = row
            .premium_channel_id
            .as_deref()
            .map(|channel_id| format!("{}/insights/subscribe/channel/{channel_id}", call.public_url))
            .unwrap_or_else(|| link.clone());
        markdown.push_str(&format!(
            "The full article is for subscribers of {}. The reader can subscribe or ask for a trial at {subscribe}\n",
            channel.as_deref().unwrap_or("its channel")
        ));
    }
    let structured = json!({
        "id": row.article_id,
        "title": row.title,
        "link": link,
        "firstPublishedAt": first,
        "updatedAt": row.content_updated_at,
        "channel": channel,
        "topics": row.categories.0.iter().map(|t| &t.name).collect::<Vec<_>>(),
        "authors": row.contributors.0.iter().map(|c| &c.name).collect::<Vec<_>>(),
        "summary": row.summary,
        "fullAccess": entitled,
        "markdown": markdown,
    });
    Ok(Some(Answer { structured, text: markdown, cited: vec![row.article_id.clone()] }))
}

/// The sanitised HTML as Markdown (tables as Markdown tables).
pub fn to_markdown(html: &str) -> String {
    htmd::convert(html).unwrap_or_else(|_| html_escape::decode_html_entities(&ammonia::clean_text(html)).into_owned())
}

/// A highlight (HTML-escaped, with <mark>) as plain text.
fn plain_snippet(highlight: &str) -> String {
    let text = highlight.replace("<mark>", "").replace("</mark>", "");
    html_escape::decode_html_entities(&text).into_owned()
}

pub async fn list_channels(call: &Call) -> Result<Answer> {
    let channels = queries::channels(&call.state().pool).await?;
    let subscriptions = call.reader.subscriptions.clone();
    let now = call.reader.now;
    let mut text = String::from("The channels, with the reader's access to each:\n");
    let listed: Vec<Value> = channels
        .iter()
        .map(|channel| {
            let access = match &subscriptions {
                // Staff read every published article in full.
                None => "full (staff)".to_owned(),
                Some(subscriptions) => match subscriptions.access(&channel.channel_id, now) {
                    Some(access) if access.gives_full_articles(now) => "subscribed".to_owned(),
                    Some(access) if access.is_active(now) => "subscribed (summaries only)".to_owned(),
                    _ if channel.channel_type == "freeOpen" => "open to all".to_owned(),
                    _ => "not subscribed".to_owned(),
                },
            };
            text.push_str(&format!("\n- {} ({}, id {}): {access}", channel.name, channel_type_text(&channel.channel_type), channel.channel_id));
            json!({
                "id": channel.channel_id,
                "name": channel.name,
                "type": channel.channel_type,
                "description": channel.description,
                "access": access,
                "link": format!("{}/insights/browse/channel/{}", call.public_url, channel.channel_id),
            })
        })
        .collect();
    Ok(Answer { structured: json!({ "channels": listed }), text, cited: Vec::new() })
}

fn channel_type_text(kind: &str) -> &'static str {
    match kind {
        "premium" => "premium",
        "freeClosed" => "free, on request",
        _ => "free",
    }
}

pub async fn my_subscriptions(call: &Call) -> Result<Answer> {
    let Some(subscriptions) = &call.reader.subscriptions else {
        let text = "Staff read every published article in full; they hold no subscriptions.".to_owned();
        return Ok(Answer { structured: json!({ "subscriptions": [] }), text, cited: Vec::new() });
    };
    let now = call.reader.now;
    let mut listed = Vec::new();
    for row in &subscriptions.rows {
        let access = row.access();
        if access.is_active(now) {
            listed.push(json!({
                "channelId": row.channel_id,
                "channel": row.channel_name,
                "type": row.subscription_type,
                "fullArticles": access.gives_full_articles(now),
                "endsAt": access.cancel_at,
                "providedBy": Value::Null,
            }));
        }
    }
    for seat in &subscriptions.seats {
        let access = crate::subscriptions::read::seat_access(seat);
        if access.is_active(now) && !listed.iter().any(|s| s["channelId"] == seat.channel_id.as_str()) {
            listed.push(json!({
                "channelId": seat.channel_id,
                "channel": seat.channel_name,
                "type": "firmSeat",
                "fullArticles": access.gives_full_articles(now),
                "endsAt": access.cancel_at,
                "providedBy": seat.firm_name,
            }));
        }
    }
    let mut text = if listed.is_empty() { "The reader has no active subscription.".to_owned() } else { "The reader's subscriptions:\n".to_owned() };
    for s in &listed {
        text.push_str(&format!(
            "\n- {} ({}{}){}",
            s["channel"].as_str().unwrap_or_default(),
            if s["fullArticles"] == true { "full articles" } else { "summaries only" },
            s["providedBy"].as_str().map(|firm| format!(", provided by {firm}")).unwrap_or_default(),
            s["endsAt"].as_str().map(|end| format!(", until {end}")).unwrap_or_default(),
        ));
    }
    Ok(Answer { structured: json!({ "subscriptions": listed }), text, cited: Vec::new() })
}

pub async fn list_topics(call: &Call) -> Result<Answer> {
    let topics = call.scope.topics().await?;
    let names: std::collections::HashMap<&str, &str> = topics.list.iter().map(|t| (t.category_id.as_str(), t.name.as_str())).collect();
    let listed: Vec<Value> = topics
        .list
        .iter()
        .map(|t| json!({ "id": t.category_id, "name": t.name, "parentId": t.parent_id, "parent": t.parent_id.as_deref().and_then(|p| names.get(p)) }))
        .collect();
    let mut text = String::from("The topics (a topic includes its sub-topics):\n");
    for t in &topics.list {
        let parent = t.parent_id.as_deref().and_then(|p| names.get(p)).map(|p| format!(", under {p}")).unwrap_or_default();
        text.push_str(&format!("\n- {} (id {}{parent})", t.name, t.category_id));
    }
    Ok(Answer { structured: json!({ "topics": listed }), text, cited: Vec::new() })
}
