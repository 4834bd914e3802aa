//! The demo's articles: planned from the cast and the prose generator with a fixed seed (dates
//! over the last two years, denser lately), then written through the articles service as their
//! desk's Editor would: published with a back-dated publish date and no notification emails.
//! Also a few drafts by contributors, a few archived notes and the welcome article.

use std::collections::{HashMap, HashSet};

use anyhow::Context;
use chrono::{DateTime, Datelike, Duration, Months, Timelike, Utc, Weekday};
use rand::{Rng, SeedableRng, rngs::StdRng, seq::SliceRandom};

use super::{
    Taxonomy,
    cast::{CHANNELS, Channel, WELCOME_CHANNEL},
    images::Stored,
    people::People,
    prose::{self, Charts, Kind},
    queries, service_error,
    subjects::{Subject, subject_by_key},
};
use crate::{
    articles::{
        model::EXPIRY_OFFSETS,
        service::{Action, ArticleChange, Author, archive_article, write_article},
    },
    auth::Role,
    channels::ChannelType,
    error::Error,
    state::AppState,
};

/// The generator's seed: the same seed writes the same articles.
const SEED: u64 = 20_240_611;
/// How far back the articles go.
const HISTORY_DAYS: f64 = 730.0;
/// Generic tags an article may get when its subject offers too few.
const GENERIC_TAGS: &[&str] = &["Valuation", "Liquidity", "Volatility", "Geopolitics", "Supply Chains"];

pub const WELCOME_TITLE: &str = "Welcome to Insights: a tour of the demo portal";

/// A channel of the cast as stored: its id, and whether it takes articles (not archived).
pub struct SeededChannel {
    pub def: &'static Channel,
    pub id: String,
    pub active: bool,
}

/// A published demo article, as the views need it.
pub struct Published {
    pub id: String,
    /// Index in `CHANNELS`.
    pub channel: usize,
    pub publish_date: DateTime<Utc>,
    pub is_premium: bool,
    pub premium_expires_at: Option<DateTime<Utc>>,
}

struct Planned {
    channel: usize,
    date: DateTime<Utc>,
    author: &'static str,
    contributors: Vec<&'static str>,
    title: String,
    summary: String,
    html: String,
    topics: Vec<String>,
    tags: Vec<String>,
    is_premium: bool,
    offset: Option<&'static str>,
    pinned: bool,
    chart_section: bool,
    watermark: bool,
}

/// A publish date `days_ago` before `now`, at a working hour on a weekday, never in the future.
fn working_time(rng: &mut StdRng, now: DateTime<Utc>, days_ago: f64) -> DateTime<Utc> {
    let mut date = now - Duration::minutes((days_ago * 1440.0) as i64);
    date = match date.weekday() {
        Weekday::Sat => date - Duration::days(1),
        Weekday::Sun => date - Duration::days(2),
        _ => date,
    };
    let date = date
        .with_hour(rng.gen_range(6..17))
        .and_then(|d| d.with_minute(rng.gen_range(0..60)))
        .and_then(|d| d.with_second(0))
        .and_then(|d| d.with_nanosecond(0))
        .unwrap_or(date);
    if date > now - Duration::minutes(45) { now - Duration::minutes(rng.gen_range(45..240)) } else { date }
}

fn topic_ids(taxonomy: &Taxonomy, paths: &[&str]) -> anyhow::Result<Vec<String>> {
    paths.iter().map(|path| taxonomy.topic(path)).collect()
}

/// Picks 3–5 topics: the subject's main topic first, then others from the subject and the channel.
fn choose_topics(rng: &mut StdRng, taxonomy: &Taxonomy, subject: &Subject, channel: &Channel) -> anyhow::Result<Vec<String>> {
    let mut pool = topic_ids(taxonomy, subject.topics)?;
    let main = pool.remove(0);
    for id in topic_ids(taxonomy, channel.topics)? {
        if id != main && !pool.contains(&id) {
            pool.push(id);
        }
    }
    pool.shuffle(rng);
    let count = rng.gen_range(3..=5).min(pool.len() + 1);
    let mut topics = vec![main];
    topics.extend(pool.into_iter().take(count - 1));
    Ok(topics)
}

/// Picks 2–4 tags: the kind's tags, then the subject's, then generic ones.
fn choose_tags(rng: &mut StdRng, taxonomy: &Taxonomy, kind_tags: &[&'static str], subject: &Subject) -> anyhow::Result<Vec<String>> {
    let mut names: Vec<&str> = kind_tags.to_vec();
    let mut subject_tags = subject.tags.to_vec();
    subject_tags.shuffle(rng);
    let wanted = rng.gen_range(2..=4);
    for tag in subject_tags {
        if names.len() < wanted && !names.contains(&tag) {
            names.push(tag);
        }
    }
    while names.len() < 2 {
        let tag = GENERIC_TAGS.choose(rng).copied().unwrap_or("Valuation");
        if !names.contains(&tag) {
            names.push(tag);
        }
    }
    names.truncate(4);
    names.iter().map(|name| taxonomy.tag(name)).collect()
}

/// Every published article of the demo, oldest first.
fn plan(now: DateTime<Utc>, taxonomy: &Taxonomy, charts: &Charts) -> anyhow::Result<Vec<Planned>> {
    let mut rng = StdRng::seed_from_u64(SEED);
    let mut slots: Vec<(DateTime<Utc>, usize)> = Vec::new();
    for (index, channel) in CHANNELS.iter().enumerate() {
        for _ in 0..channel.articles {
            // Denser lately: a third of the articles fall in the last ~2 months.
            let days_ago = HISTORY_DAYS * rng.gen_range(0.0_f64..1.0).powf(1.6);
            slots.push((working_time(&mut rng, now, days_ago), index));
        }
    }
    slots.sort();
    let mut titles: HashSet<String> = HashSet::new();
    let mut planned = Vec::with_capacity(slots.len());
    for (date, index) in slots {
        let channel = &CHANNELS[index];
        let subject = subject_by_key(channel.subjects.choose(&mut rng).copied().unwrap_or("brent"));
        let kind = prose::pick_kind(&mut rng);
        let mut written = prose::write(&mut rng, subject, kind, date, charts);
        for _ in 0..8 {
            if !titles.contains(&written.title) {
                break;
            }
            let kind = prose::pick_kind(&mut rng);
            written = prose::write(&mut rng, subject, kind, date, charts);
        }
        if titles.contains(&written.title) {
            written.title = format!("{} ({})", written.title, date.format("%-d %B %Y"));
        }
        titles.insert(written.title.clone());

        let is_premium = match channel.kind {
            ChannelType::Premium => rng.gen_bool(0.8),
            ChannelType::FreeClosed => rng.gen_bool(0.6),
            ChannelType::FreeOpen => false,
        };
        let offset = (is_premium && rng.gen_bool(0.35)).then(|| EXPIRY_OFFSETS.choose(&mut rng).copied().unwrap_or("1w"));
        let author = channel.authors.choose(&mut rng).copied().context("a channel without authors")?;
        let mut contributors = vec![author];
        if rng.gen_bool(0.6)
            && let Some(writer) = channel.writers.choose(&mut rng)
        {
            contributors.push(writer);
        }
        let chart_section = written.has_chart && (written.tags.contains(&"Chartbook") || rng.gen_bool(0.4));
        planned.push(Planned {
            channel: index,
            date,
            author,
            contributors,
            topics: choose_topics(&mut rng, taxonomy, subject, channel)?,
            tags: choose_tags(&mut rng, taxonomy, &written.tags, subject)?,
            title: written.title,
            summary: written.summary,
            html: written.html,
            is_premium,
            offset,
            pinned: false,
            chart_section,
            watermark: is_premium && rng.gen_bool(0.25),
        });
    }
    // The newest note of a few channels is pinned.
    for name in ["Oil & Gas Premium", "Metals Pro", "Grains & Softs Weekly"] {
        if let Some(article) = planned.iter_mut().rev().find(|a| CHANNELS[a.channel].name == name) {
            article.pinned = true;
        }
    }
    // Premium access that ends: the two newest premium notes still within it, the oldest long past it.
    {
        let mut newest = planned.iter_mut().filter(|a| a.is_premium && CHANNELS[a.channel].kind == ChannelType::Premium).rev();
        for offset in ["1m", "1w"] {
            if let Some(article) = newest.next() {
                article.offset = Some(offset);
            }
        }
    }
    if let Some(oldest) = planned.iter_mut().find(|a| a.is_premium) {
        oldest.offset = Some("3d");
    }
    Ok(planned)
}

/// When premium access to an article ends, as the database computes it (`premium_expires_at`).
fn premium_expiry(publish_date: DateTime<Utc>, offset: Option<&str>) -> Option<DateTime<Utc>> {
    match offset? {
        "3d" => Some(publish_date + Duration::days(3)),
        "1w" => Some(publish_date + Duration::days(7)),
        "1m" => publish_date.checked_add_months(Months::new(1)),
        _ => None,
    }
}

fn author<'a>(people: &'a People, email: &str) -> anyhow::Result<Author<'a>> {
    let staff = people.staff.get(email).with_context(|| format!("{email} is not in the demo's staff"))?;
    Ok(Author { user_id: &staff.id, role: staff.role, tableau_access: true })
}

fn administrator(people: &People) -> anyhow::Result<Author<'_>> {
    let admin = people.staff.values().find(|s| s.role == Role::Administrator).context("the demo has an Administrator")?;
    Ok(Author { user_id: &admin.id, role: admin.role, tableau_access: true })
}

fn ids_of(people: &People, emails: &[&str]) -> anyhow::Result<Vec<String>> {
    emails.iter().map(|email| people.staff_id(email).map(str::to_owned)).collect()
}

pub struct Written {
    pub published: Vec<Published>,
    pub drafts: usize,
    pub archived: usize,
}

/// Publishes the planned articles (skipping titles that exist), then the drafts and archives.
pub async fn seed(
    state: &AppState,
    now: DateTime<Utc>,
    people: &People,
    channels: &[SeededChannel],
    taxonomy: &Taxonomy,
    images: &Stored,
    progress: &(dyn Fn(&str) + Sync),
) -> anyhow::Result<Written> {
    let charts = Charts { line: images.name(super::cast::Image::ChartLine), bars: images.name(super::cast::Image::ChartBars) };
    let planned = plan(now, taxonomy, &charts)?;
    let titles: Vec<String> = planned.iter().map(|a| a.title.clone()).collect();
    let taken: HashSet<String> = queries::existing_titles(&state.pool, &titles).await?.into_iter().collect();
    let mut rng = StdRng::seed_from_u64(SEED + 1);

    let mut published = Vec::new();
    let mut created: (Vec<String>, Vec<DateTime<Utc>>) = (Vec::new(), Vec::new());
    let total = planned.len();
    for (done, article) in planned.into_iter().enumerate() {
        let channel = &channels[article.channel];
        if !channel.active || taken.contains(&article.title) {
            continue;
        }
        let change = ArticleChange {
            title: article.title,
            html: Some(article.html),
            summary: Some(article.summary),
            premium_channel_id: Some(channel.id.clone()),
            contributors: ids_of(people, &article.contributors)?,
            categories: article.topics,
            tags: article.tags,
            is_premium: Some(article.is_premium),
            premium_expiry_offset: article.offset.map(str::to_owned),
            publish_date: Some(article.date),
            show_watermark: article.watermark,
            display_in_chart_section: article.chart_section,
            is_pinned: article.pinned,
            send_emails: Some(false),
            ..ArticleChange::default()
        };
        // A channel kept from before the demo (same name) may not let the desk's Editor publish:
        // the Administrator publishes there.
        let id = match write_article(state, author(people, article.author)?, &change, Action::Publish, true).await {
            Err(Error::Forbidden) => write_article(state, administrator(people)?, &change, Action::Publish, true).await,
            written => written,
        }
        .map_err(|e| service_error(e, &format!("publish {:?}", change.title)))?;
        created.0.push(id.clone());
        created.1.push(article.date - Duration::minutes(rng.gen_range(20..180)));
        published.push(Published {
            id,
            channel: article.channel,
            publish_date: article.date,
            is_premium: article.is_premium,
            premium_expires_at: if article.is_premium { premium_expiry(article.date, article.offset) } else { None },
        });
        if done % 25 == 0 {
            progress(&format!("articles {done}/{total}"));
        }
    }

    let drafts = seed_drafts(state, now, people, channels, taxonomy, &charts, &mut created).await?;
    queries::set_created_at(&state.pool, &created.0, &created.1).await?;

    // The oldest notes of the open channel were retired.
    let mut archived = 0;
    let pulse = CHANNELS.iter().position(|c| c.name == WELCOME_CHANNEL);
    let oldest: Vec<String> = published.iter().filter(|a| Some(a.channel) == pulse).take(3).map(|a| a.id.clone()).collect();
    for id in &oldest {
        archive_article(&state.pool, administrator(people)?, id, 1).await.map_err(|e| service_error(e, "archive an article"))?;
        archived += 1;
    }
    published.retain(|a| !oldest.contains(&a.id));
    Ok(Written { published, drafts, archived })
}

/// Drafts in progress: (author, channel, subject, has a summary).
const DRAFTS: &[(&str, Option<&str>, &str, bool)] = &[
    ("chris.contributor@insights.example", Some("Oil & Gas Premium"), "brent", true),
    ("chris.contributor@insights.example", None, "wti", false),
    ("priya.raman@insights.example", Some("Energy Transition Briefing"), "lng", true),
    ("sofia.lindqvist@insights.example", Some("Metals Pro"), "copper", false),
    ("tom.becker@insights.example", Some("Grains & Softs Weekly"), "wheat", true),
    ("lena.fischer@insights.example", Some("Macro Strategy Notes"), "eurusd", true),
];

async fn seed_drafts(
    state: &AppState,
    now: DateTime<Utc>,
    people: &People,
    channels: &[SeededChannel],
    taxonomy: &Taxonomy,
    charts: &Charts<'_>,
    created: &mut (Vec<String>, Vec<DateTime<Utc>>),
) -> anyhow::Result<usize> {
    let mut rng = StdRng::seed_from_u64(SEED + 2);
    let by_name: HashMap<&str, &SeededChannel> = channels.iter().map(|c| (c.def.name, c)).collect();
    let mut drafts = Vec::new();
    for (email, channel, subject, with_summary) in DRAFTS {
        let subject = subject_by_key(subject);
        let written = prose::write(&mut rng, subject, Kind::Outlook, now, charts);
        let channel = channel.and_then(|name| by_name.get(name)).filter(|c| c.active);
        let topics = match channel {
            Some(channel) => choose_topics(&mut rng, taxonomy, subject, channel.def)?,
            None => topic_ids(taxonomy, &subject.topics[..1])?,
        };
        let change = ArticleChange {
            title: written.title,
            html: Some(written.html),
            summary: with_summary.then_some(written.summary),
            premium_channel_id: channel.map(|c| c.id.clone()),
            categories: topics,
            tags: choose_tags(&mut rng, taxonomy, &written.tags, subject)?,
            ..ArticleChange::default()
        };
        drafts.push((*email, change));
    }
    let titles: Vec<String> = drafts.iter().map(|(_, change)| change.title.clone()).collect();
    let taken: HashSet<String> = queries::existing_titles(&state.pool, &titles).await?.into_iter().collect();
    let mut count = 0;
    for (i, (email, change)) in drafts.into_iter().enumerate() {
        if taken.contains(&change.title) {
            continue;
        }
        let author = author(people, email)?;
        // A channel kept from before the demo may not take the contributor's drafts: the draft
        // waits without a channel.
        let id = match write_article(state, author, &change, Action::Save, true).await {
            Err(Error::Forbidden) => {
                let change = ArticleChange { premium_channel_id: None, ..change.clone() };
                write_article(state, author, &change, Action::Save, true).await
            }
            written => written,
        }
        .map_err(|e| service_error(e, &format!("save the draft {:?}", change.title)))?;
        created.0.push(id);
        created.1.push(now - Duration::hours(6 + 19 * i as i64));
        count += 1;
    }
    Ok(count)
}

/// The welcome article, pinned in the open channel; written last, its presence says the demo
/// content is complete.
pub async fn publish_welcome(state: &AppState, people: &People, channels: &[SeededChannel], taxonomy: &Taxonomy) -> anyhow::Result<()> {
    let channel = channels.iter().find(|c| c.def.name == WELCOME_CHANNEL).context("the welcome channel")?;
    anyhow::ensure!(channel.active, "the channel {WELCOME_CHANNEL} is archived: the demo's welcome article has nowhere to go");
    let admin = administrator(people)?;
    let html = "<p>This portal is filled with demo content by <code>insights-cli seed demo</code>: five research desks, \
        seven channels, about three hundred articles from the past two years, and readers with subscriptions, followed \
        topics and reading histories.</p>\
        <h2>Sign in as</h2>\
        <ul><li><strong>Alex Admin</strong> (Administrator): everything, including desks, channels and users.</li>\
        <li><strong>Erin Editor</strong>: publishes for the Energy and Macro desks.</li>\
        <li><strong>Chris Contributor</strong>: writes drafts for the Energy desk.</li>\
        <li><strong>Sam Subscriber</strong>: a client with free, premium and pending subscriptions, followed topics and a \
        reading history.</li>\
        <li><strong>Tara Trial</strong>: a trial reader with a free trial of Freight &amp; Tanker Tracker.</li></ul>\
        <h2>Channels</h2>\
        <p>Oil &amp; Gas Premium, Metals Pro and Freight &amp; Tanker Tracker are premium channels with free trials; \
        Market Pulse and Grains &amp; Softs Weekly are open to every reader; Energy Transition Briefing and Macro \
        Strategy Notes give access on request.</p>\
        <p>Prices, forecasts and figures in the demo articles are invented.</p>";
    let change = ArticleChange {
        title: WELCOME_TITLE.to_owned(),
        html: Some(html.to_owned()),
        summary: Some(
            "Who to sign in as and what to look at: the desks, channels, articles and readers that insights-cli seed demo loads."
                .to_owned(),
        ),
        premium_channel_id: Some(channel.id.clone()),
        contributors: vec![admin.user_id.to_owned()],
        categories: topic_ids(taxonomy, &["Macro & Strategy", "Commodities"])?,
        tags: vec![taxonomy.tag("Quick Take")?],
        publish_date: Some(Utc::now() - Duration::minutes(1)),
        is_pinned: true,
        send_emails: Some(false),
        ..ArticleChange::default()
    };
    write_article(state, admin, &change, Action::Publish, true).await.map_err(|e| service_error(e, "publish the welcome article"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn publish_times_are_working_hours_in_the_past() {
        let now = Utc.with_ymd_and_hms(2026, 3, 8, 7, 0, 0).unwrap(); // a Sunday
        let mut rng = StdRng::seed_from_u64(1);
        for days_ago in [0.0, 0.01, 0.5, 1.0, 3.3, 200.0, 729.9] {
            let date = working_time(&mut rng, now, days_ago);
            assert!(date < now, "{date}");
            if days_ago >= 3.0 {
                assert!(!matches!(date.weekday(), Weekday::Sat | Weekday::Sun), "{date}");
                assert!((6..17).contains(&date.hour()), "{date}");
            }
        }
    }

    #[test]
    fn premium_expiry_matches_the_database_rule() {
        let date = Utc.with_ymd_and_hms(2025, 1, 31, 9, 0, 0).unwrap();
        assert_eq!(premium_expiry(date, Some("3d")), Some(Utc.with_ymd_and_hms(2025, 2, 3, 9, 0, 0).unwrap()));
        assert_eq!(premium_expiry(date, Some("1m")), Some(Utc.with_ymd_and_hms(2025, 2, 28, 9, 0, 0).unwrap()));
        assert_eq!(premium_expiry(date, None), None);
    }
}
