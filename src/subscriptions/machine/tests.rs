//! The subscription state machine, transition by transition (spec 3 §4, issue 11).
//!
//! The transition matrix is table-driven: every event is applied to every starting point of
//! `all_starts()` on every channel type it concerns, and each table must name every starting point
//! exactly once, so a missing or duplicated row fails the test. Focused tests then check whole
//! subscriptions for the rules that matter most (trial ends, cancel at period end, grants, expiry)
//! and what the web app derives (`status`, `reader_card`, `offers`, `trial_reminder_due`).

use chrono::{DateTime, Duration, TimeZone, Utc};

use super::*;
use crate::channels::ChannelType;
use crate::subscriptions::model::{SubscriptionState as S, SubscriptionType as T};

// ---- fixtures ----

fn at(year: i32, month: u32, day: u32, hour: u32, minute: u32, second: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(year, month, day, hour, minute, second).single().expect("a valid instant")
}

/// Every test runs at this instant.
fn now() -> DateTime<Utc> {
    at(2026, 11, 25, 10, 0, 0)
}

/// The trial policy's cool-off by default.
fn cool_off() -> Duration {
    Duration::days(365)
}

/// The end of the live trial of the fixtures (approved 14 days before its end).
fn live_trial_end() -> DateTime<Utc> {
    at(2026, 12, 5, 23, 59, 59)
}

/// The next monthly charge of a card subscription in the fixtures.
fn next_charge() -> DateTime<Utc> {
    at(2026, 12, 1, 0, 0, 0)
}

fn facts(channel_type: ChannelType) -> ChannelFacts {
    ChannelFacts { channel_type, archived: false }
}

fn archived(channel_type: ChannelType) -> ChannelFacts {
    ChannelFacts { channel_type, archived: true }
}

const CHANNELS: [ChannelType; 3] = [ChannelType::Premium, ChannelType::FreeOpen, ChannelType::FreeClosed];
const ALL_TYPES: [T; 6] = [T::Stripe, T::Account, T::External, T::NonCharge, T::Trial, T::Free];
const ALL_STATES: [S; 6] = [S::Active, S::Canceled, S::Rejected, S::Expired, S::Pending, S::PaymentFailed];
const PAID: [T; 3] = [T::Stripe, T::Account, T::External];
const UNPAID: [T; 3] = [T::NonCharge, T::Trial, T::Free];
const NOT_STRIPE: [T; 5] = [T::Account, T::External, T::NonCharge, T::Trial, T::Free];
const NOT_TRIAL: [T; 5] = [T::Stripe, T::Account, T::External, T::NonCharge, T::Free];
const LIVE: [S; 2] = [S::Active, S::PaymentFailed];
const ENDED: [S; 3] = [S::Expired, S::Canceled, S::Rejected];

/// A starting point of a transition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Start {
    /// The reader has no subscription to the channel.
    NoSubscription,
    /// A subscription of that type in that state, as it is recorded after the usual path there
    /// (see `plain`).
    Plain(T, S),
    /// Active, but its end (an expiry date, a trial's end) has passed: expired before the sweep.
    PastEnd(T),
    /// Active, cancelled at period end, the period still running.
    CancelAtPeriodEnd(T),
    /// Active, cancelled at period end, the period over: canceled before the sweep.
    CancelAtPeriodEndPast(T),
    /// A failed payment, past its end: canceled before the sweep.
    FailedPastEnd(T),
    /// A trial request the reader withdrew before staff answered.
    WithdrawnTrial,
}

fn all_starts() -> Vec<Start> {
    let mut starts = vec![Start::NoSubscription];
    starts.extend(plain_starts(&ALL_TYPES, &ALL_STATES));
    starts.extend(ALL_TYPES.map(Start::PastEnd));
    starts.extend(PAID.map(Start::CancelAtPeriodEnd));
    starts.extend(PAID.map(Start::CancelAtPeriodEndPast));
    starts.extend([T::Stripe, T::Account].map(Start::FailedPastEnd));
    starts.push(Start::WithdrawnTrial);
    starts
}

fn plain_starts(types: &[T], states: &[S]) -> Vec<Start> {
    types.iter().flat_map(|ty| states.iter().map(|state| Start::Plain(*ty, *state))).collect()
}

fn terms_for(subscription_type: T) -> Terms {
    let terms = Terms { is_full_article_content: true, ..Terms::default() };
    match subscription_type {
        T::Account => Terms { account_number: Some("ACC-1001".into()), price_per_month: Some("25.00".into()), ..terms },
        T::External => Terms { billing_method: Some("Invoice".into()), price_per_month: Some("25.00".into()), ..terms },
        T::NonCharge => Terms { notes: Some("Press".into()), added_by_admin: true, ..terms },
        T::Trial => Terms { trial_duration: Some(14), ..terms },
        T::Stripe | T::Free => terms,
    }
}

/// A subscription in `state` as the usual path leaves it: a live trial ends on
/// `live_trial_end()`, a live card subscription is next charged on `next_charge()`, an ended one
/// is no longer subscribed, a request (pending or rejected) has no trial duration yet.
fn plain(subscription_type: T, state: S) -> Subscription {
    let base = Subscription {
        subscription_type,
        state,
        cancel_at: None,
        cancel_at_period_end: false,
        cancel_requested_at: None,
        subscribed: true,
        acknowledged_non_charge_sub_expired: false,
        next_payment: None,
        card: None,
        terms: terms_for(subscription_type),
    };
    let trial = subscription_type == T::Trial;
    match state {
        S::Active | S::PaymentFailed => {
            Subscription { cancel_at: trial.then(live_trial_end), next_payment: (subscription_type == T::Stripe).then(next_charge), ..base }
        }
        S::Pending => Subscription { terms: Terms { trial_duration: None, ..base.terms }, ..base },
        S::Expired => Subscription { cancel_at: Some(at(2026, 11, 20, 23, 59, 59)), subscribed: false, ..base },
        S::Canceled => Subscription {
            cancel_at: Some(at(2026, 11, 20, 10, 0, 0)),
            cancel_requested_at: Some(at(2026, 11, 20, 10, 0, 0)),
            subscribed: false,
            ..base
        },
        S::Rejected => Subscription { subscribed: false, terms: Terms { trial_duration: None, ..base.terms }, ..base },
    }
}

fn fixture(start: Start) -> Option<Subscription> {
    let subscription = match start {
        Start::NoSubscription => return None,
        Start::Plain(ty, state) => plain(ty, state),
        Start::PastEnd(ty) => Subscription { cancel_at: Some(at(2026, 11, 24, 23, 59, 59)), ..plain(ty, S::Active) },
        Start::CancelAtPeriodEnd(ty) => Subscription {
            cancel_at: Some(at(2026, 12, 1, 0, 0, 0)),
            cancel_at_period_end: true,
            cancel_requested_at: Some(at(2026, 11, 10, 9, 0, 0)),
            subscribed: false,
            ..plain(ty, S::Active)
        },
        Start::CancelAtPeriodEndPast(ty) => Subscription {
            cancel_at: Some(at(2026, 11, 1, 0, 0, 0)),
            cancel_at_period_end: true,
            cancel_requested_at: Some(at(2026, 10, 20, 9, 0, 0)),
            subscribed: false,
            ..plain(ty, S::Active)
        },
        Start::FailedPastEnd(ty) => Subscription { cancel_at: Some(at(2026, 11, 24, 23, 59, 59)), ..plain(ty, S::PaymentFailed) },
        Start::WithdrawnTrial => Subscription {
            state: S::Canceled,
            cancel_requested_at: Some(at(2026, 11, 20, 8, 0, 0)),
            subscribed: false,
            ..plain(T::Trial, S::Pending)
        },
    };
    Some(subscription)
}

fn sub(start: Start) -> Subscription {
    fixture(start).expect("a starting point with a subscription")
}

fn apply(channel_type: ChannelType, current: Option<&Subscription>, event: &Event) -> Result<Transition, Refusal> {
    transition(facts(channel_type), current, event, now())
}

fn next_of(result: Result<Transition, Refusal>) -> Subscription {
    result.expect("an allowed transition").next.expect("a subscription after the transition")
}

fn conflict(message: &str) -> Result<Transition, Refusal> {
    Err(Refusal::Conflict(message.to_owned()))
}

fn grant_of(subscription_type: T, cancel_at: Option<DateTime<Utc>>, terms: Terms) -> Event {
    Event::Grant(Grant { subscription_type, cancel_at, terms })
}

/// What staff give in the matrix: the type the channel offers, with an expiry date.
fn grant_for(channel_type: ChannelType) -> Event {
    let subscription_type = if channel_type == ChannelType::Premium { T::NonCharge } else { T::Free };
    grant_of(subscription_type, Some(at(2027, 1, 31, 23, 59, 59)), Terms { notes: Some("Granted".into()), ..Terms::default() })
}

/// One of each event, as the matrix applies them.
fn every_event(channel_type: ChannelType) -> Vec<Event> {
    vec![
        Event::RequestTrial,
        Event::SubscribeFreeOpen,
        Event::RequestFreeClosed,
        Event::Cancel,
        Event::AcknowledgeExpired,
        Event::Approve { trial_days: 14 },
        Event::Reject,
        grant_for(channel_type),
        Event::CancelImmediately,
        Event::Delete,
        Event::Expire,
    ]
}

// ---- the transition matrix ----

/// The expected outcome of one transition.
#[derive(Debug, Clone)]
enum Want {
    /// Allowed: the next subscription has `ty` (none: the type it had), `state`, and the change is
    /// recorded as `action` asking for `email`.
    Next {
        ty: Option<T>,
        state: S,
        action: &'static str,
        email: Option<EmailKind>,
    },
    /// Allowed: the subscription is removed.
    Removed,
    Conflict(String),
    NotOffered(&'static str),
}

fn ok(state: S, action: &'static str, email: Option<EmailKind>) -> Want {
    Want::Next { ty: None, state, action, email }
}

fn ok_as(ty: T, state: S, action: &'static str, email: Option<EmailKind>) -> Want {
    Want::Next { ty: Some(ty), state, action, email }
}

fn refused(message: &str) -> Want {
    Want::Conflict(message.to_owned())
}

impl Want {
    /// What is wrong with `got`, if anything.
    fn mismatch(&self, before: Option<&Subscription>, got: &Result<Transition, Refusal>) -> Option<String> {
        match (self, got) {
            (Want::Next { ty, state, action, email }, Ok(Transition { next: Some(next), action: got_action, email: got_email })) => {
                let ty = ty.or(before.map(|b| b.subscription_type)).expect("a type to expect");
                let ended = matches!(next.state, S::Canceled | S::Expired | S::Rejected);
                let same = next.subscription_type == ty && next.state == *state && got_action == action && got_email == email;
                if !same {
                    Some(format!("want {ty:?}/{state:?} {action} {email:?}, got {got:?}"))
                } else if ended && next.subscribed {
                    Some(format!("an ended subscription is still subscribed: {next:?}"))
                } else {
                    None
                }
            }
            (Want::Removed, Ok(Transition { next: None, action: "delete", email: None })) => None,
            (Want::Conflict(want), Err(Refusal::Conflict(message))) if want == message => None,
            (Want::NotOffered(want), Err(Refusal::NotOffered(message))) if want == message => None,
            _ => Some(format!("want {self:?}, got {got:?}")),
        }
    }
}

/// Applies `event` on a `channel_type` channel to every starting point of `table`, which must
/// name each starting point of `all_starts()` exactly once.
fn check_table(channel_type: ChannelType, event: &Event, table: &[(Vec<Start>, Want)]) {
    let listed: Vec<Start> = table.iter().flat_map(|(starts, _)| starts.iter().copied()).collect();
    for start in all_starts() {
        let times = listed.iter().filter(|s| **s == start).count();
        assert_eq!(times, 1, "{event:?}: the table names {start:?} {times} times");
    }
    assert_eq!(listed.len(), all_starts().len(), "{event:?}: the table names starting points that are not in all_starts()");
    let mut failures = Vec::new();
    for (starts, want) in table {
        for start in starts {
            let before = fixture(*start);
            let got = transition(facts(channel_type), before.as_ref(), event, now());
            if let Some(problem) = want.mismatch(before.as_ref(), &got) {
                failures.push(format!("{channel_type:?} {start:?} {event:?}: {problem}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} wrong transitions:\n{}", failures.len(), failures.join("\n"));
}

/// Every ended starting point: a subscription the reader no longer has.
fn ended_starts() -> Vec<Start> {
    let mut starts = plain_starts(&ALL_TYPES, &ENDED);
    starts.extend(ALL_TYPES.map(Start::PastEnd));
    starts.extend(PAID.map(Start::CancelAtPeriodEndPast));
    starts.extend([T::Stripe, T::Account].map(Start::FailedPastEnd));
    starts.push(Start::WithdrawnTrial);
    starts
}

/// Every live starting point: a subscription that gives access now.
fn live_starts() -> Vec<Start> {
    let mut starts = plain_starts(&ALL_TYPES, &LIVE);
    starts.extend(PAID.map(Start::CancelAtPeriodEnd));
    starts
}

#[test]
fn the_matrix_helpers_partition_every_starting_point() {
    let mut listed = vec![Start::NoSubscription];
    listed.extend(live_starts());
    listed.extend(plain_starts(&ALL_TYPES, &[S::Pending]));
    listed.extend(ended_starts());
    assert_eq!(listed.len(), all_starts().len());
    assert_eq!(all_starts().len(), 52);
    for start in all_starts() {
        assert_eq!(listed.iter().filter(|s| **s == start).count(), 1, "{start:?}");
    }
    // Each fixture is in the state its name says, at `now`.
    for start in live_starts() {
        let sub = sub(start);
        assert!(matches!(sub.effective_state(now()), S::Active | S::PaymentFailed), "{start:?} is live");
    }
    for start in ended_starts() {
        let sub = sub(start);
        assert!(matches!(sub.effective_state(now()), S::Expired | S::Canceled | S::Rejected), "{start:?} has ended");
        assert!(!sub.subscribed || matches!(start, Start::PastEnd(_) | Start::FailedPastEnd(_)), "{start:?}");
    }
}

#[test]
fn request_trial_on_a_premium_channel() {
    let new_request = ok_as(T::Trial, S::Pending, "requestTrial", None);
    let mut never_tried = plain_starts(&NOT_TRIAL, &ENDED);
    never_tried.extend(NOT_TRIAL.map(Start::PastEnd));
    never_tried.extend(PAID.map(Start::CancelAtPeriodEndPast));
    never_tried.extend([T::Stripe, T::Account].map(Start::FailedPastEnd));
    let table = [
        (vec![Start::NoSubscription], new_request.clone()),
        (live_starts(), refused(ALREADY_SUBSCRIBED)),
        (vec![Start::Plain(T::Trial, S::Pending)], refused(TRIAL_PENDING)),
        (plain_starts(&NOT_TRIAL, &[S::Pending]), refused(ACCESS_PENDING)),
        // A trial that ran (expired, ended before the sweep, or cancelled by the reader): the trial
        // policy's cool-off decides when another may be asked for (`trials::request`), not the machine.
        (vec![Start::Plain(T::Trial, S::Expired), Start::Plain(T::Trial, S::Canceled), Start::PastEnd(T::Trial)], new_request.clone()),
        (vec![Start::Plain(T::Trial, S::Rejected)], refused(TRIAL_DECLINED)),
        // A withdrawn request never started: it may be made again.
        (vec![Start::WithdrawnTrial], new_request.clone()),
        (never_tried, new_request),
    ];
    check_table(ChannelType::Premium, &Event::RequestTrial, &table);
}

#[test]
fn subscribe_to_a_free_open_channel() {
    let joined = ok_as(T::Free, S::Active, "subscribe", None);
    let table = [
        (vec![Start::NoSubscription], joined.clone()),
        (live_starts(), refused(ALREADY_SUBSCRIBED)),
        (vec![Start::Plain(T::Trial, S::Pending)], refused(TRIAL_PENDING)),
        (plain_starts(&NOT_TRIAL, &[S::Pending]), refused(ACCESS_PENDING)),
        (ended_starts(), joined),
    ];
    check_table(ChannelType::FreeOpen, &Event::SubscribeFreeOpen, &table);
}

#[test]
fn request_access_to_a_free_closed_channel() {
    let requested = ok_as(T::Free, S::Pending, "requestAccess", None);
    let table = [
        (vec![Start::NoSubscription], requested.clone()),
        (live_starts(), refused(ALREADY_SUBSCRIBED)),
        (vec![Start::Plain(T::Trial, S::Pending)], refused(TRIAL_PENDING)),
        (plain_starts(&NOT_TRIAL, &[S::Pending]), refused(ACCESS_PENDING)),
        // Withdrawn, rejected or ended: the reader may ask again.
        (ended_starts(), requested),
    ];
    check_table(ChannelType::FreeClosed, &Event::RequestFreeClosed, &table);
}

#[test]
fn reader_requests_are_refused_on_channels_that_do_not_offer_them() {
    let cases = [
        (Event::RequestTrial, [ChannelType::FreeOpen, ChannelType::FreeClosed], TRIAL_ONLY_PREMIUM),
        (Event::SubscribeFreeOpen, [ChannelType::Premium, ChannelType::FreeClosed], FREE_OPEN_ONLY),
        (Event::RequestFreeClosed, [ChannelType::Premium, ChannelType::FreeOpen], FREE_CLOSED_ONLY),
    ];
    for (event, channels, message) in cases {
        for channel_type in channels {
            check_table(channel_type, &event, &[(all_starts(), Want::NotOffered(message))]);
        }
    }
}

#[test]
fn cancel_by_the_reader() {
    let mut ends_now = plain_starts(&UNPAID, &[S::Active]);
    ends_now.extend(plain_starts(&ALL_TYPES, &[S::PaymentFailed]));
    let table = [
        (vec![Start::NoSubscription], refused(NOT_SUBSCRIBED)),
        (plain_starts(&ALL_TYPES, &[S::Pending]), ok(S::Canceled, "withdrawRequest", None)),
        // Paid: access is kept to the end of the period.
        (plain_starts(&PAID, &[S::Active]), ok(S::Active, "cancelAtPeriodEnd", Some(EmailKind::SubscriptionCanceled))),
        (PAID.map(Start::CancelAtPeriodEnd).to_vec(), refused("Your subscription already ends on 01 Dec 2026.")),
        // Free, trial, non-charge, and a paid one whose payment failed: ends now.
        (ends_now, ok(S::Canceled, "cancel", None)),
        (ended_starts(), refused(NOT_SUBSCRIBED)),
    ];
    for channel_type in CHANNELS {
        check_table(channel_type, &Event::Cancel, &table);
    }
}

#[test]
fn acknowledge_an_expired_non_charge_subscription() {
    let mut nothing = vec![Start::NoSubscription];
    nothing.extend(
        all_starts()
            .into_iter()
            .filter(|s| !matches!(s, Start::NoSubscription | Start::Plain(T::NonCharge, S::Expired) | Start::PastEnd(T::NonCharge))),
    );
    let table = [
        (vec![Start::Plain(T::NonCharge, S::Expired)], ok(S::Expired, "acknowledgeExpired", None)),
        // Ended but not yet swept: the record stays active until the sweep.
        (vec![Start::PastEnd(T::NonCharge)], ok(S::Active, "acknowledgeExpired", None)),
        (nothing, refused(NOTHING_TO_ACKNOWLEDGE)),
    ];
    for channel_type in CHANNELS {
        check_table(channel_type, &Event::AcknowledgeExpired, &table);
    }
}

#[test]
fn approve_and_reject_a_pending_request() {
    let requests = [Start::Plain(T::Trial, S::Pending), Start::Plain(T::Free, S::Pending), Start::Plain(T::External, S::Pending)];
    let others: Vec<Start> = all_starts().into_iter().filter(|s| !requests.contains(s)).collect();
    let approve = [
        (vec![requests[0]], ok(S::Active, "approveTrial", Some(EmailKind::TrialApproved))),
        (vec![requests[1]], ok(S::Active, "approveAccess", Some(EmailKind::AccessApproved))),
        // An invoice request: staff confirm the reader is invoiced.
        (vec![requests[2]], ok(S::Active, "approveInvoice", Some(EmailKind::Welcome))),
        (others.clone(), refused(NO_PENDING_REQUEST)),
    ];
    let reject = [
        (vec![requests[0]], ok(S::Rejected, "rejectTrial", Some(EmailKind::TrialRejected))),
        (vec![requests[1], requests[2]], ok(S::Rejected, "rejectAccess", Some(EmailKind::AccessRejected))),
        (others, refused(NO_PENDING_REQUEST)),
    ];
    for channel_type in CHANNELS {
        check_table(channel_type, &Event::Approve { trial_days: 14 }, &approve);
        check_table(channel_type, &Event::Reject, &reject);
    }
}

#[test]
fn grant_by_staff() {
    let card_live =
        vec![Start::Plain(T::Stripe, S::Active), Start::Plain(T::Stripe, S::PaymentFailed), Start::CancelAtPeriodEnd(T::Stripe)];
    let mut other_live = plain_starts(&NOT_STRIPE, &LIVE);
    other_live.extend([T::Account, T::External].map(Start::CancelAtPeriodEnd));
    let mut not_live = vec![Start::NoSubscription];
    not_live.extend(plain_starts(&ALL_TYPES, &[S::Pending]));
    not_live.extend(ended_starts());
    for channel_type in CHANNELS {
        let granted = if channel_type == ChannelType::Premium { T::NonCharge } else { T::Free };
        let table = [
            (card_live.clone(), refused(CARD_MANAGED)),
            (other_live.clone(), ok_as(granted, S::Active, "change", None)),
            (not_live.clone(), ok_as(granted, S::Active, "grant", Some(EmailKind::Welcome))),
        ];
        check_table(channel_type, &grant_for(channel_type), &table);
    }
}

#[test]
fn grant_of_a_type_the_channel_does_not_offer_is_refused() {
    for channel_type in CHANNELS {
        for subscription_type in ALL_TYPES.into_iter().filter(|ty| !offers(channel_type, *ty)) {
            let event = grant_of(subscription_type, None, terms_for(subscription_type));
            check_table(channel_type, &event, &[(all_starts(), Want::NotOffered(TYPE_NOT_OFFERED))]);
        }
    }
}

#[test]
fn cancel_immediately_by_staff() {
    let card_live =
        vec![Start::Plain(T::Stripe, S::Active), Start::Plain(T::Stripe, S::PaymentFailed), Start::CancelAtPeriodEnd(T::Stripe)];
    let mut cancelable = plain_starts(&NOT_STRIPE, &[S::Active, S::PaymentFailed, S::Pending]);
    cancelable.push(Start::Plain(T::Stripe, S::Pending));
    cancelable.extend([T::Account, T::External].map(Start::CancelAtPeriodEnd));
    let table = [
        (vec![Start::NoSubscription], refused(NO_SUBSCRIPTION)),
        (card_live, refused(CARD_MANAGED)),
        (cancelable, ok(S::Canceled, "cancelImmediately", Some(EmailKind::SubscriptionCanceled))),
        (ended_starts(), refused(ALREADY_ENDED)),
    ];
    for channel_type in CHANNELS {
        check_table(channel_type, &Event::CancelImmediately, &table);
    }
}

#[test]
fn delete_by_staff() {
    let card_live =
        vec![Start::Plain(T::Stripe, S::Active), Start::Plain(T::Stripe, S::PaymentFailed), Start::CancelAtPeriodEnd(T::Stripe)];
    let removable: Vec<Start> = all_starts().into_iter().filter(|s| *s != Start::NoSubscription && !card_live.contains(s)).collect();
    let table = [(vec![Start::NoSubscription], refused(NO_SUBSCRIPTION)), (card_live, refused(CARD_MANAGED)), (removable, Want::Removed)];
    for channel_type in CHANNELS {
        check_table(channel_type, &Event::Delete, &table);
    }
}

#[test]
fn expire_by_the_worker() {
    let mut not_due = plain_starts(&ALL_TYPES, &ALL_STATES);
    not_due.extend(PAID.map(Start::CancelAtPeriodEnd));
    not_due.push(Start::WithdrawnTrial);
    let mut canceled = PAID.map(Start::CancelAtPeriodEndPast).to_vec();
    canceled.extend([T::Stripe, T::Account].map(Start::FailedPastEnd));
    let table = [
        (vec![Start::NoSubscription], refused(NOT_SUBSCRIBED)),
        (vec![Start::PastEnd(T::Trial)], ok(S::Expired, "expire", Some(EmailKind::TrialEnded))),
        (NOT_TRIAL.map(Start::PastEnd).to_vec(), ok(S::Expired, "expire", None)),
        // Cancelled at period end, or a failed payment: canceled, not expired.
        (canceled, ok(S::Canceled, "expire", None)),
        (not_due, refused(NOT_DUE)),
    ];
    for channel_type in CHANNELS {
        check_table(channel_type, &Event::Expire, &table);
    }
}

#[test]
fn an_archived_channel_refuses_every_event_but_expire() {
    for channel_type in CHANNELS {
        for event in every_event(channel_type) {
            for start in all_starts() {
                let before = fixture(start);
                let got = transition(archived(channel_type), before.as_ref(), &event, now());
                if event == Event::Expire {
                    // What remains may still end, exactly as on a live channel.
                    assert_eq!(got, apply(channel_type, before.as_ref(), &event), "{channel_type:?} {start:?}");
                } else {
                    assert_eq!(got, conflict(ARCHIVED), "{channel_type:?} {start:?} {event:?}");
                }
            }
        }
    }
    // Even staff grants of a type not offered, and approvals of a pending request.
    let pending = plain(T::Trial, S::Pending);
    assert_eq!(transition(archived(ChannelType::Premium), Some(&pending), &Event::Approve { trial_days: 7 }, now()), conflict(ARCHIVED));
    let expired_trial = sub(Start::PastEnd(T::Trial));
    let expired = transition(archived(ChannelType::Premium), Some(&expired_trial), &Event::Expire, now()).unwrap();
    assert_eq!(expired.next.unwrap().state, S::Expired);
    assert_eq!(expired.email, Some(EmailKind::TrialEnded));
}

// ---- trial requests, approval and rejection ----

#[test]
fn trial_end_is_the_last_second_of_the_day_days_later() {
    assert_eq!(trial_end(now(), 14), at(2026, 12, 9, 23, 59, 59));
    assert_eq!(trial_end(now(), 1), at(2026, 11, 26, 23, 59, 59));
    assert_eq!(trial_end(now(), 0), at(2026, 11, 25, 23, 59, 59));
    assert_eq!(trial_end(at(2026, 11, 25, 0, 0, 0), 7), at(2026, 12, 2, 23, 59, 59));
    assert_eq!(trial_end(at(2026, 11, 25, 23, 59, 59), 7), at(2026, 12, 2, 23, 59, 59));
    assert_eq!(trial_end(at(2026, 12, 25, 10, 0, 0), 14), at(2027, 1, 8, 23, 59, 59));
    assert_eq!(trial_end(at(2028, 2, 20, 10, 0, 0), 9), at(2028, 2, 29, 23, 59, 59));
    assert_eq!(end_of_day(at(2026, 11, 25, 0, 0, 0)), at(2026, 11, 25, 23, 59, 59));
    assert_eq!(end_of_day(at(2026, 11, 25, 23, 59, 59)), at(2026, 11, 25, 23, 59, 59));
}

#[test]
fn a_trial_request_is_a_pending_trial_with_nothing_set() {
    let requested = apply(ChannelType::Premium, None, &Event::RequestTrial).unwrap();
    let want = Subscription {
        subscription_type: T::Trial,
        state: S::Pending,
        cancel_at: None,
        cancel_at_period_end: false,
        cancel_requested_at: None,
        subscribed: true,
        acknowledged_non_charge_sub_expired: false,
        next_payment: None,
        card: None,
        terms: Terms { is_full_article_content: true, ..Terms::default() },
    };
    assert_eq!(requested, Transition { next: Some(want.clone()), action: "requestTrial", email: None });
    let access = next_of(apply(ChannelType::FreeClosed, None, &Event::RequestFreeClosed));
    assert_eq!(access, Subscription { subscription_type: T::Free, ..want.clone() });
    let joined = next_of(apply(ChannelType::FreeOpen, None, &Event::SubscribeFreeOpen));
    assert_eq!(joined, Subscription { subscription_type: T::Free, state: S::Active, ..want });
}

#[test]
fn approve_uses_the_given_trial_days_and_records_them() {
    let pending = plain(T::Trial, S::Pending);
    for (days, end) in [(14, at(2026, 12, 9, 23, 59, 59)), (30, at(2026, 12, 25, 23, 59, 59)), (1, at(2026, 11, 26, 23, 59, 59))] {
        let approved = apply(ChannelType::Premium, Some(&pending), &Event::Approve { trial_days: days }).unwrap();
        let want = Subscription {
            state: S::Active,
            cancel_at: Some(end),
            terms: Terms { trial_duration: Some(days), ..pending.terms.clone() },
            ..pending.clone()
        };
        assert_eq!(approved, Transition { next: Some(want), action: "approveTrial", email: Some(EmailKind::TrialApproved) }, "{days} days");
    }
}

#[test]
fn approve_and_reject_an_access_request() {
    let pending = plain(T::Free, S::Pending);
    let approved = apply(ChannelType::FreeClosed, Some(&pending), &Event::Approve { trial_days: 14 }).unwrap();
    assert_eq!(
        approved,
        Transition {
            next: Some(Subscription { state: S::Active, ..pending.clone() }),
            action: "approveAccess",
            email: Some(EmailKind::AccessApproved)
        }
    );
    assert_eq!(approved.next.as_ref().unwrap().cancel_at, None, "an access has no end");
    let rejected = apply(ChannelType::FreeClosed, Some(&pending), &Event::Reject).unwrap();
    assert_eq!(
        rejected,
        Transition {
            next: Some(Subscription { state: S::Rejected, subscribed: false, ..pending.clone() }),
            action: "rejectAccess",
            email: Some(EmailKind::AccessRejected)
        }
    );
    // Approving or rejecting twice: the request is no longer pending.
    let active = approved.next.unwrap();
    assert_eq!(apply(ChannelType::FreeClosed, Some(&active), &Event::Approve { trial_days: 14 }), conflict(NO_PENDING_REQUEST));
    assert_eq!(apply(ChannelType::FreeClosed, Some(&active), &Event::Reject), conflict(NO_PENDING_REQUEST));
    let rejected = rejected.next.unwrap();
    assert_eq!(apply(ChannelType::FreeClosed, Some(&rejected), &Event::Reject), conflict(NO_PENDING_REQUEST));
    assert_eq!(apply(ChannelType::FreeClosed, Some(&rejected), &Event::Approve { trial_days: 14 }), conflict(NO_PENDING_REQUEST));
}

#[test]
fn a_rejected_trial_cannot_be_requested_again() {
    let pending = next_of(apply(ChannelType::Premium, None, &Event::RequestTrial));
    let rejected = apply(ChannelType::Premium, Some(&pending), &Event::Reject).unwrap();
    assert_eq!(
        rejected,
        Transition {
            next: Some(Subscription { state: S::Rejected, subscribed: false, ..pending.clone() }),
            action: "rejectTrial",
            email: Some(EmailKind::TrialRejected)
        }
    );
    let rejected = rejected.next.unwrap();
    assert_eq!(apply(ChannelType::Premium, Some(&rejected), &Event::RequestTrial), conflict(TRIAL_DECLINED));
    assert_eq!(reader_card(ChannelType::Premium, Some(&rejected), now(), cool_off()).action, CardAction::Buy);
}

#[test]
fn a_withdrawn_trial_request_may_be_made_again() {
    let pending = next_of(apply(ChannelType::Premium, None, &Event::RequestTrial));
    let withdrawn = apply(ChannelType::Premium, Some(&pending), &Event::Cancel).unwrap();
    let want = Subscription { state: S::Canceled, cancel_at: None, cancel_requested_at: Some(now()), subscribed: false, ..pending.clone() };
    assert_eq!(withdrawn, Transition { next: Some(want), action: "withdrawRequest", email: None });
    let withdrawn = withdrawn.next.unwrap();
    assert_eq!(apply(ChannelType::Premium, Some(&withdrawn), &Event::Cancel), conflict(NOT_SUBSCRIBED));
    assert_eq!(apply(ChannelType::Premium, Some(&withdrawn), &Event::Approve { trial_days: 14 }), conflict(NO_PENDING_REQUEST));
    let again = apply(ChannelType::Premium, Some(&withdrawn), &Event::RequestTrial).unwrap();
    assert_eq!(again, Transition { next: Some(pending), action: "requestTrial", email: None });
    assert_eq!(
        reader_card(ChannelType::Premium, Some(&withdrawn), now(), cool_off()),
        ReaderCard {
            action: CardAction::RequestTrial,
            ended: Some(EndedAs::Canceled),
            ends_at: None,
            payment_failed: false,
            summaries_only: false
        }
    );
    // A request staff cancelled before it started has not run either.
    let pending = plain(T::Trial, S::Pending);
    let cancelled = next_of(apply(ChannelType::Premium, Some(&pending), &Event::CancelImmediately));
    assert_eq!(cancelled.terms.trial_duration, None);
    assert!(apply(ChannelType::Premium, Some(&cancelled), &Event::RequestTrial).is_ok());
}

#[test]
fn a_withdrawn_access_request_may_be_made_again() {
    let pending = next_of(apply(ChannelType::FreeClosed, None, &Event::RequestFreeClosed));
    assert_eq!(apply(ChannelType::FreeClosed, Some(&pending), &Event::RequestFreeClosed), conflict(ACCESS_PENDING));
    let withdrawn = next_of(apply(ChannelType::FreeClosed, Some(&pending), &Event::Cancel));
    assert_eq!((withdrawn.state, withdrawn.cancel_at, withdrawn.subscribed), (S::Canceled, None, false));
    assert_eq!(next_of(apply(ChannelType::FreeClosed, Some(&withdrawn), &Event::RequestFreeClosed)), pending);
}

#[test]
fn a_trial_that_ran_cannot_be_requested_again() {
    let pending = next_of(apply(ChannelType::Premium, None, &Event::RequestTrial));
    assert_eq!(apply(ChannelType::Premium, Some(&pending), &Event::RequestTrial), conflict(TRIAL_PENDING));
    let active = next_of(apply(ChannelType::Premium, Some(&pending), &Event::Approve { trial_days: 14 }));
    assert_eq!(apply(ChannelType::Premium, Some(&active), &Event::RequestTrial), conflict(ALREADY_SUBSCRIBED));

    // Cancelled by the reader: ends now.
    let cancelled = apply(ChannelType::Premium, Some(&active), &Event::Cancel).unwrap();
    let want =
        Subscription { state: S::Canceled, cancel_at: Some(now()), cancel_requested_at: Some(now()), subscribed: false, ..active.clone() };
    assert_eq!(cancelled, Transition { next: Some(want), action: "cancel", email: None });
    let cancelled = cancelled.next.unwrap();
    assert!(apply(ChannelType::Premium, Some(&cancelled), &Event::RequestTrial).is_ok(), "the trial policy's cool-off decides");
    assert_eq!(reader_card(ChannelType::Premium, Some(&cancelled), now(), cool_off()).action, CardAction::Buy);

    // Cancelled by staff.
    let cancelled = next_of(apply(ChannelType::Premium, Some(&active), &Event::CancelImmediately));
    assert_eq!(apply(ChannelType::Premium, Some(&cancelled), &Event::RequestTrial), Ok(Transition { next: Some(Subscription::new(T::Trial, S::Pending)), action: "requestTrial", email: None }));

    // Ran to its end.
    let end = at(2026, 12, 9, 23, 59, 59);
    assert_eq!(active.cancel_at, Some(end));
    let later = at(2026, 12, 10, 0, 0, 0);
    let ended_early = transition(facts(ChannelType::Premium), Some(&active), &Event::RequestTrial, later);
    assert!(ended_early.is_ok(), "ended, not yet swept: the trial policy's cool-off decides");
    let expired = next_of(transition(facts(ChannelType::Premium), Some(&active), &Event::Expire, later));
    assert_eq!(transition(facts(ChannelType::Premium), Some(&expired), &Event::RequestTrial, later), Ok(Transition { next: Some(Subscription::new(T::Trial, S::Pending)), action: "requestTrial", email: None }));

    // A trial staff gave is a trial too.
    let granted =
        next_of(apply(ChannelType::Premium, None, &grant_of(T::Trial, None, Terms { trial_duration: Some(10), ..Terms::default() })));
    let cancelled = next_of(apply(ChannelType::Premium, Some(&granted), &Event::Cancel));
    assert_eq!(apply(ChannelType::Premium, Some(&cancelled), &Event::RequestTrial), Ok(Transition { next: Some(Subscription::new(T::Trial, S::Pending)), action: "requestTrial", email: None }));
}

// ---- cancel ----

#[test]
fn cancel_of_a_card_subscription_keeps_access_to_the_next_payment() {
    let card = Subscription { next_payment: Some(at(2026, 12, 7, 0, 0, 0)), ..plain(T::Stripe, S::Active) };
    let cancelled = apply(ChannelType::Premium, Some(&card), &Event::Cancel).unwrap();
    let want = Subscription {
        cancel_at: Some(at(2026, 12, 7, 0, 0, 0)),
        cancel_at_period_end: true,
        cancel_requested_at: Some(now()),
        subscribed: false,
        // Nothing more is charged.
        next_payment: None,
        ..card.clone()
    };
    assert_eq!(cancelled, Transition { next: Some(want), action: "cancelAtPeriodEnd", email: Some(EmailKind::SubscriptionCanceled) });
    let cancelled = cancelled.next.unwrap();

    // Still premium until then, and not cancelled twice.
    assert_eq!(apply(ChannelType::Premium, Some(&cancelled), &Event::Cancel), conflict("Your subscription already ends on 07 Dec 2026."));
    assert_eq!(
        reader_card(ChannelType::Premium, Some(&cancelled), now(), cool_off()),
        ReaderCard {
            action: CardAction::AccessUntil,
            ended: None,
            ends_at: Some(at(2026, 12, 7, 0, 0, 0)),
            payment_failed: false,
            summaries_only: false
        }
    );
    let status_now = status(ChannelType::Premium, &cancelled, now());
    assert_eq!((status_now.effective_state, status_now.can_cancel), (S::Active, false));
    assert_eq!(apply(ChannelType::Premium, Some(&cancelled), &Event::Expire), conflict(NOT_DUE));

    // At the end of the period it ends as canceled.
    let end = at(2026, 12, 7, 0, 0, 0);
    assert_eq!(cancelled.effective_state(end - chrono::Duration::seconds(1)), S::Active);
    assert_eq!(cancelled.effective_state(end), S::Canceled);
    let expired = transition(facts(ChannelType::Premium), Some(&cancelled), &Event::Expire, end).unwrap();
    assert_eq!(expired, Transition { next: Some(Subscription { state: S::Canceled, ..cancelled.clone() }), action: "expire", email: None });
    let card_after = reader_card(ChannelType::Premium, expired.next.as_ref(), end, cool_off());
    assert_eq!((card_after.action, card_after.ended), (CardAction::Buy, Some(EndedAs::Canceled)), "within the trial policy's cool-off");
    let year_later = end + cool_off() + chrono::Duration::seconds(1);
    let card_after = reader_card(ChannelType::Premium, expired.next.as_ref(), year_later, cool_off());
    assert_eq!((card_after.action, card_after.ended), (CardAction::RequestTrial, Some(EndedAs::Canceled)), "after the cool-off");
}

#[test]
fn reader_card_offers_a_trial_again_after_the_cool_off() {
    let expired = sub(Start::Plain(T::Trial, S::Expired));
    let ended = expired.cancel_at.expect("an expired trial has its end");
    let card_at = |at, cool_off| reader_card(ChannelType::Premium, Some(&expired), at, cool_off).action;
    assert_eq!(card_at(ended + chrono::Duration::days(364), cool_off()), CardAction::Buy);
    assert_eq!(card_at(ended + chrono::Duration::days(366), cool_off()), CardAction::RequestTrial);
    // No cool-off: a trial again at once.
    assert_eq!(card_at(ended + chrono::Duration::seconds(1), chrono::Duration::zero()), CardAction::RequestTrial);
}

#[test]
fn cancel_of_a_paid_subscription_without_a_next_payment_ends_on_the_first_of_next_month() {
    for ty in [T::Account, T::External, T::Stripe] {
        let paid = Subscription { next_payment: None, ..plain(ty, S::Active) };
        let cancelled = next_of(apply(ChannelType::Premium, Some(&paid), &Event::Cancel));
        assert_eq!(cancelled.cancel_at, Some(at(2026, 12, 1, 0, 0, 0)), "{ty:?}");
        assert!(cancelled.cancel_at_period_end);
        // A next payment in the past does not count.
        let stale = Subscription { next_payment: Some(at(2026, 11, 1, 0, 0, 0)), ..paid.clone() };
        assert_eq!(next_of(apply(ChannelType::Premium, Some(&stale), &Event::Cancel)).cancel_at, Some(at(2026, 12, 1, 0, 0, 0)));
        // In December the period ends on the 1st of January.
        let december = transition(facts(ChannelType::Premium), Some(&paid), &Event::Cancel, at(2026, 12, 15, 8, 0, 0));
        assert_eq!(next_of(december).cancel_at, Some(at(2027, 1, 1, 0, 0, 0)));
    }
    // An expiry date before the period's end is kept.
    let account = Subscription { cancel_at: Some(at(2026, 11, 28, 23, 59, 59)), ..plain(T::Account, S::Active) };
    let cancelled = next_of(apply(ChannelType::Premium, Some(&account), &Event::Cancel));
    assert_eq!(cancelled.cancel_at, Some(at(2026, 11, 28, 23, 59, 59)));
    assert_eq!(apply(ChannelType::Premium, Some(&cancelled), &Event::Cancel), conflict("Your subscription already ends on 28 Nov 2026."));
    // An expiry date after it is not.
    let account = Subscription { cancel_at: Some(at(2027, 3, 31, 23, 59, 59)), ..plain(T::Account, S::Active) };
    assert_eq!(next_of(apply(ChannelType::Premium, Some(&account), &Event::Cancel)).cancel_at, Some(at(2026, 12, 1, 0, 0, 0)));
}

#[test]
fn period_end_is_the_next_payment_or_the_first_of_next_month() {
    let card = plain(T::Stripe, S::Active);
    assert_eq!(period_end(&Subscription { next_payment: Some(at(2026, 12, 7, 0, 0, 0)), ..card.clone() }, now()), at(2026, 12, 7, 0, 0, 0));
    assert_eq!(period_end(&Subscription { next_payment: None, ..card.clone() }, now()), at(2026, 12, 1, 0, 0, 0));
    assert_eq!(period_end(&Subscription { next_payment: Some(now()), ..card.clone() }, now()), at(2026, 12, 1, 0, 0, 0));
    assert_eq!(period_end(&Subscription { next_payment: Some(at(2026, 11, 1, 0, 0, 0)), ..card.clone() }, now()), at(2026, 12, 1, 0, 0, 0));
    assert_eq!(period_end(&card, at(2026, 12, 31, 23, 59, 59)), at(2027, 1, 1, 0, 0, 0));
    assert_eq!(period_end(&Subscription { next_payment: None, ..card }, at(2026, 1, 31, 12, 0, 0)), at(2026, 2, 1, 0, 0, 0));
}

#[test]
fn cancel_of_a_free_trial_or_non_charge_subscription_ends_it_now() {
    for (channel_type, ty) in [
        (ChannelType::FreeOpen, T::Free),
        (ChannelType::FreeClosed, T::Free),
        (ChannelType::Premium, T::NonCharge),
        (ChannelType::Premium, T::Trial),
    ] {
        let live = plain(ty, S::Active);
        let cancelled = apply(channel_type, Some(&live), &Event::Cancel).unwrap();
        let want = Subscription {
            state: S::Canceled,
            cancel_at: Some(now()),
            cancel_requested_at: Some(now()),
            subscribed: false,
            ..live.clone()
        };
        assert_eq!(cancelled, Transition { next: Some(want), action: "cancel", email: None }, "{ty:?}");
        assert_eq!(apply(channel_type, cancelled.next.as_ref(), &Event::Cancel), conflict(NOT_SUBSCRIBED));
    }
    // A paid subscription whose payment failed has no paid period left.
    let failed = plain(T::Stripe, S::PaymentFailed);
    let cancelled = next_of(apply(ChannelType::Premium, Some(&failed), &Event::Cancel));
    assert_eq!((cancelled.state, cancelled.cancel_at, cancelled.cancel_at_period_end), (S::Canceled, Some(now()), false));
}

// ---- staff ----

#[test]
fn grant_is_refused_on_a_live_card_subscription_and_allowed_over_an_ended_one() {
    let event = grant_of(T::Account, None, terms_for(T::Account));
    for start in [Start::Plain(T::Stripe, S::Active), Start::Plain(T::Stripe, S::PaymentFailed), Start::CancelAtPeriodEnd(T::Stripe)] {
        let card = sub(start);
        assert_eq!(apply(ChannelType::Premium, Some(&card), &event), conflict(CARD_MANAGED), "{start:?}");
        assert_eq!(apply(ChannelType::Premium, Some(&card), &Event::CancelImmediately), conflict(CARD_MANAGED), "{start:?}");
        assert_eq!(apply(ChannelType::Premium, Some(&card), &Event::Delete), conflict(CARD_MANAGED), "{start:?}");
    }
    for start in [Start::Plain(T::Stripe, S::Canceled), Start::CancelAtPeriodEndPast(T::Stripe), Start::FailedPastEnd(T::Stripe)] {
        let card = Subscription { next_payment: Some(at(2026, 11, 1, 0, 0, 0)), ..sub(start) };
        let granted = apply(ChannelType::Premium, Some(&card), &event).unwrap();
        let want = Subscription {
            subscription_type: T::Account,
            state: S::Active,
            cancel_at: None,
            cancel_at_period_end: false,
            cancel_requested_at: None,
            subscribed: true,
            acknowledged_non_charge_sub_expired: false,
            next_payment: Some(at(2026, 11, 1, 0, 0, 0)),
            card: None,
            terms: terms_for(T::Account),
        };
        assert_eq!(granted, Transition { next: Some(want), action: "grant", email: Some(EmailKind::Welcome) }, "{start:?}");
    }
}

#[test]
fn grant_on_a_live_subscription_is_a_change_without_an_email() {
    let cancelling =
        Subscription { terms: Terms { notes: Some("old".into()), ..terms_for(T::Account) }, ..sub(Start::CancelAtPeriodEnd(T::Account)) };
    let terms = Terms { notes: Some("Moved to external billing".into()), billing_method: Some("PO".into()), ..Terms::default() };
    let expiry = at(2027, 6, 30, 23, 59, 59);
    let changed = apply(ChannelType::Premium, Some(&cancelling), &grant_of(T::External, Some(expiry), terms.clone())).unwrap();
    let want = Subscription {
        subscription_type: T::External,
        state: S::Active,
        cancel_at: Some(expiry),
        cancel_at_period_end: false,
        cancel_requested_at: None,
        subscribed: true,
        acknowledged_non_charge_sub_expired: false,
        next_payment: None,
        card: None,
        terms,
    };
    assert_eq!(changed, Transition { next: Some(want), action: "change", email: None });
}

#[test]
fn grant_on_no_subscription_or_an_ended_one_welcomes_the_reader() {
    let terms = Terms { notes: Some("Press pass".into()), added_by_admin: true, ..Terms::default() };
    let expiry = at(2027, 1, 31, 23, 59, 59);
    let event = grant_of(T::NonCharge, Some(expiry), terms.clone());
    let want = Subscription {
        subscription_type: T::NonCharge,
        state: S::Active,
        cancel_at: Some(expiry),
        cancel_at_period_end: false,
        cancel_requested_at: None,
        subscribed: true,
        acknowledged_non_charge_sub_expired: false,
        next_payment: None,
        card: None,
        terms,
    };
    assert_eq!(
        apply(ChannelType::Premium, None, &event),
        Ok(Transition { next: Some(want.clone()), action: "grant", email: Some(EmailKind::Welcome) })
    );
    // An expired non-charge subscription the reader dismissed starts again, not dismissed.
    let dismissed = Subscription { acknowledged_non_charge_sub_expired: true, ..plain(T::NonCharge, S::Expired) };
    assert_eq!(
        apply(ChannelType::Premium, Some(&dismissed), &event),
        Ok(Transition { next: Some(want), action: "grant", email: Some(EmailKind::Welcome) })
    );
}

#[test]
fn grant_of_a_trial_ends_it_after_its_duration() {
    let with_duration = grant_of(T::Trial, Some(at(2027, 1, 31, 23, 59, 59)), Terms { trial_duration: Some(10), ..Terms::default() });
    let trial = next_of(apply(ChannelType::Premium, None, &with_duration));
    assert_eq!((trial.subscription_type, trial.state, trial.cancel_at), (T::Trial, S::Active, Some(at(2026, 12, 5, 23, 59, 59))));
    assert_eq!(trial.terms.trial_duration, Some(10));
    // 'Restart trial' on an expired one: a new trial from today, and a welcome.
    let restarted = apply(ChannelType::Premium, Some(&plain(T::Trial, S::Expired)), &with_duration).unwrap();
    assert_eq!((restarted.action, restarted.email), ("grant", Some(EmailKind::Welcome)));
    assert_eq!(restarted.next.unwrap().cancel_at, Some(at(2026, 12, 5, 23, 59, 59)));
    // 'Adjust trial duration' on a live one: a change, no email, and the trial keeps its start
    // (the live fixture is a 14-day trial ending on 5 Dec): 10 days end 4 days sooner.
    let running = plain(T::Trial, S::Active);
    let adjusted = apply(ChannelType::Premium, Some(&running), &with_duration).unwrap();
    assert_eq!((adjusted.action, adjusted.email), ("change", None));
    let adjusted = adjusted.next.unwrap();
    assert_eq!((adjusted.cancel_at, adjusted.terms.trial_duration), (Some(at(2026, 12, 1, 23, 59, 59)), Some(10)));
    let longer = grant_of(T::Trial, None, Terms { trial_duration: Some(30), ..Terms::default() });
    assert_eq!(next_of(apply(ChannelType::Premium, Some(&running), &longer)).cancel_at, Some(at(2026, 12, 21, 23, 59, 59)));
    let same = grant_of(T::Trial, None, Terms { trial_duration: Some(14), notes: Some("edited".into()), ..Terms::default() });
    assert_eq!(next_of(apply(ChannelType::Premium, Some(&running), &same)).cancel_at, Some(live_trial_end()));
    // A running trial without a recorded length keeps its end.
    let unmeasured = Subscription { terms: Terms { trial_duration: None, ..running.terms.clone() }, ..running.clone() };
    assert_eq!(next_of(apply(ChannelType::Premium, Some(&unmeasured), &with_duration)).cancel_at, Some(live_trial_end()));
    // A trial given over another live subscription starts today.
    let over_non_charge = apply(ChannelType::Premium, Some(&plain(T::NonCharge, S::Active)), &with_duration).unwrap();
    assert_eq!((over_non_charge.action, over_non_charge.next.unwrap().cancel_at), ("change", Some(at(2026, 12, 5, 23, 59, 59))));
    // Without a duration, the expiry date given.
    let dated = grant_of(T::Trial, Some(at(2026, 12, 20, 23, 59, 59)), Terms::default());
    assert_eq!(next_of(apply(ChannelType::Premium, None, &dated)).cancel_at, Some(at(2026, 12, 20, 23, 59, 59)));
}

/// A trial reader whose account trial ends on `at`.
fn trial_reader(at: DateTime<Utc>) -> ReaderFacts {
    ReaderFacts { account_trial_ends: Some(at) }
}

#[test]
fn a_trial_readers_channel_trial_ends_no_later_than_their_account_trial() {
    let pending = plain(T::Trial, S::Pending);
    let approve = Event::Approve { trial_days: 14 };
    let account_end = at(2026, 11, 28, 15, 30, 0);
    // Approved for 14 days, it ends with the account trial, 3 days (by the calendar) from today.
    let approved = transition_for(facts(ChannelType::Premium), trial_reader(account_end), Some(&pending), &approve, now()).unwrap();
    let approved = approved.next.unwrap();
    assert_eq!((approved.state, approved.cancel_at, approved.terms.trial_duration), (S::Active, Some(account_end), Some(3)));
    // An account trial that outlasts the channel's trial changes nothing; nor does a reader without one.
    for reader in [trial_reader(at(2027, 1, 1, 0, 0, 0)), ReaderFacts::default()] {
        let approved = transition_for(facts(ChannelType::Premium), reader, Some(&pending), &approve, now()).unwrap().next.unwrap();
        assert_eq!((approved.cancel_at, approved.terms.trial_duration), (Some(at(2026, 12, 9, 23, 59, 59)), Some(14)));
    }
    // Ending later today: the trial lasts a day, ending with the account trial.
    let today = at(2026, 11, 25, 18, 0, 0);
    let approved = transition_for(facts(ChannelType::Premium), trial_reader(today), Some(&pending), &approve, now()).unwrap().next.unwrap();
    assert_eq!((approved.cancel_at, approved.terms.trial_duration), (Some(today), Some(1)));
    // Once the account trial is over, no channel trial starts: approved or given.
    let over = trial_reader(at(2026, 11, 25, 9, 0, 0));
    assert_eq!(transition_for(facts(ChannelType::Premium), over, Some(&pending), &approve, now()), conflict(ACCOUNT_TRIAL_OVER));
    let given = grant_of(T::Trial, None, Terms { trial_duration: Some(10), ..Terms::default() });
    assert_eq!(transition_for(facts(ChannelType::Premium), over, None, &given, now()), conflict(ACCOUNT_TRIAL_OVER));
    // Given by staff (or a list), and lengthened later: never past the account trial.
    let granted = transition_for(facts(ChannelType::Premium), trial_reader(account_end), None, &given, now()).unwrap().next.unwrap();
    assert_eq!((granted.cancel_at, granted.terms.trial_duration), (Some(account_end), Some(3)));
    let longer = grant_of(T::Trial, None, Terms { trial_duration: Some(30), ..Terms::default() });
    let longer = transition_for(facts(ChannelType::Premium), trial_reader(account_end), Some(&granted), &longer, now()).unwrap();
    assert_eq!(longer.action, "change");
    let longer = longer.next.unwrap();
    assert_eq!((longer.cancel_at, longer.terms.trial_duration), (Some(account_end), Some(3)));
    // Other subscriptions are not the account trial's to bound.
    let non_charge = grant_of(T::NonCharge, Some(at(2027, 1, 31, 23, 59, 59)), Terms::default());
    let given = transition_for(facts(ChannelType::Premium), trial_reader(account_end), None, &non_charge, now()).unwrap().next.unwrap();
    assert_eq!(given.cancel_at, Some(at(2027, 1, 31, 23, 59, 59)));
}

#[test]
fn a_welcome_says_how_the_subscription_came() {
    let welcome_of = |current: Option<&Subscription>, event: &Event, from_list: bool| {
        let transition = apply(ChannelType::Premium, current, event).unwrap();
        assert_eq!(transition.email, Some(EmailKind::Welcome), "{event:?}");
        welcome(&transition, from_list)
    };
    let by_account = Event::PayByAccount { account_number: "ACC-1".into(), price_per_month: None };
    assert_eq!(welcome_of(None, &by_account, false), Welcome::Paid);
    let invoice = plain(T::External, S::Pending);
    assert_eq!(welcome_of(Some(&invoice), &Event::Approve { trial_days: 14 }, false), Welcome::Paid);
    let card = CardState {
        status: CardStatus::Active,
        period_end: Some(next_charge()),
        cancel_at_period_end: false,
        ended_at: None,
        card: Card { subscription_id: "sub_1".into(), ..Card::default() },
        price_per_month: None,
    };
    assert_eq!(welcome_of(None, &Event::CardSync(card), false), Welcome::Paid);
    let non_charge = grant_of(T::NonCharge, None, Terms::default());
    assert_eq!(welcome_of(None, &non_charge, false), Welcome::Granted);
    assert_eq!(welcome_of(None, &non_charge, true), Welcome::Bulk);
    let trial = grant_of(T::Trial, None, Terms { trial_duration: Some(10), ..Terms::default() });
    assert_eq!(welcome_of(None, &trial, false), Welcome::Trial);
    assert_eq!(welcome_of(None, &trial, true), Welcome::Trial);
}

#[test]
fn offers_follow_the_channel_type() {
    let table = [
        (ChannelType::Premium, [false, true, true, true, true, false]),
        (ChannelType::FreeOpen, [false, false, false, false, false, true]),
        (ChannelType::FreeClosed, [false, false, false, false, false, true]),
    ];
    for (channel_type, offered) in table {
        for (ty, want) in ALL_TYPES.into_iter().zip(offered) {
            assert_eq!(offers(channel_type, ty), want, "{channel_type:?} {ty:?}");
        }
    }
}

#[test]
fn cancel_immediately_ends_a_subscription_now() {
    let account = Subscription { cancel_at: Some(at(2027, 3, 31, 23, 59, 59)), ..plain(T::Account, S::Active) };
    let cancelled = apply(ChannelType::Premium, Some(&account), &Event::CancelImmediately).unwrap();
    let want =
        Subscription { state: S::Canceled, cancel_at: Some(now()), cancel_requested_at: Some(now()), subscribed: false, ..account.clone() };
    assert_eq!(cancelled, Transition { next: Some(want), action: "cancelImmediately", email: Some(EmailKind::SubscriptionCanceled) });
    assert_eq!(apply(ChannelType::Premium, cancelled.next.as_ref(), &Event::CancelImmediately), conflict(ALREADY_ENDED));
    // Deleting what has ended is allowed, even a card subscription.
    assert_eq!(
        apply(ChannelType::Premium, Some(&plain(T::Stripe, S::Canceled)), &Event::Delete),
        Ok(Transition { next: None, action: "delete", email: None })
    );
}

// ---- expiry ----

#[test]
fn expire_only_when_the_end_has_come() {
    let end = at(2026, 12, 31, 23, 59, 59);
    let non_charge = Subscription { cancel_at: Some(end), ..plain(T::NonCharge, S::Active) };
    let before_end = end - chrono::Duration::seconds(1);
    assert_eq!(transition(facts(ChannelType::Premium), Some(&non_charge), &Event::Expire, before_end), conflict(NOT_DUE));
    let expired = transition(facts(ChannelType::Premium), Some(&non_charge), &Event::Expire, end).unwrap();
    let want = Subscription { state: S::Expired, subscribed: false, ..non_charge.clone() };
    assert_eq!(expired, Transition { next: Some(want), action: "expire", email: None });
    // Once: the sweep running again (or a second worker) changes nothing.
    assert_eq!(transition(facts(ChannelType::Premium), expired.next.as_ref(), &Event::Expire, end), conflict(NOT_DUE));
    // No end: never due.
    let open_ended = plain(T::Account, S::Active);
    assert_eq!(transition(facts(ChannelType::Premium), Some(&open_ended), &Event::Expire, at(2099, 1, 1, 0, 0, 0)), conflict(NOT_DUE));
}

#[test]
fn expire_of_a_trial_asks_for_the_trial_ended_email() {
    let trial = plain(T::Trial, S::Active);
    let end = live_trial_end();
    assert_eq!(transition(facts(ChannelType::Premium), Some(&trial), &Event::Expire, now()), conflict(NOT_DUE));
    let expired = transition(facts(ChannelType::Premium), Some(&trial), &Event::Expire, end).unwrap();
    let want = Subscription { state: S::Expired, subscribed: false, ..trial.clone() };
    assert_eq!(expired, Transition { next: Some(want), action: "expire", email: Some(EmailKind::TrialEnded) });
}

#[test]
fn expire_of_a_cancelled_or_failed_subscription_is_canceled() {
    let failed = Subscription { cancel_at: Some(at(2026, 11, 24, 0, 0, 0)), ..plain(T::Stripe, S::PaymentFailed) };
    let ended = apply(ChannelType::Premium, Some(&failed), &Event::Expire).unwrap();
    let want = Subscription { state: S::Canceled, subscribed: false, ..failed.clone() };
    assert_eq!(ended, Transition { next: Some(want), action: "expire", email: None });
    let cancelling = sub(Start::CancelAtPeriodEndPast(T::Account));
    let ended = apply(ChannelType::Premium, Some(&cancelling), &Event::Expire).unwrap();
    assert_eq!(ended.next, Some(Subscription { state: S::Canceled, ..cancelling.clone() }));
}

// ---- the acknowledged notice ----

#[test]
fn an_expired_non_charge_subscription_is_acknowledged_once() {
    let expired = plain(T::NonCharge, S::Expired);
    let acknowledged = apply(ChannelType::Premium, Some(&expired), &Event::AcknowledgeExpired).unwrap();
    let want = Subscription { acknowledged_non_charge_sub_expired: true, ..expired.clone() };
    assert_eq!(acknowledged, Transition { next: Some(want.clone()), action: "acknowledgeExpired", email: None });
    assert_eq!(apply(ChannelType::Premium, Some(&want), &Event::AcknowledgeExpired), conflict(NOTHING_TO_ACKNOWLEDGE));
    // Acknowledged before the sweep: the sweep keeps it acknowledged.
    let unswept = sub(Start::PastEnd(T::NonCharge));
    let acknowledged = next_of(apply(ChannelType::Premium, Some(&unswept), &Event::AcknowledgeExpired));
    let swept = next_of(apply(ChannelType::Premium, Some(&acknowledged), &Event::Expire));
    assert_eq!((swept.state, swept.acknowledged_non_charge_sub_expired), (S::Expired, true));
    assert!(!status(ChannelType::Premium, &swept, now()).expired_alert);
}

// ---- the subscription state helper ----

/// Checks `field` of `status` at every starting point against `want` (none: not checked).
fn check_status<V: PartialEq + std::fmt::Debug>(
    channel_type: ChannelType,
    field: impl Fn(&Status) -> V,
    want: impl Fn(Start) -> V,
    name: &str,
) {
    let mut failures = Vec::new();
    for start in all_starts().into_iter().filter(|s| *s != Start::NoSubscription) {
        let got = field(&status(channel_type, &sub(start), now()));
        let want = want(start);
        if got != want {
            failures.push(format!("{channel_type:?} {start:?}: {name} want {want:?}, got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn status_effective_state() {
    check_status(
        ChannelType::Premium,
        |s| s.effective_state,
        |start| match start {
            Start::Plain(_, state) => state,
            Start::PastEnd(_) => S::Expired,
            Start::CancelAtPeriodEnd(_) => S::Active,
            Start::CancelAtPeriodEndPast(_) | Start::FailedPastEnd(_) | Start::WithdrawnTrial => S::Canceled,
            Start::NoSubscription => unreachable!(),
        },
        "effective_state",
    );
}

#[test]
fn status_payable_only_for_active_card_invoice_and_unrebated_account() {
    let payable = [
        Start::Plain(T::Stripe, S::Active),
        Start::Plain(T::Account, S::Active),
        Start::Plain(T::External, S::Active),
        Start::CancelAtPeriodEnd(T::Stripe),
        Start::CancelAtPeriodEnd(T::Account),
        Start::CancelAtPeriodEnd(T::External),
    ];
    for channel_type in CHANNELS {
        check_status(channel_type, |s| s.payable, |start| payable.contains(&start), "payable");
    }
    let rebated = Subscription { terms: Terms { rebate: true, ..terms_for(T::Account) }, ..plain(T::Account, S::Active) };
    assert!(!status(ChannelType::Premium, &rebated, now()).payable);
}

#[test]
fn status_payment_failed_alert_unless_cancelled_at_period_end() {
    check_status(
        ChannelType::Premium,
        |s| s.payment_failed_alert,
        |start| matches!(start, Start::Plain(_, S::PaymentFailed)),
        "payment_failed_alert",
    );
    let cancelling = Subscription { cancel_at_period_end: true, cancel_at: Some(next_charge()), ..plain(T::Stripe, S::PaymentFailed) };
    let status = status(ChannelType::Premium, &cancelling, now());
    assert_eq!((status.effective_state, status.payment_failed_alert, status.can_cancel), (S::PaymentFailed, false, false));
}

#[test]
fn status_can_update_card_only_of_a_running_card_subscription() {
    let card = Card { subscription_id: "sub_1".into(), payment_method_type: Some("card".into()), payment_method_details: None };
    for state in [S::Active, S::PaymentFailed, S::Pending, S::Expired, S::Canceled, S::Rejected] {
        let on_card = Subscription { card: Some(card.clone()), ..plain(T::Stripe, state) };
        let running = matches!(state, S::Active | S::PaymentFailed);
        assert_eq!(status(ChannelType::Premium, &on_card, now()).can_update_card, running, "{state:?}");
    }
    // No Stripe subscription behind it, or paid another way: no card to replace.
    assert!(!status(ChannelType::Premium, &plain(T::Stripe, S::Active), now()).can_update_card);
    let by_account = Subscription { card: Some(card), ..plain(T::Account, S::Active) };
    assert!(!status(ChannelType::Premium, &by_account, now()).can_update_card);
}

#[test]
fn status_expired_alert_and_acknowledge() {
    check_status(
        ChannelType::Premium,
        |s| (s.expired_alert, s.can_acknowledge_expired),
        |start| match start {
            Start::Plain(T::NonCharge, S::Expired) | Start::PastEnd(T::NonCharge) => (true, true),
            Start::Plain(_, S::Expired) | Start::PastEnd(_) => (true, false),
            _ => (false, false),
        },
        "(expired_alert, can_acknowledge_expired)",
    );
    let acknowledged = Subscription { acknowledged_non_charge_sub_expired: true, ..plain(T::NonCharge, S::Expired) };
    let status = status(ChannelType::Premium, &acknowledged, now());
    assert_eq!((status.expired_alert, status.can_acknowledge_expired), (false, false));
}

#[test]
fn status_can_cancel() {
    check_status(
        ChannelType::Premium,
        |s| s.can_cancel,
        |start| matches!(start, Start::Plain(_, S::Active | S::PaymentFailed | S::Pending)),
        "can_cancel",
    );
}

#[test]
fn status_cancel_keeps_access_to_period_end_only_for_active_paid_subscriptions() {
    let keeps = plain_starts(&PAID, &[S::Active]);
    for channel_type in CHANNELS {
        check_status(
            channel_type,
            |s| s.cancel_keeps_access_to_period_end,
            |start| keeps.contains(&start),
            "cancel_keeps_access_to_period_end",
        );
    }
    // It says what a cancel does.
    for start in all_starts().into_iter().filter(|s| *s != Start::NoSubscription) {
        let before = sub(start);
        let keeps = status(ChannelType::Premium, &before, now()).cancel_keeps_access_to_period_end;
        let cancel = apply(ChannelType::Premium, Some(&before), &Event::Cancel);
        assert_eq!(keeps, cancel.is_ok_and(|t| t.action == "cancelAtPeriodEnd"), "{start:?}");
    }
    let payable_card = status(ChannelType::Premium, &plain(T::Stripe, S::Active), now());
    assert_eq!((payable_card.can_cancel, payable_card.cancel_keeps_access_to_period_end), (true, true));
}

#[test]
fn status_trial() {
    for channel_type in CHANNELS {
        check_status(
            channel_type,
            |s| s.trial,
            |start| match start {
                Start::Plain(T::Trial, S::Pending) => Some(TrialStatus::Pending),
                Start::Plain(T::Trial, S::Active | S::PaymentFailed) => Some(TrialStatus::Active),
                // Ran to its end, or was cancelled after it started.
                Start::Plain(T::Trial, S::Expired | S::Canceled) | Start::PastEnd(T::Trial) => Some(TrialStatus::Expired),
                // Rejected or withdrawn: it never ran.
                _ => None,
            },
            "trial",
        );
    }
}

#[test]
fn status_free_closed() {
    check_status(
        ChannelType::FreeClosed,
        |s| s.free_closed,
        |start| match start {
            Start::Plain(T::Free, S::Pending) => Some(FreeClosedStatus::Pending),
            Start::Plain(T::Free, S::Active | S::PaymentFailed) => Some(FreeClosedStatus::Active),
            Start::Plain(T::Free, S::Rejected) => Some(FreeClosedStatus::Rejected),
            Start::Plain(T::Free, S::Canceled | S::Expired) | Start::PastEnd(T::Free) => Some(FreeClosedStatus::Canceled),
            _ => None,
        },
        "free_closed",
    );
    for channel_type in [ChannelType::Premium, ChannelType::FreeOpen] {
        check_status(channel_type, |s| s.free_closed, |_| None, "free_closed");
    }
}

#[test]
fn status_type_labels_and_payment_categories() {
    let table = [
        (T::Account, false, "Paid - Clearing", Some(PaymentCategory::Paid)),
        (T::Account, true, "Rebated - Clearing", Some(PaymentCategory::Free)),
        (T::Stripe, false, "Paid - Non-clearing", Some(PaymentCategory::Paid)),
        (T::External, false, "Billed externally", Some(PaymentCategory::Paid)),
        (T::NonCharge, false, "Non-charge", Some(PaymentCategory::Free)),
        (T::Trial, false, "Trial", Some(PaymentCategory::FreeTrial)),
        (T::Free, false, "Free", None),
    ];
    for (ty, rebate, label, category) in table {
        assert_eq!(type_label(ty, rebate), label, "{ty:?} {rebate}");
        assert_eq!(payment_category(ty, rebate), category, "{ty:?} {rebate}");
        let subscription = Subscription { terms: Terms { rebate, ..terms_for(ty) }, ..plain(ty, S::Active) };
        let status = status(ChannelType::Premium, &subscription, now());
        assert_eq!((status.type_label, status.payment_category), (label, category), "{ty:?} {rebate}");
    }
}

#[test]
fn status_of_whole_subscriptions() {
    let failed_card = status(ChannelType::Premium, &plain(T::Stripe, S::PaymentFailed), now());
    assert_eq!(
        failed_card,
        Status {
            effective_state: S::PaymentFailed,
            payable: false,
            payment_failed_alert: true,
            expired_alert: false,
            can_acknowledge_expired: false,
            can_cancel: true,
            cancel_keeps_access_to_period_end: false,
            can_update_card: false,
            trial: None,
            free_closed: None,
            type_label: "Paid - Non-clearing",
            payment_category: Some(PaymentCategory::Paid),
        }
    );
    let unswept_non_charge = status(ChannelType::Premium, &sub(Start::PastEnd(T::NonCharge)), now());
    assert_eq!(
        unswept_non_charge,
        Status {
            effective_state: S::Expired,
            payable: false,
            payment_failed_alert: false,
            expired_alert: true,
            can_acknowledge_expired: true,
            can_cancel: false,
            cancel_keeps_access_to_period_end: false,
            can_update_card: false,
            trial: None,
            free_closed: None,
            type_label: "Non-charge",
            payment_category: Some(PaymentCategory::Free),
        }
    );
    let pending_access = status(ChannelType::FreeClosed, &plain(T::Free, S::Pending), now());
    assert_eq!(
        pending_access,
        Status {
            effective_state: S::Pending,
            payable: false,
            payment_failed_alert: false,
            expired_alert: false,
            can_acknowledge_expired: false,
            can_cancel: true,
            cancel_keeps_access_to_period_end: false,
            can_update_card: false,
            trial: None,
            free_closed: Some(FreeClosedStatus::Pending),
            type_label: "Free",
            payment_category: None,
        }
    );
}

// ---- the reader's channel card ----

fn card(action: CardAction, ended: Option<EndedAs>, ends_at: Option<DateTime<Utc>>) -> ReaderCard {
    ReaderCard { action, ended, ends_at, payment_failed: false, summaries_only: false }
}

#[test]
fn reader_card_without_a_subscription_offers_what_the_channel_offers() {
    assert_eq!(reader_card(ChannelType::Premium, None, now(), cool_off()), card(CardAction::RequestTrial, None, None));
    assert_eq!(reader_card(ChannelType::FreeOpen, None, now(), cool_off()), card(CardAction::SubscribeFree, None, None));
    assert_eq!(reader_card(ChannelType::FreeClosed, None, now(), cool_off()), card(CardAction::RequestAccess, None, None));
}

#[test]
fn reader_card_for_a_pending_request() {
    assert_eq!(reader_card(ChannelType::Premium, Some(&plain(T::Trial, S::Pending)), now(), cool_off()), card(CardAction::TrialPending, None, None));
    assert_eq!(reader_card(ChannelType::FreeClosed, Some(&plain(T::Free, S::Pending)), now(), cool_off()), card(CardAction::AccessPending, None, None));
    for ty in [T::Stripe, T::Account, T::External, T::NonCharge] {
        assert_eq!(reader_card(ChannelType::Premium, Some(&plain(ty, S::Pending)), now(), cool_off()), card(CardAction::Pending, None, None), "{ty:?}");
    }
}

#[test]
fn reader_card_for_a_live_subscription() {
    let trial = plain(T::Trial, S::Active);
    assert_eq!(reader_card(ChannelType::Premium, Some(&trial), now(), cool_off()), card(CardAction::TrialActive, None, Some(live_trial_end())));
    let cancelling = sub(Start::CancelAtPeriodEnd(T::Stripe));
    assert_eq!(
        reader_card(ChannelType::Premium, Some(&cancelling), now(), cool_off()),
        card(CardAction::AccessUntil, None, Some(at(2026, 12, 1, 0, 0, 0)))
    );
    assert_eq!(reader_card(ChannelType::Premium, Some(&plain(T::Stripe, S::Active)), now(), cool_off()), card(CardAction::Subscribed, None, None));
    assert_eq!(
        reader_card(ChannelType::Premium, Some(&plain(T::Stripe, S::PaymentFailed)), now(), cool_off()),
        ReaderCard { action: CardAction::Subscribed, ended: None, ends_at: None, payment_failed: true, summaries_only: false }
    );
    let summaries = Subscription {
        cancel_at: Some(at(2027, 1, 31, 23, 59, 59)),
        card: None,
        terms: Terms { is_full_article_content: false, ..terms_for(T::NonCharge) },
        ..plain(T::NonCharge, S::Active)
    };
    assert_eq!(
        reader_card(ChannelType::Premium, Some(&summaries), now(), cool_off()),
        ReaderCard {
            action: CardAction::Subscribed,
            ended: None,
            ends_at: Some(at(2027, 1, 31, 23, 59, 59)),
            payment_failed: false,
            summaries_only: true
        }
    );
    assert_eq!(reader_card(ChannelType::FreeOpen, Some(&plain(T::Free, S::Active)), now(), cool_off()), card(CardAction::Subscribed, None, None));
    assert_eq!(reader_card(ChannelType::FreeClosed, Some(&plain(T::Free, S::Active)), now(), cool_off()), card(CardAction::Subscribed, None, None));
}

#[test]
fn reader_card_after_a_subscription_ended() {
    let cases = [
        // Premium: within the trial policy's cool-off after a trial or subscription that gave
        // access, or after a declined trial, 'Buy'; a withdrawn request offers the trial again.
        (ChannelType::Premium, Start::Plain(T::Trial, S::Expired), card(CardAction::Buy, Some(EndedAs::Expired), None)),
        (ChannelType::Premium, Start::PastEnd(T::Trial), card(CardAction::Buy, Some(EndedAs::Expired), None)),
        (ChannelType::Premium, Start::Plain(T::Trial, S::Canceled), card(CardAction::Buy, Some(EndedAs::Canceled), None)),
        (ChannelType::Premium, Start::Plain(T::Trial, S::Rejected), card(CardAction::Buy, Some(EndedAs::Rejected), None)),
        (ChannelType::Premium, Start::WithdrawnTrial, card(CardAction::RequestTrial, Some(EndedAs::Canceled), None)),
        (ChannelType::Premium, Start::Plain(T::NonCharge, S::Expired), card(CardAction::Buy, Some(EndedAs::Expired), None)),
        (ChannelType::Premium, Start::Plain(T::NonCharge, S::Canceled), card(CardAction::Buy, Some(EndedAs::Canceled), None)),
        (ChannelType::Premium, Start::CancelAtPeriodEndPast(T::Stripe), card(CardAction::Buy, Some(EndedAs::Canceled), None)),
        (ChannelType::Premium, Start::FailedPastEnd(T::Stripe), card(CardAction::Buy, Some(EndedAs::Canceled), None)),
        // Free channels offer themselves again.
        (ChannelType::FreeOpen, Start::Plain(T::Free, S::Canceled), card(CardAction::SubscribeFree, Some(EndedAs::Canceled), None)),
        (ChannelType::FreeOpen, Start::PastEnd(T::Free), card(CardAction::SubscribeFree, Some(EndedAs::Expired), None)),
        (ChannelType::FreeClosed, Start::Plain(T::Free, S::Rejected), card(CardAction::RequestAccess, Some(EndedAs::Rejected), None)),
        (ChannelType::FreeClosed, Start::Plain(T::Free, S::Canceled), card(CardAction::RequestAccess, Some(EndedAs::Canceled), None)),
        (ChannelType::FreeClosed, Start::Plain(T::Free, S::Expired), card(CardAction::RequestAccess, Some(EndedAs::Expired), None)),
    ];
    for (channel_type, start, want) in cases {
        assert_eq!(reader_card(channel_type, Some(&sub(start)), now(), cool_off()), want, "{channel_type:?} {start:?}");
    }
}

#[test]
fn reader_card_offers_exactly_what_the_machine_allows() {
    // Whenever the card offers a request, the request is allowed; 'Buy' only when no trial is.
    for channel_type in CHANNELS {
        for start in all_starts() {
            let before = fixture(start);
            let card = reader_card(channel_type, before.as_ref(), now(), cool_off());
            let event = match card.action {
                CardAction::RequestTrial | CardAction::Buy => Event::RequestTrial,
                CardAction::SubscribeFree => Event::SubscribeFreeOpen,
                CardAction::RequestAccess => Event::RequestFreeClosed,
                _ => continue,
            };
            let allowed = apply(channel_type, before.as_ref(), &event).is_ok();
            // Within the cool-off after the reader's own trial or subscription the card offers
            // Buy, though the machine would take a request: the trial policy refuses it
            // (tests/api/trials.rs).
            let cooling_off = before.as_ref().is_some_and(|s| cooling_off(s, now(), cool_off()));
            if card.action == CardAction::Buy && cooling_off {
                continue;
            }
            assert_eq!(allowed, card.action != CardAction::Buy, "{channel_type:?} {start:?} {card:?}");
        }
    }
}

// ---- the trial-ending reminder ----

#[test]
fn trial_reminder_is_due_within_three_days_of_an_active_trial_end() {
    let trial_ending = |end| Subscription { cancel_at: Some(end), ..plain(T::Trial, S::Active) };
    let cases = [
        (trial_ending(at(2026, 11, 25, 23, 59, 59)), true),
        (trial_ending(at(2026, 11, 27, 23, 59, 59)), true),
        (trial_ending(at(2026, 11, 28, 10, 0, 0)), true),
        (trial_ending(at(2026, 11, 28, 10, 0, 1)), false),
        (trial_ending(at(2026, 12, 9, 23, 59, 59)), false),
        // Ended (not yet swept), expired, cancelled, pending, failed, without an end, not a trial.
        (trial_ending(at(2026, 11, 25, 10, 0, 0)), false),
        (Subscription { cancel_at: Some(at(2026, 11, 26, 23, 59, 59)), ..plain(T::Trial, S::Expired) }, false),
        (Subscription { cancel_at: Some(at(2026, 11, 26, 23, 59, 59)), ..plain(T::Trial, S::Canceled) }, false),
        (Subscription { cancel_at: Some(at(2026, 11, 26, 23, 59, 59)), ..plain(T::Trial, S::Pending) }, false),
        (Subscription { cancel_at: Some(at(2026, 11, 26, 23, 59, 59)), ..plain(T::Trial, S::PaymentFailed) }, false),
        (Subscription { cancel_at: None, ..plain(T::Trial, S::Active) }, false),
        (Subscription { cancel_at: Some(at(2026, 11, 26, 23, 59, 59)), ..plain(T::NonCharge, S::Active) }, false),
    ];
    for (i, (subscription, want)) in cases.iter().enumerate() {
        assert_eq!(trial_reminder_due(subscription, now()), *want, "case {i}: {subscription:?}");
    }
}

// ---- whole paths ----

#[test]
fn a_trial_from_request_to_end() {
    let premium = facts(ChannelType::Premium);
    let requested_at = now();
    let pending = next_of(transition(premium, None, &Event::RequestTrial, requested_at));
    assert_eq!(reader_card(ChannelType::Premium, Some(&pending), requested_at, cool_off()).action, CardAction::TrialPending);
    assert_eq!(status(ChannelType::Premium, &pending, requested_at).trial, Some(TrialStatus::Pending));

    let approved_at = at(2026, 11, 26, 9, 30, 0);
    let approval = transition(premium, Some(&pending), &Event::Approve { trial_days: 7 }, approved_at).unwrap();
    assert_eq!(approval.email, Some(EmailKind::TrialApproved));
    let active = approval.next.unwrap();
    let end = at(2026, 12, 3, 23, 59, 59);
    assert_eq!(active.cancel_at, Some(end));
    assert_eq!(reader_card(ChannelType::Premium, Some(&active), approved_at, cool_off()), card(CardAction::TrialActive, None, Some(end)));
    assert!(!trial_reminder_due(&active, approved_at));
    assert!(trial_reminder_due(&active, at(2026, 11, 30, 23, 59, 59)));
    assert!(trial_reminder_due(&active, at(2026, 12, 3, 23, 59, 58)));
    assert_eq!(transition(premium, Some(&active), &Event::Expire, at(2026, 12, 3, 23, 59, 58)), conflict(NOT_DUE));

    let expiry = transition(premium, Some(&active), &Event::Expire, end).unwrap();
    assert_eq!((expiry.action, expiry.email), ("expire", Some(EmailKind::TrialEnded)));
    let expired = expiry.next.unwrap();
    assert!(!trial_reminder_due(&expired, end));
    assert_eq!(status(ChannelType::Premium, &expired, end).trial, Some(TrialStatus::Expired));
    assert_eq!(reader_card(ChannelType::Premium, Some(&expired), end, cool_off()), card(CardAction::Buy, Some(EndedAs::Expired), None));
    assert_eq!(transition(premium, Some(&expired), &Event::RequestTrial, end), Ok(Transition { next: Some(Subscription::new(T::Trial, S::Pending)), action: "requestTrial", email: None }));
}

#[test]
fn email_kinds_have_stable_names() {
    let table = [
        (EmailKind::Welcome, "welcome"),
        (EmailKind::TrialApproved, "trialApproved"),
        (EmailKind::TrialRejected, "trialRejected"),
        (EmailKind::AccessApproved, "accessApproved"),
        (EmailKind::AccessRejected, "accessRejected"),
        (EmailKind::TrialEnding, "trialEnding"),
        (EmailKind::TrialEnded, "trialEnded"),
        (EmailKind::SubscriptionCanceled, "subscriptionCanceled"),
        (EmailKind::ChannelInterest, "channelInterest"),
    ];
    for (kind, name) in table {
        assert_eq!(kind.as_str(), name);
    }
}

// ---- paying: clearing account, invoice, card (issue 13) ----

fn pay_by_account() -> Event {
    Event::PayByAccount { account_number: "ACC-7".into(), price_per_month: Some("49.50".into()) }
}

fn request_invoice() -> Event {
    Event::RequestInvoice {
        legal_entity_name: "Acme Metals Ltd".into(),
        billing_email_address: "ap@acme.example".into(),
        price_per_month: Some("49.50".into()),
    }
}

#[test]
fn a_reader_buys_unless_a_paid_subscription_is_live_or_an_invoice_request_waits() {
    let mut paid_live = plain_starts(&PAID, &LIVE);
    paid_live.extend(PAID.map(Start::CancelAtPeriodEnd));
    let invoice_pending = vec![Start::Plain(T::External, S::Pending)];
    let buyable: Vec<Start> = all_starts().into_iter().filter(|s| !paid_live.contains(s) && !invoice_pending.contains(s)).collect();
    let by_account = [
        (paid_live.clone(), refused(ALREADY_SUBSCRIBED)),
        (invoice_pending.clone(), refused(INVOICE_PENDING)),
        (buyable.clone(), ok_as(T::Account, S::Active, "payByAccount", Some(EmailKind::Welcome))),
    ];
    check_table(ChannelType::Premium, &pay_by_account(), &by_account);
    let by_invoice = [
        (paid_live, refused(ALREADY_SUBSCRIBED)),
        (invoice_pending, refused(INVOICE_PENDING)),
        (buyable, ok_as(T::External, S::Pending, "requestInvoice", Some(EmailKind::InvoiceRequested))),
    ];
    check_table(ChannelType::Premium, &request_invoice(), &by_invoice);
    for channel_type in [ChannelType::FreeOpen, ChannelType::FreeClosed] {
        check_table(channel_type, &pay_by_account(), &[(all_starts(), Want::NotOffered(PREMIUM_ONLY))]);
        check_table(channel_type, &request_invoice(), &[(all_starts(), Want::NotOffered(PREMIUM_ONLY))]);
    }
}

#[test]
fn an_account_subscription_is_paid_at_once_and_an_invoice_request_keeps_who_to_bill() {
    let trial = plain(T::Trial, S::Active);
    let account = next_of(apply(ChannelType::Premium, Some(&trial), &pay_by_account()));
    assert_eq!((account.subscription_type, account.state, account.cancel_at), (T::Account, S::Active, None));
    assert_eq!(account.terms.account_number.as_deref(), Some("ACC-7"));
    assert_eq!(account.terms.price_per_month.as_deref(), Some("49.50"));
    assert!(!account.terms.rebate && !account.terms.added_by_admin);
    assert!(status(ChannelType::Premium, &account, now()).payable, "counted as payable");

    let requested = next_of(apply(ChannelType::Premium, None, &request_invoice()));
    assert_eq!((requested.subscription_type, requested.state), (T::External, S::Pending));
    assert_eq!(requested.terms.billing_method.as_deref(), Some(INVOICE));
    assert_eq!(requested.terms.legal_entity_name.as_deref(), Some("Acme Metals Ltd"));
    assert_eq!(requested.terms.billing_email_address.as_deref(), Some("ap@acme.example"));
    assert_eq!(reader_card(ChannelType::Premium, Some(&requested), now(), cool_off()).action, CardAction::Pending);
    let approved = next_of(apply(ChannelType::Premium, Some(&requested), &Event::Approve { trial_days: 14 }));
    assert_eq!((approved.state, approved.terms.legal_entity_name.as_deref()), (S::Active, Some("Acme Metals Ltd")));
}

fn card_sync(status: CardStatus, cancel_at_period_end: bool) -> Event {
    Event::CardSync(CardState {
        status,
        period_end: Some(next_charge()),
        cancel_at_period_end,
        ended_at: (status == CardStatus::Canceled).then(now),
        card: Card {
            subscription_id: "sub_1".into(),
            payment_method_type: Some("card".into()),
            payment_method_details: Some("Visa ending 4242".into()),
        },
        price_per_month: Some("49.50".into()),
    })
}

fn card_subscription(state: S) -> Subscription {
    let Ok(Transition { next: Some(active), .. }) = apply(ChannelType::Premium, None, &card_sync(CardStatus::Active, false)) else {
        panic!("a paid card starts a subscription")
    };
    Subscription { state, ..active }
}

#[test]
fn a_card_subscription_starts_only_when_stripe_says_it_is_paid() {
    // An unpaid checkout (incomplete) changes nothing, whatever the reader had.
    for start in all_starts() {
        let got = transition(facts(ChannelType::Premium), fixture(start).as_ref(), &card_sync(CardStatus::Unpaid, false), now());
        assert_eq!(got, conflict(NO_CHANGE), "{start:?}");
    }
    let paid = apply(ChannelType::Premium, Some(&plain(T::Trial, S::Active)), &card_sync(CardStatus::Active, false)).unwrap();
    assert_eq!((paid.action, paid.email), ("cardPaid", Some(EmailKind::Welcome)));
    let next = paid.next.unwrap();
    assert_eq!((next.subscription_type, next.state, next.cancel_at, next.next_payment), (T::Stripe, S::Active, None, Some(next_charge())));
    assert_eq!(next.card.as_ref().map(|c| c.subscription_id.as_str()), Some("sub_1"));
    assert_eq!(next.card.as_ref().and_then(|c| c.payment_method_details.as_deref()), Some("Visa ending 4242"));
    assert_eq!(next.terms.price_per_month.as_deref(), Some("49.50"));
    assert!(status(ChannelType::Premium, &next, now()).payable);
    // The same state again: nothing to write (a duplicate or an older event).
    assert_eq!(apply(ChannelType::Premium, Some(&next), &card_sync(CardStatus::Active, false)), conflict(NO_CHANGE));
    // Another card's events do not touch a subscription that is not theirs, unless it is paid for.
    let other = Subscription { card: Some(Card { subscription_id: "sub_other".into(), ..Card::default() }), ..next.clone() };
    assert_eq!(apply(ChannelType::Premium, Some(&other), &card_sync(CardStatus::Canceled, false)), conflict(NO_CHANGE));
}

#[test]
fn a_failed_renewal_warns_the_reader_and_a_new_card_recovers() {
    let active = card_subscription(S::Active);
    let failed = apply(ChannelType::Premium, Some(&active), &card_sync(CardStatus::PaymentFailed, false)).unwrap();
    assert_eq!((failed.action, failed.email), ("paymentFailed", Some(EmailKind::PaymentFailed)));
    let failed = failed.next.unwrap();
    assert_eq!(failed.state, S::PaymentFailed);
    assert!(status(ChannelType::Premium, &failed, now()).payment_failed_alert);
    // Told once.
    assert_eq!(apply(ChannelType::Premium, Some(&failed), &card_sync(CardStatus::PaymentFailed, false)), conflict(NO_CHANGE));
    let recovered = apply(ChannelType::Premium, Some(&failed), &card_sync(CardStatus::Active, false)).unwrap();
    assert_eq!((recovered.action, recovered.email), ("paymentRecovered", None));
    assert!(!status(ChannelType::Premium, recovered.next.as_ref().unwrap(), now()).payment_failed_alert);
}

#[test]
fn cancel_at_period_end_keeps_access_then_the_end_cancels() {
    let active = card_subscription(S::Active);
    let cancelling = apply(ChannelType::Premium, Some(&active), &card_sync(CardStatus::Active, true)).unwrap();
    assert_eq!((cancelling.action, cancelling.email), ("cancelAtPeriodEnd", Some(EmailKind::SubscriptionCanceled)));
    let cancelling = cancelling.next.unwrap();
    assert_eq!((cancelling.state, cancelling.cancel_at, cancelling.cancel_at_period_end), (S::Active, Some(next_charge()), true));
    assert_eq!(reader_card(ChannelType::Premium, Some(&cancelling), now(), cool_off()).action, CardAction::AccessUntil);
    let ended = apply(ChannelType::Premium, Some(&cancelling), &card_sync(CardStatus::Canceled, true)).unwrap();
    // The reader asked: no second email.
    assert_eq!((ended.action, ended.email), ("cardCanceled", None));
    assert_eq!(ended.next.as_ref().map(|n| (n.state, n.subscribed)), Some((S::Canceled, false)));
    // Stripe ending it after failed renewals tells the reader.
    let failed = card_subscription(S::PaymentFailed);
    let dropped = apply(ChannelType::Premium, Some(&failed), &card_sync(CardStatus::Canceled, false)).unwrap();
    assert_eq!(dropped.email, Some(EmailKind::SubscriptionCanceled));
}
