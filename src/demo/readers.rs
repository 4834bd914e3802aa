//! What the demo's readers did: their channel subscriptions (every type and state appears), the
//! topics they follow, and the articles they viewed over the last 60 days, so that For You,
//! Subscriptions, trending lists and the stats pages have data.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Duration, Utc};
use rand::{Rng, SeedableRng, rngs::StdRng, seq::SliceRandom};

use super::{
    Taxonomy,
    articles::{Published, SeededChannel},
    cast::{self, CHANNELS},
    people::People,
    queries::{self, Subscription},
};
use crate::{channels::ChannelType, state::AppState};

const SEED: u64 = 60_016_011;
/// Views are spread over this many days before now.
const VIEW_DAYS: i64 = 60;

const OIL: &str = "Oil & Gas Premium";
const METALS: &str = "Metals Pro";
const FREIGHT: &str = "Freight & Tanker Tracker";
const PULSE: &str = "Market Pulse";
const GRAINS: &str = "Grains & Softs Weekly";
const TRANSITION: &str = "Energy Transition Briefing";
const MACRO: &str = "Macro Strategy Notes";

fn price_of(channel: &str) -> Option<f64> {
    CHANNELS.iter().find(|c| c.name == channel).and_then(|c| c.price).and_then(|p| p.parse().ok())
}

/// A subscription with the defaults of its type; callers set the rest.
fn base(channel: &str, kind: &'static str, state: &'static str, created_at: DateTime<Utc>) -> (String, Subscription) {
    let subscription = Subscription {
        channel_id: String::new(),
        user_id: String::new(),
        subscription_type: kind,
        subscription_state: state,
        subscribed: matches!(state, "active" | "paymentFailed"),
        created_at,
        cancel_at: None,
        cancel_requested_at: None,
        cancel_at_period_end: false,
        notes: None,
        price_per_month: if matches!(kind, "stripe" | "account" | "external") { price_of(channel) } else { None },
        account_number: None,
        rebate: false,
        billing_method: None,
        trial_duration: None,
        email_notifications: true,
        next_payment: None,
        payment_method_type: None,
        payment_method_details: None,
        subscription_id: None,
        added_by_admin: matches!(kind, "account" | "external" | "nonCharge"),
    };
    (channel.to_owned(), subscription)
}

fn card(mut s: (String, Subscription), rng: &mut StdRng, details: &str) -> (String, Subscription) {
    s.1.payment_method_type = Some("card");
    s.1.payment_method_details = Some(details.to_owned());
    s.1.subscription_id = Some(format!("sub_demo{:014x}", rng.gen_range(0..u64::MAX >> 8)));
    s
}

fn account(mut s: (String, Subscription), number: u32) -> (String, Subscription) {
    s.1.account_number = Some(format!("CLR-{number:06}"));
    s
}

fn trial(mut s: (String, Subscription), days: i32, ends: DateTime<Utc>) -> (String, Subscription) {
    s.1.trial_duration = Some(days);
    s.1.cancel_at = Some(ends);
    s
}

/// The subscriptions of the ready subscriber, the trial reader and the others (by position in
/// `people.readers`), as (channel name, row without ids).
fn plan_subscriptions(now: DateTime<Utc>, people: &People) -> Vec<(usize, String, Subscription)> {
    let mut rng = StdRng::seed_from_u64(SEED);
    let days = Duration::days;
    let mut plan: Vec<(usize, (String, Subscription))> = Vec::new();

    // Sam Subscriber: free open, a premium clearing account, a card subscription cancelled at the
    // end of its period, an approved free-closed channel and a pending request for another.
    plan.push((0, base(PULSE, "free", "active", now - days(400))));
    let mut grains = base(GRAINS, "free", "active", now - days(300));
    grains.1.email_notifications = false;
    plan.push((0, grains));
    let mut oil = account(base(OIL, "account", "active", now - days(200)), 204_311);
    oil.1.notes = Some("Client Capital enterprise agreement".to_owned());
    plan.push((0, oil));
    let mut metals = card(base(METALS, "stripe", "active", now - days(160)), &mut rng, "Visa ending 4242");
    metals.1.cancel_at_period_end = true;
    metals.1.cancel_requested_at = Some(now - days(3));
    metals.1.cancel_at = Some(now + days(18));
    plan.push((0, metals));
    plan.push((0, base(TRANSITION, "free", "active", now - days(90))));
    plan.push((0, base(MACRO, "free", "pending", now - days(2))));

    // Tara Trial: a running trial of a premium channel, and the open channel.
    plan.push((1, trial(base(FREIGHT, "trial", "active", now - days(4)), 14, now + days(10))));
    plan.push((1, base(PULSE, "free", "active", now - days(4))));

    // Fiona Firmadmin reads premium channels through her firm's seats (`demo::firms`); her own: the open channel.
    plan.push((2, base(PULSE, "free", "active", now - days(200))));

    for position in 3..people.readers.len() {
        let i = position - 3;
        let since = now - days(rng.gen_range(20..400));
        let chosen = match i % 16 {
            0 => {
                let mut s = card(base(OIL, "stripe", "active", since), &mut rng, "Mastercard ending 5454");
                s.1.next_payment = Some(now + days(rng.gen_range(3..28)));
                vec![s]
            }
            1 => {
                let mut s = account(base(METALS, "account", "active", since), 310_000 + i as u32);
                s.1.rebate = true;
                s.1.price_per_month = Some(300.0);
                vec![s]
            }
            2 => {
                let mut s = base(FREIGHT, "external", "active", since);
                s.1.billing_method = Some("Invoice, quarterly in arrears");
                s.1.notes = Some("Billed through the group procurement portal".to_owned());
                vec![s]
            }
            3 => {
                let mut s = base(OIL, "nonCharge", "active", since);
                s.1.notes = Some("Courtesy access for a conference speaker".to_owned());
                s.1.cancel_at = Some(now + days(90));
                vec![s]
            }
            4 => {
                let mut s = card(base(METALS, "stripe", "paymentFailed", since), &mut rng, "Visa ending 0341");
                s.1.next_payment = Some(now - days(2));
                vec![s]
            }
            5 => vec![trial(base(OIL, "trial", "expired", now - days(34)), 14, now - days(20))],
            6 => vec![base(FREIGHT, "trial", "pending", now - days(1))],
            7 => vec![base(TRANSITION, "free", "pending", now - days(3))],
            8 => vec![base(MACRO, "free", "rejected", now - days(40))],
            9 => {
                let mut s = card(base(METALS, "stripe", "canceled", since - days(90)), &mut rng, "Amex ending 1005");
                s.1.cancel_at_period_end = true;
                s.1.cancel_requested_at = Some(now - days(70));
                s.1.cancel_at = Some(now - days(40));
                vec![s]
            }
            10 => {
                let mut s = base(OIL, "nonCharge", "expired", now - days(75));
                s.1.notes = Some("Evaluation access for the procurement team".to_owned());
                s.1.cancel_at = Some(now - days(15));
                vec![s]
            }
            11 => {
                let mut s = account(base(FREIGHT, "account", "canceled", since - days(120)), 420_000 + i as u32);
                s.1.cancel_at = Some(now - days(60));
                vec![s]
            }
            12 => vec![base(OIL, "trial", "rejected", now - days(25))],
            13 => {
                let mut closed = base(TRANSITION, "free", "canceled", since - days(60));
                closed.1.cancel_at = Some(now - days(30));
                vec![base(MACRO, "free", "active", since), closed]
            }
            14 => {
                let mut s = base(METALS, "external", "expired", since - days(200));
                s.1.billing_method = Some("Annual invoice");
                s.1.cancel_at = Some(now - days(10));
                vec![s]
            }
            _ => vec![
                account(base(OIL, "account", "active", since), 530_000 + i as u32),
                trial(base(METALS, "trial", "active", now - days(4)), 10, now + days(6)),
            ],
        };
        for s in chosen {
            plan.push((position, s));
        }
        if i % 3 != 2 {
            plan.push((position, base(PULSE, "free", "active", since)));
        }
        if i % 4 == 0 {
            plan.push((position, base(GRAINS, "free", "active", since + days(5))));
        }
    }
    plan.into_iter().map(|(position, (channel, s))| (position, channel, s)).collect()
}

/// Writes the subscriptions (keeping any a reader already has to the channel); how many were added.
pub async fn seed_subscriptions(
    state: &AppState,
    now: DateTime<Utc>,
    people: &People,
    channels: &[SeededChannel],
) -> anyhow::Result<usize> {
    let ids: HashMap<&str, &str> = channels.iter().map(|c| (c.def.name, c.id.as_str())).collect();
    let mut tx = state.pool.begin().await?;
    let mut added = 0;
    for (position, channel, mut subscription) in plan_subscriptions(now, people) {
        let Some(channel_id) = ids.get(channel.as_str()) else {
            continue;
        };
        subscription.channel_id = channel_id.to_string();
        subscription.user_id = people.readers[position].id.clone();
        added += usize::from(queries::insert_subscription(&mut tx, &subscription).await?);
    }
    tx.commit().await?;
    Ok(added)
}

/// Topic follows: the ready readers' own, and a few popular topics for the others.
pub async fn seed_follows(state: &AppState, now: DateTime<Utc>, people: &People, taxonomy: &Taxonomy) -> anyhow::Result<u64> {
    let mut rng = StdRng::seed_from_u64(SEED + 1);
    let (mut categories, mut users, mut since) = (Vec::new(), Vec::new(), Vec::new());
    for (position, reader) in people.readers.iter().enumerate() {
        let paths: Vec<&str> = match position {
            0 => cast::SAM_FOLLOWS.to_vec(),
            1 => cast::TARA_FOLLOWS.to_vec(),
            _ => cast::POPULAR_TOPICS.choose_multiple(&mut rng, position % 5).copied().collect(),
        };
        for path in paths {
            categories.push(taxonomy.topic(path)?);
            users.push(reader.id.clone());
            since.push(now - Duration::days(rng.gen_range(1..120)));
        }
    }
    Ok(queries::insert_follows(&state.pool, &categories, &users, &since).await?)
}

/// One planned view event.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ViewEvent {
    pub article: String,
    pub user: String,
    pub session: String,
    pub full: bool,
    pub source: Option<&'static str>,
    pub viewed_at: DateTime<Utc>,
}

const SOURCES: &[Option<&str>] = &[Some("for-you"), Some("email"), Some("search"), Some("channel"), Some("topic"), None];

/// Views over the last 60 days: each reader reads mostly recent articles, favouring a handful of
/// popular ones and their own channels; an article they may not read in full is a preview.
/// Readers whose trial has ended read nothing.
pub fn plan_views(
    now: DateTime<Utc>,
    people: &People,
    subscriptions: &HashSet<(usize, usize)>,
    published: &[Published],
    trial_days: i64,
) -> Vec<ViewEvent> {
    let mut rng = StdRng::seed_from_u64(SEED + 2);
    let window_start = now - Duration::days(VIEW_DAYS);
    let recent: Vec<usize> = (0..published.len()).filter(|&i| published[i].publish_date >= window_start).collect();
    // A few articles everyone talks about.
    let mut weight: Vec<f64> = published.iter().map(|_| rng.gen_range(0.2..1.0)).collect();
    for &i in recent.choose_multiple(&mut rng, 8) {
        weight[i] *= 8.0;
    }
    let mut events = Vec::new();
    let mut seen: HashSet<(usize, usize, String, bool)> = HashSet::new();
    for (position, reader) in people.readers.iter().enumerate() {
        let first_login = now - Duration::days(reader.reader.first_login_days_ago);
        if reader.reader.is_trial() && first_login + Duration::days(trial_days) <= now {
            continue;
        }
        let entitled = |article: &Published| {
            CHANNELS[article.channel].kind == ChannelType::FreeOpen || subscriptions.contains(&(position, article.channel))
        };
        let count = match position {
            0 => 45,
            1 => 20,
            _ => rng.gen_range(6..=30),
        };
        let mut sessions: HashMap<i64, String> = HashMap::new();
        let mut read: Vec<usize> = Vec::new();
        for _ in 0..count {
            let index = if !read.is_empty() && rng.gen_bool(0.15) {
                read[rng.gen_range(0..read.len())]
            } else if rng.gen_bool(0.7) && !recent.is_empty() {
                let boost = |i: &usize| weight[*i] * if entitled(&published[*i]) { 2.5 } else { 1.0 };
                *recent.choose_weighted(&mut rng, boost).expect("recent articles")
            } else {
                let mine: Vec<usize> = (0..published.len()).filter(|&i| entitled(&published[i])).collect();
                match mine.choose(&mut rng) {
                    Some(i) => *i,
                    None => continue,
                }
            };
            let article = &published[index];
            let earliest = article.publish_date.max(window_start).max(first_login);
            if earliest >= now {
                continue;
            }
            let span = (now - earliest).num_seconds().max(1);
            let viewed_at = earliest + Duration::seconds(rng.gen_range(0..span));
            let full = !article.is_premium || entitled(article) || article.premium_expires_at.is_some_and(|ends| ends <= viewed_at);
            let day = viewed_at.timestamp() / 86_400;
            let session = sessions.entry(day).or_insert_with(|| format!("demo-{:016x}", rng.gen_range(0..u64::MAX))).clone();
            if !seen.insert((index, position, session.clone(), full)) {
                continue;
            }
            read.push(index);
            events.push(ViewEvent {
                article: article.id.clone(),
                user: reader.id.clone(),
                session,
                full,
                source: SOURCES.choose(&mut rng).copied().flatten(),
                viewed_at,
            });
        }
    }
    events
}

/// Which (reader position, channel index) pairs hold an active subscription, from what is stored.
pub async fn entitlements(state: &AppState, people: &People, channels: &[SeededChannel]) -> anyhow::Result<HashSet<(usize, usize)>> {
    let mut pairs = HashSet::new();
    let users: Vec<String> = people.readers.iter().map(|r| r.id.clone()).collect();
    let active = queries::active_subscriptions(&state.pool, &users).await?;
    for (channel_id, user_id) in active {
        let channel = channels.iter().position(|c| c.id == channel_id);
        let reader = people.readers.iter().position(|r| r.id == user_id);
        if let (Some(channel), Some(reader)) = (channel, reader) {
            pairs.insert((reader, channel));
        }
    }
    Ok(pairs)
}

/// Writes the views; returns how many events were added.
pub async fn seed_views(state: &AppState, events: &[ViewEvent]) -> anyhow::Result<i64> {
    let mut added = 0;
    // A few hundred rows per statement keeps each one small.
    for chunk in events.chunks(500) {
        let articles: Vec<String> = chunk.iter().map(|e| e.article.clone()).collect();
        let users: Vec<String> = chunk.iter().map(|e| e.user.clone()).collect();
        let sessions: Vec<String> = chunk.iter().map(|e| e.session.clone()).collect();
        let kinds: Vec<&str> = chunk.iter().map(|e| if e.full { "full" } else { "preview" }).collect();
        let sources: Vec<Option<&str>> = chunk.iter().map(|e| e.source).collect();
        let viewed_at: Vec<DateTime<Utc>> = chunk.iter().map(|e| e.viewed_at).collect();
        added += queries::insert_views(&state.pool, &articles, &users, &sessions, &kinds, &sources, &viewed_at).await?;
    }
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::{cast::Reader, people::ReaderUser};

    fn people() -> People {
        let readers = cast::readers(14)
            .into_iter()
            .enumerate()
            .map(|(i, reader): (usize, Reader)| ReaderUser { id: format!("{i:024x}"), reader })
            .collect();
        People { staff: HashMap::new(), readers, added: 0 }
    }

    #[test]
    fn every_subscription_type_and_state_appears() {
        let plan = plan_subscriptions(Utc::now(), &people());
        let types: HashSet<&str> = plan.iter().map(|(_, _, s)| s.subscription_type).collect();
        let states: HashSet<&str> = plan.iter().map(|(_, _, s)| s.subscription_state).collect();
        assert_eq!(types, HashSet::from(["stripe", "account", "external", "nonCharge", "trial", "free"]));
        assert_eq!(states, HashSet::from(["active", "canceled", "rejected", "expired", "pending", "paymentFailed"]));
        // The checks of migration 0005: columns that belong to one type.
        for (_, channel, s) in &plan {
            assert!(s.account_number.is_none() || s.subscription_type == "account", "{channel} {s:?}");
            assert!(s.billing_method.is_none() || s.subscription_type == "external", "{channel} {s:?}");
            assert!(s.trial_duration.is_none() || s.subscription_type == "trial", "{channel} {s:?}");
        }
        let pairs: HashSet<(usize, &str)> = plan.iter().map(|(p, c, _)| (*p, c.as_str())).collect();
        assert_eq!(pairs.len(), plan.len(), "one subscription per reader and channel");
    }
}
