//! The one state machine of a channel subscription (spec 3 §4). Every change, from a reader, staff,
//! a CSV upload, the CLI or a worker, is an `Event` applied by `transition`: a pure function from
//! the channel, the subscription as it is and the time to the subscription as it will be, the
//! email the change asks for, or a refusal with the message the client shows. What the web app
//! shows of a subscription (`Status`, `ReaderCard`) is derived here too.

use chrono::{DateTime, Datelike, Duration, NaiveTime, TimeZone, Utc};

use super::model::{SubscriptionState, SubscriptionType};
use crate::channels::ChannelType;

/// What a subscription is, as far as the rules go. The terms staff set are carried along.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub subscription_type: SubscriptionType,
    pub state: SubscriptionState,
    /// When access ends: a trial's end, an expiry date, a cancellation at period end.
    pub cancel_at: Option<DateTime<Utc>>,
    pub cancel_at_period_end: bool,
    pub cancel_requested_at: Option<DateTime<Utc>>,
    /// Renews (or stays) until someone cancels it.
    pub subscribed: bool,
    pub acknowledged_non_charge_sub_expired: bool,
    /// The next monthly charge of a paid subscription.
    pub next_payment: Option<DateTime<Utc>>,
    /// A card subscription's Stripe subscription and the card it is charged to.
    pub card: Option<Card>,
    pub terms: Terms,
}

/// What a card subscription is charged through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Card {
    /// The Stripe subscription.
    pub subscription_id: String,
    /// e.g. `card`, with `Visa ending 4242`.
    pub payment_method_type: Option<String>,
    pub payment_method_details: Option<String>,
}

/// What staff set on a subscription (spec 3 §3 Subscription payload).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Terms {
    pub account_number: Option<String>,
    /// A bespoke monthly price, 2 decimals; none: the channel's price.
    pub price_per_month: Option<String>,
    /// A clearing client who is not charged.
    pub rebate: bool,
    pub billing_method: Option<String>,
    pub trial_duration: Option<i32>,
    pub notes: Option<String>,
    pub is_full_article_content: bool,
    pub added_by_admin: bool,
    /// Who an invoice goes to (a reader's invoice request).
    pub legal_entity_name: Option<String>,
    pub billing_email_address: Option<String>,
}

/// A subscription staff (or an import) give a reader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub subscription_type: SubscriptionType,
    /// An expiry date; a trial ends `trial_duration` days from now instead.
    pub cancel_at: Option<DateTime<Utc>>,
    pub terms: Terms,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A reader asks for a free trial of a premium channel.
    RequestTrial,
    /// A reader joins a free open channel.
    SubscribeFreeOpen,
    /// A reader asks for access to a free closed channel.
    RequestFreeClosed,
    /// A reader cancels: a request is withdrawn, a free or trial subscription ends now, a paid one
    /// at the end of its billing period.
    Cancel,
    /// A reader dismisses the notice of an expired non-charge subscription.
    AcknowledgeExpired,
    /// Staff approve a pending trial (for `trial_days`) or access request.
    Approve { trial_days: i32 },
    /// Staff reject a pending trial or access request.
    Reject,
    /// Staff, a CSV upload or the CLI set a subscription (add, change or overwrite).
    Grant(Grant),
    /// Staff end a subscription not paid by card at once.
    CancelImmediately,
    /// Staff remove a subscriber.
    Delete,
    /// A worker ends a subscription whose end has come.
    Expire,
    /// A reader buys a premium channel on one of their clearing accounts: active at once.
    PayByAccount { account_number: String, price_per_month: Option<String> },
    /// A reader asks to be invoiced: an externally billed subscription waits for staff.
    RequestInvoice { legal_entity_name: String, billing_email_address: String, price_per_month: Option<String> },
    /// Stripe says what a card subscription now is (read from Stripe, so events in any order agree).
    CardSync(CardState),
}

/// A Stripe subscription as Stripe reports it, in the terms the rules need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardState {
    pub status: CardStatus,
    /// The end of the period paid for (the next charge).
    pub period_end: Option<DateTime<Utc>>,
    pub cancel_at_period_end: bool,
    /// When it ended (canceled).
    pub ended_at: Option<DateTime<Utc>>,
    pub card: Card,
    pub price_per_month: Option<String>,
}

/// Stripe's subscription statuses, as far as access goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardStatus {
    /// Waiting for the first payment (incomplete), or never paid (incomplete_expired): no access.
    Unpaid,
    /// Paid up (active, trialing).
    Active,
    /// A renewal failed (past_due, unpaid): the reader is told and asked for a new card; what they
    /// may read meanwhile is the entitlement rule's (`reading::entitlement`).
    PaymentFailed,
    /// Ended (canceled, or paused).
    Canceled,
}

/// The emails a change asks for (delivered by the email issue).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmailKind {
    Welcome,
    TrialApproved,
    TrialRejected,
    AccessApproved,
    AccessRejected,
    TrialEnding,
    TrialEnded,
    SubscriptionCanceled,
    ChannelInterest,
    /// A card renewal failed: to the reader.
    PaymentFailed,
    /// A reader asks to be invoiced: to the channel's admins.
    InvoiceRequested,
}

impl EmailKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EmailKind::Welcome => "welcome",
            EmailKind::TrialApproved => "trialApproved",
            EmailKind::TrialRejected => "trialRejected",
            EmailKind::AccessApproved => "accessApproved",
            EmailKind::AccessRejected => "accessRejected",
            EmailKind::TrialEnding => "trialEnding",
            EmailKind::TrialEnded => "trialEnded",
            EmailKind::SubscriptionCanceled => "subscriptionCanceled",
            EmailKind::ChannelInterest => "channelInterest",
            EmailKind::PaymentFailed => "paymentFailed",
            EmailKind::InvoiceRequested => "invoiceRequested",
        }
    }
}

/// How a welcome email words what it welcomes the reader to: each kind of subscription in its own
/// words (a reader who bought one by card is not told they were given it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Welcome {
    /// The reader bought it: by card, on a clearing account, or by an invoice staff confirmed.
    Paid,
    /// Staff gave it (the subscriber form).
    Granted,
    /// Added with a list of addresses (a CSV upload or the CLI import).
    Bulk,
    /// A free trial staff (or a list) gave.
    Trial,
}

impl Welcome {
    /// The email data's `welcome`, which its template words.
    pub fn as_str(self) -> &'static str {
        match self {
            Welcome::Paid => "paid",
            Welcome::Granted => "granted",
            Welcome::Bulk => "bulk",
            Welcome::Trial => "trial",
        }
    }
}

/// The wording of the welcome email a transition asks for; `from_list` when staff added a list of
/// addresses (CSV upload, CLI import) rather than one reader.
pub fn welcome(transition: &Transition, from_list: bool) -> Welcome {
    let trial = transition.next.as_ref().is_some_and(|next| next.subscription_type == SubscriptionType::Trial);
    match transition.action {
        "cardPaid" | "payByAccount" | "approveInvoice" => Welcome::Paid,
        _ if trial => Welcome::Trial,
        _ if from_list => Welcome::Bulk,
        _ => Welcome::Granted,
    }
}

/// The channel as the rules see it.
#[derive(Debug, Clone, Copy)]
pub struct ChannelFacts {
    pub channel_type: ChannelType,
    pub archived: bool,
}

/// The reader as the rules see it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReaderFacts {
    /// When a trial reader's account trial ends (`auth::account_trial_ends`: the trial scope
    /// alone, `INSIGHTS_TRIAL_DAYS` from the first sign-in); after it every call they make answers
    /// TRIAL_EXPIRED. None for every other reader.
    pub account_trial_ends: Option<DateTime<Utc>>,
}

/// An allowed change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    /// None: the subscription is removed.
    pub next: Option<Subscription>,
    /// What happened, for the audit log ('requestTrial', 'approve', 'expire', ...).
    pub action: &'static str,
    pub email: Option<EmailKind>,
}

/// A refused change, with the message the client shows (a CONFLICT, or BAD_USER_INPUT for a
/// subscription type the channel does not offer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Conflict(String),
    NotOffered(&'static str),
}

pub const ARCHIVED: &str = "This channel is archived and can no longer be changed.";
pub const ALREADY_SUBSCRIBED: &str = "You are already subscribed to this channel.";
pub const TRIAL_PENDING: &str = "Your free trial request is already pending.";
pub const ACCESS_PENDING: &str = "Your access request is already pending.";
pub const TRIAL_DECLINED: &str = "Your free trial request was declined.";
pub const NOT_SUBSCRIBED: &str = "You are not subscribed to this channel.";
pub const NO_SUBSCRIPTION: &str = "This reader has no subscription to this channel.";
pub const NO_PENDING_REQUEST: &str = "There is no pending request to process.";
pub const NOTHING_TO_ACKNOWLEDGE: &str = "There is no expired non-charge subscription to dismiss.";
pub const CARD_MANAGED: &str = "This subscriber pays by card: the subscription is changed by the reader or the card provider.";
pub const ALREADY_ENDED: &str = "This subscription has already ended.";
pub const NOT_DUE: &str = "This subscription has not reached its end.";
pub const TRIAL_ONLY_PREMIUM: &str = "Free trials are offered on premium channels only.";
pub const FREE_OPEN_ONLY: &str = "Only free open channels can be joined at once.";
pub const FREE_CLOSED_ONLY: &str = "Access is requested on free closed channels only.";
pub const TYPE_NOT_OFFERED: &str = "This subscription type is not offered on this channel.";
pub const ACCOUNT_TRIAL_OVER: &str = "This reader's Insights trial has ended, so a channel trial cannot start.";

fn conflict(message: impl Into<String>) -> Refusal {
    Refusal::Conflict(message.into())
}

impl Subscription {
    /// The state as it is at `now`: an active subscription past its end has ended even before the
    /// sweep records it (canceled when it was cancelled at period end, else expired).
    pub fn effective_state(&self, now: DateTime<Utc>) -> SubscriptionState {
        let past_end = self.cancel_at.is_some_and(|end| end <= now);
        match self.state {
            SubscriptionState::Active | SubscriptionState::PaymentFailed if past_end => {
                if self.cancel_at_period_end || self.state == SubscriptionState::PaymentFailed {
                    SubscriptionState::Canceled
                } else {
                    SubscriptionState::Expired
                }
            }
            state => state,
        }
    }

    /// A running card subscription, whose card the reader may replace (`createPaymentSetupIntent`).
    pub fn card_updatable(&self, now: DateTime<Utc>) -> bool {
        self.subscription_type == SubscriptionType::Stripe && self.card.is_some() && self.is_live(now)
    }

    fn is_live(&self, now: DateTime<Utc>) -> bool {
        matches!(self.effective_state(now), SubscriptionState::Active | SubscriptionState::PaymentFailed)
    }

    /// Live or waiting for staff, as `subscription_live_or_pending` (SQL) says: the reader holds
    /// the channel.
    pub fn is_live_or_pending(&self, now: DateTime<Utc>) -> bool {
        self.is_live(now) || self.effective_state(now) == SubscriptionState::Pending
    }

    fn is_paid(&self) -> bool {
        matches!(self.subscription_type, SubscriptionType::Stripe | SubscriptionType::Account | SubscriptionType::External)
    }

    /// A new subscription of `subscription_type` in `state`, with nothing else set.
    fn new(subscription_type: SubscriptionType, state: SubscriptionState) -> Subscription {
        Subscription {
            subscription_type,
            state,
            cancel_at: None,
            cancel_at_period_end: false,
            cancel_requested_at: None,
            subscribed: true,
            acknowledged_non_charge_sub_expired: false,
            next_payment: None,
            card: None,
            terms: Terms { is_full_article_content: true, ..Terms::default() },
        }
    }

    fn ended(&self, state: SubscriptionState, now: DateTime<Utc>) -> Subscription {
        Subscription { state, cancel_at: Some(now), cancel_requested_at: Some(now), subscribed: false, ..self.clone() }
    }
}

/// The end of the billing period a paid subscription is in: its next payment, else the 1st of
/// next month (billing is monthly on the 1st, spec 3 §9).
pub fn period_end(subscription: &Subscription, now: DateTime<Utc>) -> DateTime<Utc> {
    subscription.next_payment.filter(|next| *next > now).unwrap_or_else(|| first_of_next_month(now))
}

fn first_of_next_month(now: DateTime<Utc>) -> DateTime<Utc> {
    let (year, month) = if now.month() == 12 { (now.year() + 1, 1) } else { (now.year(), now.month() + 1) };
    Utc.with_ymd_and_hms(year, month, 1, 0, 0, 0).single().expect("the 1st of a month exists")
}

/// The end of a trial of `days` starting at `now`: the last second of that day (UTC), as expiry
/// dates are stored (spec 3 §9).
pub fn trial_end(now: DateTime<Utc>, days: i32) -> DateTime<Utc> {
    end_of_day(now + Duration::days(i64::from(days)))
}

/// 23:59:59 UTC of `at`'s day.
pub fn end_of_day(at: DateTime<Utc>) -> DateTime<Utc> {
    let last_second = NaiveTime::from_hms_opt(23, 59, 59).expect("a valid time");
    Utc.from_utc_datetime(&at.date_naive().and_time(last_second))
}

/// One rule decides what a trial reader may do until when: their account trial. A channel trial
/// that starts (or changes) while they are a trial reader ends no later than the account trial,
/// after which every call they make answers TRIAL_EXPIRED anyway; the end stored is then the
/// account trial's, so the approval email, the subscriber stats' Ends column and the reader's
/// Subscriptions page all say the day access really ends. The trial's length (`trial_duration`)
/// becomes the days it really runs. Once the account trial is over a channel trial cannot start.
///
/// The account trial is not extended instead: it is the firm's offer to try the whole portal, set
/// by the identity provider's scope and the configuration, and approving one channel's trial should
/// not quietly open every page of the portal for longer. A reader who becomes a customer (the
/// reader scope) gets their channel trials as given from then on.
fn within_account_trial(
    reader: ReaderFacts,
    end: DateTime<Utc>,
    days: Option<i32>,
    now: DateTime<Utc>,
) -> Result<(DateTime<Utc>, Option<i32>), Refusal> {
    match reader.account_trial_ends {
        Some(account_end) if account_end <= now => Err(conflict(ACCOUNT_TRIAL_OVER)),
        Some(account_end) if account_end < end => {
            let days_cut = (end.date_naive() - account_end.date_naive()).num_days();
            let days = days.map(|days| (i64::from(days) - days_cut).max(1) as i32);
            Ok((account_end, days))
        }
        _ => Ok((end, days)),
    }
}

/// Applies `event` to the subscription `current` (none: the reader has none) of a channel, for a
/// reader with no account trial. Changes that start or change a trial go through
/// `transition_for` with the reader's facts (`service::apply`, `bulk`).
pub fn transition(channel: ChannelFacts, current: Option<&Subscription>, event: &Event, now: DateTime<Utc>) -> Result<Transition, Refusal> {
    transition_for(channel, ReaderFacts::default(), current, event, now)
}

/// Applies `event` to the subscription `current` (none: the reader has none) of a channel.
pub fn transition_for(
    channel: ChannelFacts,
    reader: ReaderFacts,
    current: Option<&Subscription>,
    event: &Event,
    now: DateTime<Utc>,
) -> Result<Transition, Refusal> {
    // An archived channel has no live subscribers (archiving needs that); what remains may still
    // end, nothing else changes.
    if channel.archived && !matches!(event, Event::Expire) {
        return Err(conflict(ARCHIVED));
    }
    let effective = current.map(|s| s.effective_state(now));
    let done = |next: Subscription, action, email| Ok(Transition { next: Some(next), action, email });
    match event {
        Event::RequestTrial => {
            if channel.channel_type != ChannelType::Premium {
                return Err(Refusal::NotOffered(TRIAL_ONLY_PREMIUM));
            }
            refuse_if_live_or_pending(current, now)?;
            // A declined request stays declined. A trial that ran may be asked for again once the
            // trial policy's cool-off has passed (`trials::request` checks it before this).
            if current.is_some_and(|s| s.subscription_type == SubscriptionType::Trial) && effective == Some(SubscriptionState::Rejected) {
                return Err(conflict(TRIAL_DECLINED));
            }
            done(Subscription::new(SubscriptionType::Trial, SubscriptionState::Pending), "requestTrial", None)
        }
        Event::SubscribeFreeOpen => {
            if channel.channel_type != ChannelType::FreeOpen {
                return Err(Refusal::NotOffered(FREE_OPEN_ONLY));
            }
            refuse_if_live_or_pending(current, now)?;
            done(Subscription::new(SubscriptionType::Free, SubscriptionState::Active), "subscribe", None)
        }
        Event::RequestFreeClosed => {
            if channel.channel_type != ChannelType::FreeClosed {
                return Err(Refusal::NotOffered(FREE_CLOSED_ONLY));
            }
            refuse_if_live_or_pending(current, now)?;
            done(Subscription::new(SubscriptionType::Free, SubscriptionState::Pending), "requestAccess", None)
        }
        Event::Cancel => {
            let sub = current.ok_or_else(|| conflict(NOT_SUBSCRIBED))?;
            match effective {
                Some(SubscriptionState::Pending) => {
                    done(Subscription { cancel_at: None, ..sub.ended(SubscriptionState::Canceled, now) }, "withdrawRequest", None)
                }
                Some(SubscriptionState::Active) if sub.is_paid() => {
                    if sub.cancel_at_period_end {
                        return Err(conflict(format!(
                            "Your subscription already ends on {}.",
                            sub.cancel_at.unwrap_or(now).format("%d %b %Y")
                        )));
                    }
                    // Premium access stays to the end of the period that was paid for.
                    let end = sub.cancel_at.map_or(period_end(sub, now), |at| at.min(period_end(sub, now)));
                    let next = Subscription {
                        cancel_at: Some(end),
                        cancel_at_period_end: true,
                        cancel_requested_at: Some(now),
                        subscribed: false,
                        // Nothing more is charged.
                        next_payment: None,
                        ..sub.clone()
                    };
                    done(next, "cancelAtPeriodEnd", Some(EmailKind::SubscriptionCanceled))
                }
                Some(SubscriptionState::Active | SubscriptionState::PaymentFailed) => {
                    done(sub.ended(SubscriptionState::Canceled, now), "cancel", None)
                }
                _ => Err(conflict(NOT_SUBSCRIBED)),
            }
        }
        Event::AcknowledgeExpired => match current {
            Some(sub)
                if sub.subscription_type == SubscriptionType::NonCharge
                    && effective == Some(SubscriptionState::Expired)
                    && !sub.acknowledged_non_charge_sub_expired =>
            {
                done(Subscription { acknowledged_non_charge_sub_expired: true, ..sub.clone() }, "acknowledgeExpired", None)
            }
            _ => Err(conflict(NOTHING_TO_ACKNOWLEDGE)),
        },
        Event::Approve { trial_days } => match current {
            Some(sub) if effective == Some(SubscriptionState::Pending) => match sub.subscription_type {
                SubscriptionType::Trial => {
                    let (end, days) = within_account_trial(reader, trial_end(now, *trial_days), Some(*trial_days), now)?;
                    let next = Subscription {
                        state: SubscriptionState::Active,
                        cancel_at: Some(end),
                        terms: Terms { trial_duration: days, ..sub.terms.clone() },
                        ..sub.clone()
                    };
                    done(next, "approveTrial", Some(EmailKind::TrialApproved))
                }
                SubscriptionType::Free => {
                    done(Subscription { state: SubscriptionState::Active, ..sub.clone() }, "approveAccess", Some(EmailKind::AccessApproved))
                }
                SubscriptionType::External => {
                    done(Subscription { state: SubscriptionState::Active, ..sub.clone() }, "approveInvoice", Some(EmailKind::Welcome))
                }
                _ => Err(conflict(NO_PENDING_REQUEST)),
            },
            _ => Err(conflict(NO_PENDING_REQUEST)),
        },
        Event::Reject => match current {
            Some(sub) if effective == Some(SubscriptionState::Pending) => {
                let (action, email) = match sub.subscription_type {
                    SubscriptionType::Trial => ("rejectTrial", EmailKind::TrialRejected),
                    SubscriptionType::Free | SubscriptionType::External => ("rejectAccess", EmailKind::AccessRejected),
                    _ => return Err(conflict(NO_PENDING_REQUEST)),
                };
                done(Subscription { state: SubscriptionState::Rejected, subscribed: false, ..sub.clone() }, action, Some(email))
            }
            _ => Err(conflict(NO_PENDING_REQUEST)),
        },
        Event::Grant(grant) => {
            if !offers(channel.channel_type, grant.subscription_type) {
                return Err(Refusal::NotOffered(TYPE_NOT_OFFERED));
            }
            if current.is_some_and(|s| s.subscription_type == SubscriptionType::Stripe && s.is_live(now)) {
                return Err(conflict(CARD_MANAGED));
            }
            let running_trial = current.filter(|s| s.subscription_type == SubscriptionType::Trial && s.is_live(now));
            let cancel_at = match (grant.subscription_type, running_trial) {
                // Editing a running trial keeps its start: a new length moves the end by the
                // difference, the same length keeps it.
                (SubscriptionType::Trial, Some(running)) => {
                    match (running.cancel_at, running.terms.trial_duration, grant.terms.trial_duration) {
                        (Some(end), Some(old), Some(new)) => Some(end + Duration::days(i64::from(new - old))),
                        (Some(end), _, _) => Some(end),
                        (None, _, days) => days.map(|days| trial_end(now, days)),
                    }
                }
                // A new (or restarted) trial runs from today.
                (SubscriptionType::Trial, None) => grant.terms.trial_duration.map(|days| trial_end(now, days)).or(grant.cancel_at),
                _ => grant.cancel_at,
            };
            let mut terms = grant.terms.clone();
            let cancel_at = match (grant.subscription_type, cancel_at) {
                (SubscriptionType::Trial, Some(end)) => {
                    let (end, days) = within_account_trial(reader, end, terms.trial_duration, now)?;
                    terms.trial_duration = days;
                    Some(end)
                }
                _ => cancel_at,
            };
            let renewed = current.is_some_and(|s| s.is_live(now));
            let next = Subscription {
                subscription_type: grant.subscription_type,
                state: SubscriptionState::Active,
                cancel_at,
                cancel_at_period_end: false,
                cancel_requested_at: None,
                subscribed: true,
                acknowledged_non_charge_sub_expired: false,
                next_payment: current.and_then(|s| s.next_payment),
                card: None,
                terms,
            };
            if renewed { done(next, "change", None) } else { done(next, "grant", Some(EmailKind::Welcome)) }
        }
        Event::CancelImmediately => {
            let sub = current.ok_or_else(|| conflict(NO_SUBSCRIPTION))?;
            if sub.subscription_type == SubscriptionType::Stripe && sub.is_live(now) {
                return Err(conflict(CARD_MANAGED));
            }
            match effective {
                Some(SubscriptionState::Active | SubscriptionState::PaymentFailed | SubscriptionState::Pending) => {
                    done(sub.ended(SubscriptionState::Canceled, now), "cancelImmediately", Some(EmailKind::SubscriptionCanceled))
                }
                _ => Err(conflict(ALREADY_ENDED)),
            }
        }
        Event::Delete => {
            let sub = current.ok_or_else(|| conflict(NO_SUBSCRIPTION))?;
            if sub.subscription_type == SubscriptionType::Stripe && sub.is_live(now) {
                return Err(conflict(CARD_MANAGED));
            }
            Ok(Transition { next: None, action: "delete", email: None })
        }
        Event::Expire => {
            let sub = current.ok_or_else(|| conflict(NOT_SUBSCRIBED))?;
            let state = match (sub.state, effective) {
                (
                    SubscriptionState::Active | SubscriptionState::PaymentFailed,
                    Some(ended @ (SubscriptionState::Expired | SubscriptionState::Canceled)),
                ) => ended,
                _ => return Err(conflict(NOT_DUE)),
            };
            let email = (sub.subscription_type == SubscriptionType::Trial).then_some(EmailKind::TrialEnded);
            let next = Subscription { state, subscribed: false, ..sub.clone() };
            done(next, "expire", email)
        }
        Event::PayByAccount { account_number, price_per_month } => {
            refuse_unless_buyable(channel, current, now)?;
            let next = Subscription {
                card: None,
                terms: Terms {
                    account_number: Some(account_number.clone()),
                    price_per_month: price_per_month.clone(),
                    ..Subscription::new(SubscriptionType::Account, SubscriptionState::Active).terms
                },
                ..Subscription::new(SubscriptionType::Account, SubscriptionState::Active)
            };
            done(next, "payByAccount", Some(EmailKind::Welcome))
        }
        Event::RequestInvoice { legal_entity_name, billing_email_address, price_per_month } => {
            refuse_unless_buyable(channel, current, now)?;
            let fresh = Subscription::new(SubscriptionType::External, SubscriptionState::Pending);
            let next = Subscription {
                terms: Terms {
                    billing_method: Some(INVOICE.to_owned()),
                    price_per_month: price_per_month.clone(),
                    legal_entity_name: Some(legal_entity_name.clone()),
                    billing_email_address: Some(billing_email_address.clone()),
                    ..fresh.terms.clone()
                },
                ..fresh
            };
            done(next, "requestInvoice", Some(EmailKind::InvoiceRequested))
        }
        Event::CardSync(card) => card_sync(current, card, now),
    }
}

/// The billing method of a reader's invoice request.
pub const INVOICE: &str = "Invoice";
pub const PREMIUM_ONLY: &str = "Only premium channels are paid for.";
pub const INVOICE_PENDING: &str = "Your invoice request is already pending.";

/// A reader may buy a premium channel unless a paid subscription is live or an invoice request waits;
/// a running trial or a non-charge subscription is replaced by the paid one.
fn refuse_unless_buyable(channel: ChannelFacts, current: Option<&Subscription>, now: DateTime<Utc>) -> Result<(), Refusal> {
    if channel.channel_type != ChannelType::Premium {
        return Err(Refusal::NotOffered(PREMIUM_ONLY));
    }
    let Some(sub) = current else { return Ok(()) };
    match sub.effective_state(now) {
        SubscriptionState::Active | SubscriptionState::PaymentFailed if sub.is_paid() => Err(conflict(ALREADY_SUBSCRIBED)),
        SubscriptionState::Pending if sub.subscription_type == SubscriptionType::External => Err(conflict(INVOICE_PENDING)),
        _ => Ok(()),
    }
}

/// Brings a reader's subscription in line with their Stripe subscription. Nothing to change (the
/// same state again, an unpaid checkout) is `NO_CHANGE`, which callers take as done.
fn card_sync(current: Option<&Subscription>, card: &CardState, now: DateTime<Utc>) -> Result<Transition, Refusal> {
    let is_this_card = current.is_some_and(|s| {
        s.subscription_type == SubscriptionType::Stripe && s.card.as_ref().is_some_and(|c| c.subscription_id == card.card.subscription_id)
    });
    // Another subscription (an older card one, or one staff set since) is not this card's to change,
    // except by this card starting to be paid for.
    if !is_this_card && card.status != CardStatus::Active {
        return Err(conflict(NO_CHANGE));
    }
    let base = match current {
        Some(sub) if is_this_card => sub.clone(),
        _ => Subscription::new(SubscriptionType::Stripe, SubscriptionState::Active),
    };
    let (state, action, email) = match card.status {
        CardStatus::Unpaid => return Err(conflict(NO_CHANGE)),
        CardStatus::Active if !is_this_card => (SubscriptionState::Active, "cardPaid", Some(EmailKind::Welcome)),
        CardStatus::Active if base.state == SubscriptionState::PaymentFailed => (SubscriptionState::Active, "paymentRecovered", None),
        CardStatus::Active => (SubscriptionState::Active, "cardRenewed", None),
        CardStatus::PaymentFailed if base.state == SubscriptionState::PaymentFailed => (base.state, "cardRenewed", None),
        CardStatus::PaymentFailed => (SubscriptionState::PaymentFailed, "paymentFailed", Some(EmailKind::PaymentFailed)),
        CardStatus::Canceled => (SubscriptionState::Canceled, "cardCanceled", None),
    };
    let ended = card.status == CardStatus::Canceled;
    let next = Subscription {
        subscription_type: SubscriptionType::Stripe,
        state,
        cancel_at: if ended {
            Some(card.ended_at.or(base.cancel_at).unwrap_or(now))
        } else if card.cancel_at_period_end {
            card.period_end
        } else {
            None
        },
        cancel_at_period_end: card.cancel_at_period_end,
        cancel_requested_at: if card.cancel_at_period_end || ended { base.cancel_requested_at.or(Some(now)) } else { None },
        subscribed: !ended && !card.cancel_at_period_end,
        acknowledged_non_charge_sub_expired: false,
        next_payment: if ended || card.cancel_at_period_end { None } else { card.period_end },
        card: Some(card.card.clone()),
        terms: Terms {
            price_per_month: card.price_per_month.clone(),
            is_full_article_content: true,
            added_by_admin: false,
            ..Terms::default()
        },
    };
    if current == Some(&next) {
        return Err(conflict(NO_CHANGE));
    }
    // Stripe ended it without the reader asking (unpaid renewals): tell them.
    let email = if ended && !base.cancel_at_period_end && current.is_some_and(|s| s.is_live(now)) {
        Some(EmailKind::SubscriptionCanceled)
    } else {
        email
    };
    // The reader (here or at Stripe) asked to end it with the paid period: told once, when it is recorded.
    let (action, email) = if card.cancel_at_period_end && !base.cancel_at_period_end && is_this_card && !ended {
        ("cancelAtPeriodEnd", Some(EmailKind::SubscriptionCanceled))
    } else {
        (action, email)
    };
    Ok(Transition { next: Some(next), action, email })
}

/// A card event that changes nothing (callers treat it as applied).
pub const NO_CHANGE: &str = "The subscription is already as the card provider says.";

/// Refuses a reader's request while they hold a live subscription or a pending request.
fn refuse_if_live_or_pending(current: Option<&Subscription>, now: DateTime<Utc>) -> Result<(), Refusal> {
    let Some(sub) = current else { return Ok(()) };
    match sub.effective_state(now) {
        SubscriptionState::Active | SubscriptionState::PaymentFailed => Err(conflict(ALREADY_SUBSCRIBED)),
        SubscriptionState::Pending if sub.subscription_type == SubscriptionType::Trial => Err(conflict(TRIAL_PENDING)),
        SubscriptionState::Pending => Err(conflict(ACCESS_PENDING)),
        _ => Ok(()),
    }
}

/// The subscription types staff may give on a channel: premium channels are paid (card
/// subscriptions come from checkout), free or trial; free channels are free.
pub fn offers(channel_type: ChannelType, subscription_type: SubscriptionType) -> bool {
    match channel_type {
        ChannelType::Premium => matches!(
            subscription_type,
            SubscriptionType::Account | SubscriptionType::External | SubscriptionType::NonCharge | SubscriptionType::Trial
        ),
        ChannelType::FreeOpen | ChannelType::FreeClosed => subscription_type == SubscriptionType::Free,
    }
}

/// When a trial-ending reminder is due: an active trial ending within 3 days.
pub fn trial_reminder_due(subscription: &Subscription, now: DateTime<Utc>) -> bool {
    subscription.subscription_type == SubscriptionType::Trial
        && subscription.effective_state(now) == SubscriptionState::Active
        && subscription.cancel_at.is_some_and(|end| end <= now + Duration::days(TRIAL_REMINDER_DAYS))
}

pub const TRIAL_REMINDER_DAYS: i64 = 3;

// ---- what the web app shows (spec 3 §4 'Subscription state helper', 'Channel card for a reader') ----

#[derive(async_graphql::Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[graphql(rename_items = "PascalCase")]
pub enum TrialStatus {
    Pending,
    Active,
    Expired,
}

#[derive(async_graphql::Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[graphql(rename_items = "PascalCase")]
pub enum FreeClosedStatus {
    Pending,
    Active,
    Rejected,
    Canceled,
}

/// The admin form's payment categories (spec 3 §3).
#[derive(async_graphql::Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[graphql(rename_items = "PascalCase")]
pub enum PaymentCategory {
    Paid,
    Free,
    FreeTrial,
}

/// The spec's subscription state helper, derived from the subscription at `now`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub effective_state: SubscriptionState,
    /// Active, not ended, and paid (card, invoice or an account without rebate).
    pub payable: bool,
    /// 'There was an issue processing your payment…' (not when cancelling at period end).
    pub payment_failed_alert: bool,
    /// An expired subscription the reader is told about.
    pub expired_alert: bool,
    /// An expired non-charge subscription the reader may dismiss.
    pub can_acknowledge_expired: bool,
    pub can_cancel: bool,
    /// Cancelling keeps access to the end of the billing period (paid), instead of ending it now.
    pub cancel_keeps_access_to_period_end: bool,
    /// A running card subscription whose card the reader may replace.
    pub can_update_card: bool,
    pub trial: Option<TrialStatus>,
    pub free_closed: Option<FreeClosedStatus>,
    pub type_label: &'static str,
    pub payment_category: Option<PaymentCategory>,
}

pub fn status(channel_type: ChannelType, sub: &Subscription, now: DateTime<Utc>) -> Status {
    let effective = sub.effective_state(now);
    let live = matches!(effective, SubscriptionState::Active | SubscriptionState::PaymentFailed);
    let expired = effective == SubscriptionState::Expired;
    let non_charge = sub.subscription_type == SubscriptionType::NonCharge;
    Status {
        effective_state: effective,
        payable: effective == SubscriptionState::Active && sub.is_paid() && !sub.terms.rebate,
        payment_failed_alert: effective == SubscriptionState::PaymentFailed && !sub.cancel_at_period_end,
        expired_alert: expired && !(non_charge && sub.acknowledged_non_charge_sub_expired),
        can_acknowledge_expired: expired && non_charge && !sub.acknowledged_non_charge_sub_expired,
        can_cancel: (live && !sub.cancel_at_period_end) || effective == SubscriptionState::Pending,
        cancel_keeps_access_to_period_end: effective == SubscriptionState::Active && sub.is_paid() && !sub.cancel_at_period_end,
        can_update_card: sub.card_updatable(now),
        trial: (sub.subscription_type == SubscriptionType::Trial)
            .then_some(match effective {
                SubscriptionState::Pending => Some(TrialStatus::Pending),
                SubscriptionState::Active | SubscriptionState::PaymentFailed => Some(TrialStatus::Active),
                SubscriptionState::Expired => Some(TrialStatus::Expired),
                // A trial cancelled after it started has ended like an expired one.
                SubscriptionState::Canceled if sub.terms.trial_duration.is_some() => Some(TrialStatus::Expired),
                _ => None,
            })
            .flatten(),
        free_closed: (channel_type == ChannelType::FreeClosed && sub.subscription_type == SubscriptionType::Free).then_some(
            match effective {
                SubscriptionState::Pending => FreeClosedStatus::Pending,
                SubscriptionState::Active | SubscriptionState::PaymentFailed => FreeClosedStatus::Active,
                SubscriptionState::Rejected => FreeClosedStatus::Rejected,
                _ => FreeClosedStatus::Canceled,
            },
        ),
        type_label: type_label(sub.subscription_type, sub.terms.rebate),
        payment_category: payment_category(sub.subscription_type, sub.terms.rebate),
    }
}

/// The spec's type labels (spec 3 §3).
pub fn type_label(subscription_type: SubscriptionType, rebate: bool) -> &'static str {
    match subscription_type {
        SubscriptionType::Account if rebate => "Rebated - Clearing",
        SubscriptionType::Account => "Paid - Clearing",
        SubscriptionType::Stripe => "Paid - Non-clearing",
        SubscriptionType::External => "Billed externally",
        SubscriptionType::NonCharge => "Non-charge",
        SubscriptionType::Trial => "Trial",
        SubscriptionType::Free => "Free",
    }
}

pub fn payment_category(subscription_type: SubscriptionType, rebate: bool) -> Option<PaymentCategory> {
    match subscription_type {
        SubscriptionType::Account if rebate => Some(PaymentCategory::Free),
        SubscriptionType::Stripe | SubscriptionType::Account | SubscriptionType::External => Some(PaymentCategory::Paid),
        SubscriptionType::NonCharge => Some(PaymentCategory::Free),
        SubscriptionType::Trial => Some(PaymentCategory::FreeTrial),
        SubscriptionType::Free => None,
    }
}

/// What a reader's channel card offers.
#[derive(async_graphql::Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[graphql(rename_items = "PascalCase")]
pub enum CardAction {
    /// Premium, never tried: 'Request FREE trial' (and the pricing page).
    RequestTrial,
    /// Premium after a trial: 'Buy now'.
    Buy,
    /// Free open: 'Subscribe for free'.
    SubscribeFree,
    /// Free closed: 'Request access'.
    RequestAccess,
    /// A trial request waits for staff: the button is disabled.
    TrialPending,
    /// 'Access request pending', disabled.
    AccessPending,
    /// Any other subscription waiting to start (an invoice requested).
    Pending,
    /// 'Trial ends {date}' and 'Buy now'.
    TrialActive,
    /// Cancelled at period end: 'Access until {date}'.
    AccessUntil,
    /// Subscribed (with a warning when a payment failed).
    Subscribed,
}

#[derive(async_graphql::Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[graphql(rename_items = "PascalCase")]
pub enum EndedAs {
    Expired,
    Canceled,
    Rejected,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReaderCard {
    pub action: CardAction,
    /// How the reader's last subscription ended, when the offer comes back after one.
    pub ended: Option<EndedAs>,
    /// The trial's end, or the last day of access.
    pub ends_at: Option<DateTime<Utc>>,
    pub payment_failed: bool,
    pub summaries_only: bool,
}

/// A trial that gave access: running, ended or expired (not a request, declined or withdrawn).
pub fn trial_ran(sub: &Subscription, now: DateTime<Utc>) -> bool {
    sub.subscription_type == SubscriptionType::Trial
        && match sub.effective_state(now) {
            SubscriptionState::Active | SubscriptionState::Expired => true,
            SubscriptionState::Canceled => sub.cancel_at.is_some() && sub.terms.trial_duration.is_some(),
            _ => false,
        }
}

/// The reader's own trial or subscription of the channel gave access and ended less than `cool_off`
/// ago (the trial policy's): a trial request would be refused until it has passed.
pub fn cooling_off(sub: &Subscription, now: DateTime<Utc>, cool_off: Duration) -> bool {
    let ended = matches!(sub.effective_state(now), SubscriptionState::Expired | SubscriptionState::Canceled);
    let gave_access = if sub.subscription_type == SubscriptionType::Trial { trial_ran(sub, now) } else { ended };
    ended && gave_access && sub.cancel_at.is_some_and(|end| end <= now && end > now - cool_off)
}

/// The reader's card for a channel. `cool_off` is the trial policy's: within it after the reader's
/// own trial or subscription ended the card offers Buy, not a trial (a colleague's at the same
/// firm is the request's to find and explain).
pub fn reader_card(channel_type: ChannelType, sub: Option<&Subscription>, now: DateTime<Utc>, cool_off: Duration) -> ReaderCard {
    let card = |action, ended, ends_at| ReaderCard { action, ended, ends_at, payment_failed: false, summaries_only: false };
    let offer = |ended: Option<EndedAs>| {
        let action = match channel_type {
            ChannelType::Premium => {
                let trial_offered = sub.is_none_or(|s| {
                    let event = transition(ChannelFacts { channel_type, archived: false }, Some(s), &Event::RequestTrial, now);
                    event.is_ok() && !cooling_off(s, now, cool_off)
                });
                if trial_offered { CardAction::RequestTrial } else { CardAction::Buy }
            }
            ChannelType::FreeOpen => CardAction::SubscribeFree,
            ChannelType::FreeClosed => CardAction::RequestAccess,
        };
        card(action, ended, None)
    };
    let Some(sub) = sub else { return offer(None) };
    match sub.effective_state(now) {
        SubscriptionState::Pending => match sub.subscription_type {
            SubscriptionType::Trial => card(CardAction::TrialPending, None, None),
            SubscriptionType::Free => card(CardAction::AccessPending, None, None),
            _ => card(CardAction::Pending, None, None),
        },
        SubscriptionState::Expired => offer(Some(EndedAs::Expired)),
        SubscriptionState::Canceled => offer(Some(EndedAs::Canceled)),
        SubscriptionState::Rejected => offer(Some(EndedAs::Rejected)),
        state @ (SubscriptionState::Active | SubscriptionState::PaymentFailed) => {
            if sub.subscription_type == SubscriptionType::Trial {
                card(CardAction::TrialActive, None, sub.cancel_at)
            } else if sub.cancel_at_period_end && sub.cancel_at.is_some() {
                card(CardAction::AccessUntil, None, sub.cancel_at)
            } else {
                ReaderCard {
                    action: CardAction::Subscribed,
                    ended: None,
                    ends_at: sub.cancel_at,
                    payment_failed: state == SubscriptionState::PaymentFailed,
                    summaries_only: !sub.terms.is_full_article_content,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
