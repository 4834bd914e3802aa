//! Demo content (`insights-cli seed demo`): so that a fresh `make run` shows a living portal. It
//! loads desks with their contributors, channels of each type, the shipped topic tree and tags, a
//! few hundred published articles of generated research prose over the last two years, drafts,
//! readers with subscriptions of every type and state, topic follows and views.
//!
//! Everything that has rules goes through the core's own services: the taxonomy seed, desks,
//! channels (with images stored as uploads), topics and articles (validation, sanitising, the
//! search vector, publish rules: published by an Editor with a back-dated date and no emails).
//! Only what has no service yet is written directly (`queries`): users as sign-in creates them,
//! channel subscriptions, follows and views.
//!
//! Safe to run twice: the welcome article is written last, so its presence means the demo is
//! complete and a second run changes nothing. A database with other content (any article,
//! channel or desk) is refused unless forced; forced, the demo is added beside it and desks,
//! channels and articles that exist by name are kept.

mod articles;
mod cast;
mod firms;
mod images;
mod people;
mod prose;
mod queries;
mod readers;
mod subjects;

use std::{collections::HashMap, time::Instant};

use anyhow::{Context, anyhow};
use chrono::Utc;
use sqlx::PgPool;

use articles::SeededChannel;
pub use articles::WELCOME_TITLE;
use cast::{CHANNELS, DESKS, Owner};
use people::People;

use crate::{
    channels::{OwnerType, queries as channel_queries, service as channel_service},
    desks::service as desk_service,
    promotions::service as promotions,
    error::Error,
    state::AppState,
    taxonomy::{
        CategoryChange,
        queries::{StoredCategory, all_categories, all_tags},
        seed::{self, SeedError},
        service as taxonomy_service,
    },
};

/// The shipped taxonomy (`seed taxonomy seeds/taxonomy.csv` loads the same file).
const TAXONOMY_CSV: &str = include_str!("../../seeds/taxonomy.csv");

#[derive(Default)]
pub struct DemoOptions<'a> {
    /// Add the demo beside content that is already there.
    pub force: bool,
    /// With content already there (and no `force`), do nothing rather than refuse.
    pub if_empty: bool,
    /// Told what the seed is doing, for a progress line.
    pub progress: Option<&'a (dyn Fn(&str) + Sync)>,
}

/// The content a database holds, as the seed sees it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Content {
    pub articles: i64,
    pub channels: i64,
    pub desks: i64,
    /// The demo content is complete (its welcome article is published).
    pub demo_seeded: bool,
}

impl Content {
    pub fn is_empty(&self) -> bool {
        self.articles == 0 && self.channels == 0 && self.desks == 0
    }
}

impl std::fmt::Display for Content {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural = |n: i64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        write!(
            f,
            "{}, {}, {}",
            plural(self.articles, "article", "articles"),
            plural(self.channels, "channel", "channels"),
            plural(self.desks, "desk", "desks")
        )
    }
}

/// Refusal to mix the demo into a database with other content.
#[derive(Debug, thiserror::Error)]
#[error(
    "the database already has content ({0}): demo content was not loaded. `insights-cli seed demo --force` adds it \
     beside what is there (desks, channels and articles that exist by name are kept)"
)]
pub struct HasContent(pub Content);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemoStatus {
    /// The demo content was written.
    Seeded,
    /// The demo content was already complete: nothing was written.
    AlreadySeeded,
    /// Other content was there and `if_empty` was asked: nothing was written.
    SkippedHasContent,
}

/// What a run wrote.
#[derive(Debug, Clone, Default)]
pub struct DemoCounts {
    pub taxonomy: Option<seed::Summary>,
    pub users_added: usize,
    pub staff: usize,
    pub readers: usize,
    pub desks_added: usize,
    pub desks_kept: usize,
    pub channels_added: usize,
    pub channels_kept: usize,
    pub images: usize,
    pub topics_with_images: usize,
    /// Published articles (the welcome article included, the archived ones not).
    pub published: usize,
    pub drafts: usize,
    pub archived: usize,
    pub subscriptions: usize,
    /// Client firms added (with their subscriptions and seats).
    pub firms: usize,
    pub follows: u64,
    pub view_events: i64,
}

#[derive(Debug, Clone)]
pub struct DemoReport {
    pub status: DemoStatus,
    /// The content before the run.
    pub before: Content,
    pub counts: DemoCounts,
    pub elapsed: std::time::Duration,
}

/// The content of the database and whether the demo is complete in it.
pub async fn database_content(pool: &PgPool) -> anyhow::Result<Content> {
    let (articles, channels, desks) = queries::content(pool).await.context("count the content")?;
    let demo_seeded = queries::published_title_exists(pool, WELCOME_TITLE).await.context("look for the demo's welcome article")?;
    Ok(Content { articles, channels, desks, demo_seeded })
}

/// A service's refusal, readable in a command's output.
fn service_error(error: Error, doing: &str) -> anyhow::Error {
    let detail = match &error {
        Error::Internal(inner) => format!("{inner:#}"),
        Error::Database(inner) => inner.to_string(),
        Error::BadUserInput { fields, .. } => format!("{} {fields:?}", error.message()),
        other => format!("{}: {}", other.code(), other.message()),
    };
    anyhow!("{doing}: {detail}")
}

/// Topic ids by path and tag ids by name, read after the taxonomy seed.
struct Taxonomy {
    topics: HashMap<String, String>,
    tags: HashMap<String, String>,
    categories: Vec<StoredCategory>,
}

impl Taxonomy {
    async fn load(pool: &PgPool) -> anyhow::Result<Taxonomy> {
        let mut conn = pool.acquire().await?;
        let categories = all_categories(&mut conn).await.context("read the topics")?;
        let tags = all_tags(&mut conn).await.context("read the tags")?;
        let by_id: HashMap<&str, &StoredCategory> = categories.iter().map(|c| (c.category_id.as_str(), c)).collect();
        let mut topics = HashMap::new();
        for category in &categories {
            let mut names = vec![category.name.to_lowercase()];
            let mut parent = category.parent_id.as_deref();
            while let Some(id) = parent {
                let Some(above) = by_id.get(id) else { break };
                names.push(above.name.to_lowercase());
                parent = above.parent_id.as_deref();
            }
            names.reverse();
            topics.insert(names.join(seed::PATH_SEPARATOR), category.category_id.clone());
        }
        let tags = tags.into_iter().map(|t| (t.name.to_lowercase(), t.tag_id)).collect();
        Ok(Taxonomy { topics, tags, categories })
    }

    fn topic(&self, path: &str) -> anyhow::Result<String> {
        self.topics.get(&path.to_lowercase()).cloned().ok_or_else(|| anyhow!("the topic {path:?} is not in the taxonomy"))
    }

    fn tag(&self, name: &str) -> anyhow::Result<String> {
        self.tags.get(&name.to_lowercase()).cloned().ok_or_else(|| anyhow!("the tag {name:?} is not in the taxonomy"))
    }
}

/// Loads the demo content (see the module's comment for what and how). Refuses with `HasContent`
/// when the database has other content and neither `force` nor `if_empty` is given.
#[tracing::instrument(skip_all, fields(force = options.force))]
pub async fn seed_demo(state: &AppState, options: DemoOptions<'_>) -> anyhow::Result<DemoReport> {
    let started = Instant::now();
    let before = database_content(&state.pool).await?;
    let finish = |status, counts| DemoReport { status, before, counts, elapsed: started.elapsed() };
    if before.demo_seeded {
        return Ok(finish(DemoStatus::AlreadySeeded, DemoCounts::default()));
    }
    if !before.is_empty() && !options.force {
        if options.if_empty {
            return Ok(finish(DemoStatus::SkippedHasContent, DemoCounts::default()));
        }
        return Err(HasContent(before).into());
    }
    let progress = |step: &str| {
        tracing::debug!(step, "demo seed");
        if let Some(progress) = options.progress {
            progress(step);
        }
    };
    let now = Utc::now();
    let mut counts = DemoCounts::default();

    progress("topics and tags");
    let rows = seed::parse(TAXONOMY_CSV.as_bytes()).map_err(|errors| {
        anyhow!("the shipped taxonomy has bad rows: {}", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
    })?;
    counts.taxonomy = Some(seed::apply(&state.pool, rows, &|_| {}).await.map_err(|error| match error {
        SeedError::Rows(errors) => {
            anyhow!("the shipped taxonomy does not fit the stored one: {errors:?}")
        }
        SeedError::Other(error) => error,
    })?);
    let taxonomy = Taxonomy::load(&state.pool).await?;

    progress("images");
    let images = images::store(&state.uploads).await?;
    counts.images = images.count();

    progress("users");
    let people = people::seed(state, now).await.context("add the demo's users")?;
    counts.users_added = people.added;
    counts.staff = people.staff.len();
    counts.readers = people.readers.len();

    progress("desks and channels");
    let desks = seed_desks(state, &people, &mut counts).await?;
    let channels = seed_channels(state, &people, &desks, &images, &mut counts).await?;
    counts.topics_with_images = seed_topic_images(state, &taxonomy, &images).await?;
    seed_promotion(state, &images).await?;

    progress("articles");
    let written = articles::seed(state, now, &people, &channels, &taxonomy, &images, &progress).await?;
    counts.drafts = written.drafts;
    counts.archived = written.archived;

    progress("subscriptions, firms, follows and views");
    counts.subscriptions = readers::seed_subscriptions(state, now, &people, &channels).await.context("add subscriptions")?;
    counts.firms = firms::seed(state, now, &people, &channels).await.context("add client firms")?;
    counts.follows = readers::seed_follows(state, now, &people, &taxonomy).await.context("add follows")?;
    let entitled = readers::entitlements(state, &people, &channels).await?;
    let trial_days = i64::from(state.config.constants.trial_days);
    let events = readers::plan_views(now, &people, &entitled, &written.published, trial_days);
    counts.view_events = readers::seed_views(state, &events).await.context("add views")?;

    // Last: the marker of a complete demo.
    articles::publish_welcome(state, &people, &channels, &taxonomy).await?;
    counts.published = written.published.len() + 1;

    let report = finish(DemoStatus::Seeded, counts);
    tracing::info!(elapsed_ms = report.elapsed.as_millis() as u64, published = report.counts.published, "demo content loaded");
    Ok(report)
}

async fn seed_desks(state: &AppState, people: &People, counts: &mut DemoCounts) -> anyhow::Result<HashMap<&'static str, String>> {
    let mut ids = HashMap::new();
    for desk in DESKS {
        if let Some(id) = queries::desk_id_by_name(&state.pool, desk.name).await? {
            counts.desks_kept += 1;
            ids.insert(desk.name, id);
            continue;
        }
        let change = desk_service::DeskChange {
            id: None,
            version: None,
            name: desk.name.to_owned(),
            description: Some(desk.description.to_owned()),
            email: Some(desk.email.to_owned()),
            contributors: desk.members.iter().map(|email| people.staff_id(email).map(str::to_owned)).collect::<anyhow::Result<_>>()?,
        };
        let id =
            desk_service::add_desk(&state.pool, &change).await.map_err(|e| service_error(e, &format!("add the desk {}", desk.name)))?;
        counts.desks_added += 1;
        ids.insert(desk.name, id);
    }
    Ok(ids)
}

async fn seed_channels(
    state: &AppState,
    people: &People,
    desks: &HashMap<&'static str, String>,
    images: &images::Stored,
    counts: &mut DemoCounts,
) -> anyhow::Result<Vec<SeededChannel>> {
    let admin = people.staff_id(cast::staff()[0].email)?;
    let mut seeded = Vec::new();
    for def in CHANNELS {
        if let Some(id) = channel_queries::id_by_name(&state.pool, def.name).await? {
            let stored = channel_queries::publishing_channel(&state.pool, &id, admin).await?;
            counts.channels_kept += 1;
            seeded.push(SeededChannel { def, active: stored.is_some_and(|c| c.state == "active"), id });
            continue;
        }
        let (owner_type, owner_id) = match def.owner {
            Owner::Desk(name) => (OwnerType::Desk, desks.get(name).cloned().with_context(|| format!("the desk {name}"))?),
            Owner::Contributor(email) => (OwnerType::Contributor, people.staff_id(email)?.to_owned()),
        };
        let change = channel_service::ChannelChange {
            id: None,
            version: None,
            name: def.name.to_owned(),
            description: Some(def.description.to_owned()),
            url: None,
            profile_image: Some(images.name(def.profile).to_owned()),
            cover_image: Some(images.name(def.cover).to_owned()),
            gl_account: def.gl_account.map(str::to_owned),
            price: def.price.map(str::to_owned),
            channel_type: def.kind,
            owner_type,
            owner_id,
            admin_users: def.admins.iter().map(|email| people.staff_id(email).map(str::to_owned)).collect::<anyhow::Result<_>>()?,
            default_trial_duration_days: def.trial_days,
            hide_disclaimer: false,
        };
        let id = channel_service::add_channel(&state.pool, admin, &change, &state.uploads)
            .await
            .map_err(|e| service_error(e, &format!("add the channel {}", def.name)))?;
        counts.channels_added += 1;
        seeded.push(SeededChannel { def, id, active: true });
    }
    Ok(seeded)
}

/// A promotion page and the promotional content that opens it, linked from the Commodities topic:
/// its articles (the welcome article among them) show it in their sidebar, and the landing page
/// takes registered interest. Skipped when that topic already has promotional content.
async fn seed_promotion(state: &AppState, images: &images::Stored) -> anyhow::Result<()> {
    let categories = all_categories(&mut *state.pool.acquire().await?).await.context("read the topics")?;
    let Some(topic) = categories.iter().find(|c| c.parent_id.is_none() && c.name.eq_ignore_ascii_case("Commodities")) else {
        return Ok(());
    };
    if topic.promotional_content_id.is_some() {
        return Ok(());
    }
    let page = promotions::PageChange {
        name: "Commodities Outlook Summit".to_owned(),
        html: "<h2>Commodities Outlook Summit</h2>\
            <p>A morning with our energy, metals and agriculture analysts: the supply picture for the next twelve \
            months, where the curves are mispriced, and questions from the floor.</p>\
            <ul><li>Oil and gas: inventories, spare capacity and the refining margin</li>\
            <li>Metals: the energy-transition demand story against Chinese supply</li>\
            <li>Grains and softs: weather, freight and the carry</li></ul>\
            <p>Register your interest and the events team will send you the invitation.</p>"
            .to_owned(),
        teams_channel: "events@insights.example".to_owned(),
        page_summary: "Our commodity analysts on the year ahead, in person.".to_owned(),
        social_sharing_image_url: images.name(cast::Image::CoverWaves).to_owned(),
        success_title: "Thank you for your interest".to_owned(),
        success_message: "The events team will send you the invitation and the agenda.".to_owned(),
        ..promotions::PageChange::default()
    };
    let page_id =
        promotions::add_page(&state.pool, &state.sanitizer, &state.config.teams_webhook_test_hosts, &page).await.map_err(|e| service_error(e, "add the demo promotion page"))?;
    let content = promotions::ContentChange {
        id: None,
        version: None,
        name: "Commodities Outlook Summit".to_owned(),
        description: Some("Meet our commodity analysts: the supply picture and the curves for the next twelve months.".to_owned()),
        article_image: Some(images.name(cast::Image::CoverWaves).to_owned()),
        sidebar_image: Some(images.name(cast::Image::BadgeAmber).to_owned()),
        destination: promotions::Destination::CustomLandingPage,
        link: None,
        promotion_page_id: Some(page_id),
        expiry_date: None,
    };
    let content_id =
        promotions::add_content(&state.pool, &content).await.map_err(|e| service_error(e, "add the demo promotional content"))?;
    let change = CategoryChange {
        id: Some(topic.category_id.clone()),
        name: topic.name.clone(),
        description: topic.description.clone(),
        parent: None,
        is_featured: topic.is_featured,
        small_image: topic.small_image.clone(),
        large_image: topic.large_image.clone(),
        promotional_content_id: Some(content_id),
        is_locked: topic.is_locked,
        is_premium: topic.is_premium,
        version: Some(topic.version),
    };
    taxonomy_service::edit_category(&state.pool, &change).await.map_err(|e| service_error(e, "link the demo promotional content"))?;
    Ok(())
}

/// Gives some root topics the demo's images, unless they have images already.
async fn seed_topic_images(state: &AppState, taxonomy: &Taxonomy, images: &images::Stored) -> anyhow::Result<usize> {
    let mut count = 0;
    for (name, small, large) in cast::TOPIC_IMAGES {
        let Some(topic) = taxonomy.categories.iter().find(|c| c.parent_id.is_none() && c.name.eq_ignore_ascii_case(name)) else {
            continue;
        };
        if topic.small_image.is_some() || topic.large_image.is_some() {
            continue;
        }
        let change = CategoryChange {
            id: Some(topic.category_id.clone()),
            name: topic.name.clone(),
            description: topic.description.clone(),
            parent: None,
            is_featured: topic.is_featured,
            small_image: Some(images.name(*small).to_owned()),
            large_image: Some(images.name(*large).to_owned()),
            promotional_content_id: topic.promotional_content_id.clone(),
            is_locked: topic.is_locked,
            is_premium: topic.is_premium,
            version: Some(topic.version),
        };
        taxonomy_service::edit_category(&state.pool, &change).await.map_err(|e| service_error(e, &format!("give {name} its images")))?;
        count += 1;
    }
    Ok(count)
}
