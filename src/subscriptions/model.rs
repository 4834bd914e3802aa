//! A channel subscription's types and states (spec 3 §3), and when one gives access.

use async_graphql::Enum;
use chrono::{DateTime, Utc};

#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[graphql(rename_items = "camelCase")]
pub enum SubscriptionType {
    Stripe,
    Account,
    External,
    NonCharge,
    Trial,
    Free,
}

impl SubscriptionType {
    pub fn as_str(self) -> &'static str {
        match self {
            SubscriptionType::Stripe => "stripe",
            SubscriptionType::Account => "account",
            SubscriptionType::External => "external",
            SubscriptionType::NonCharge => "nonCharge",
            SubscriptionType::Trial => "trial",
            SubscriptionType::Free => "free",
        }
    }

    pub fn parse(value: &str) -> SubscriptionType {
        match value {
            "stripe" => SubscriptionType::Stripe,
            "account" => SubscriptionType::Account,
            "external" => SubscriptionType::External,
            "nonCharge" => SubscriptionType::NonCharge,
            "trial" => SubscriptionType::Trial,
            _ => SubscriptionType::Free,
        }
    }
}

#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[graphql(rename_items = "camelCase")]
pub enum SubscriptionState {
    Active,
    Canceled,
    Rejected,
    Expired,
    Pending,
    PaymentFailed,
}

impl SubscriptionState {
    pub fn as_str(self) -> &'static str {
        match self {
            SubscriptionState::Active => "active",
            SubscriptionState::Canceled => "canceled",
            SubscriptionState::Rejected => "rejected",
            SubscriptionState::Expired => "expired",
            SubscriptionState::Pending => "pending",
            SubscriptionState::PaymentFailed => "paymentFailed",
        }
    }

    pub fn parse(value: &str) -> SubscriptionState {
        match value {
            "active" => SubscriptionState::Active,
            "canceled" => SubscriptionState::Canceled,
            "rejected" => SubscriptionState::Rejected,
            "expired" => SubscriptionState::Expired,
            "paymentFailed" => SubscriptionState::PaymentFailed,
            _ => SubscriptionState::Pending,
        }
    }
}

/// What access decisions need of a subscription.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubscriptionAccess {
    pub state: SubscriptionState,
    /// When access ends (a trial's end, a cancellation at period end); none: open-ended.
    pub cancel_at: Option<DateTime<Utc>>,
    /// False: the subscription gives article summaries only.
    pub is_full_article_content: bool,
    /// When access starts (a firm's subscription may start later); none: it has.
    pub starts_at: Option<DateTime<Utc>>,
}

impl SubscriptionAccess {
    /// Active and not past its end: the reader is subscribed now. A running trial is active with
    /// its end in `cancel_at`; pending, rejected, canceled, expired and payment-failed ones are not.
    /// The SQL twin of this rule is `subscriptions::queries::ACTIVE` (for filters in queries).
    pub fn is_active(&self, now: DateTime<Utc>) -> bool {
        self.state == SubscriptionState::Active && self.cancel_at.is_none_or(|end| end > now) && self.starts_at.is_none_or(|start| start <= now)
    }

    /// Active and giving whole articles.
    pub fn gives_full_articles(&self, now: DateTime<Utc>) -> bool {
        self.is_active(now) && self.is_full_article_content
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;

    fn access(state: SubscriptionState, cancel_in: Option<i64>, full: bool) -> SubscriptionAccess {
        SubscriptionAccess { state, cancel_at: cancel_in.map(|d| Utc::now() + Duration::days(d)), is_full_article_content: full, starts_at: None }
    }

    #[test]
    fn only_an_active_subscription_before_its_end_is_active() {
        let now = Utc::now();
        assert!(access(SubscriptionState::Active, None, true).is_active(now));
        assert!(access(SubscriptionState::Active, Some(3), true).is_active(now));
        assert!(!access(SubscriptionState::Active, Some(-1), true).is_active(now));
        for state in [
            SubscriptionState::Canceled,
            SubscriptionState::Rejected,
            SubscriptionState::Expired,
            SubscriptionState::Pending,
            SubscriptionState::PaymentFailed,
        ] {
            assert!(!access(state, None, true).is_active(now), "{state:?}");
        }
    }

    #[test]
    fn a_subscription_that_starts_later_is_not_active_yet() {
        let now = Utc::now();
        let later = SubscriptionAccess { starts_at: Some(now + Duration::days(2)), ..access(SubscriptionState::Active, None, true) };
        assert!(!later.is_active(now));
        assert!(later.is_active(now + Duration::days(3)));
    }

    #[test]
    fn a_summary_only_subscription_is_active_without_full_articles() {
        let now = Utc::now();
        let summary_only = access(SubscriptionState::Active, None, false);
        assert!(summary_only.is_active(now));
        assert!(!summary_only.gives_full_articles(now));
    }

    #[test]
    fn names_round_trip() {
        for t in ["stripe", "account", "external", "nonCharge", "trial", "free"] {
            assert_eq!(SubscriptionType::parse(t).as_str(), t);
        }
        for s in ["active", "canceled", "rejected", "expired", "pending", "paymentFailed"] {
            assert_eq!(SubscriptionState::parse(s).as_str(), s);
        }
    }
}
