//! Who may read what: the one rule that decides whether a reader is shown an article in full
//! (`canSeeFullVersion`). Every reader query, and later the emails and the chat, ask it.

use chrono::{DateTime, Utc};

use crate::{articles::model::ArticleState, auth::Role, channels::ChannelType, subscriptions::model::SubscriptionAccess};

/// What the rule needs to know of an article.
#[derive(Debug, Clone, Copy)]
pub struct ArticleFacts<'a> {
    pub state: ArticleState,
    pub channel_id: Option<&'a str>,
    pub channel_type: Option<ChannelType>,
    /// Marked premium (not open to all).
    pub is_premium: bool,
    /// When its premium period ends (publish date + expiry offset); none: never.
    pub premium_expires_at: Option<DateTime<Utc>>,
}

impl ArticleFacts<'_> {
    /// Premium and its premium period has not ended.
    pub fn is_premium_active(&self, now: DateTime<Utc>) -> bool {
        self.is_premium && self.premium_expires_at.is_none_or(|end| end > now)
    }

    /// Full for every reader: an article of a free-open channel (or of none), one open to all, or
    /// one whose premium period has ended.
    pub fn is_open_to_all(&self, now: DateTime<Utc>) -> bool {
        self.channel_id.is_none() || self.channel_type == Some(ChannelType::FreeOpen) || !self.is_premium_active(now)
    }
}

/// Whether a caller with `role`, holding `subscription` to the article's channel (if any), may be
/// shown the article in full.
///
/// - Only published articles are ever shown to anyone on the reader side.
/// - Staff (Administrator, Editor, Contributor) see every published article in full.
/// - Articles open to all (see `is_open_to_all`) are full for every reader.
/// - Otherwise the reader needs an active subscription to the channel (state active, started and
///   not past its end: a running trial counts) that gives full articles (`isFullArticleContent`):
///   their own, or a seat of their firm's subscription (`ViewerSubscriptions::access` gives the
///   better of the two).
pub fn can_see_full_version(
    role: Option<Role>,
    subscription: Option<SubscriptionAccess>,
    article: &ArticleFacts<'_>,
    now: DateTime<Utc>,
) -> bool {
    if article.state != ArticleState::Published {
        return false;
    }
    match role {
        None => false,
        Some(role) if role.is_staff() => true,
        Some(_) => article.is_open_to_all(now) || subscription.is_some_and(|s| s.gives_full_articles(now)),
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::subscriptions::model::SubscriptionState;

    fn article(channel: Option<ChannelType>, premium: bool, expires_in_days: Option<i64>) -> ArticleFacts<'static> {
        ArticleFacts {
            state: ArticleState::Published,
            channel_id: channel.map(|_| "c"),
            channel_type: channel,
            is_premium: premium,
            premium_expires_at: expires_in_days.map(|d| Utc::now() + Duration::days(d)),
        }
    }

    fn subscription(state: SubscriptionState, ends_in_days: Option<i64>, full: bool) -> Option<SubscriptionAccess> {
        Some(SubscriptionAccess {
            state,
            cancel_at: ends_in_days.map(|d| Utc::now() + Duration::days(d)),
            is_full_article_content: full,
            starts_at: None,
        })
    }

    const READER: Option<Role> = Some(Role::Subscriber);

    #[test]
    fn staff_read_every_published_article_in_full() {
        let premium = article(Some(ChannelType::Premium), true, None);
        for role in [Role::Administrator, Role::Editor, Role::Contributor] {
            assert!(can_see_full_version(Some(role), None, &premium, Utc::now()));
        }
        let draft = ArticleFacts { state: ArticleState::Pending, ..premium };
        assert!(!can_see_full_version(Some(Role::Administrator), None, &draft, Utc::now()));
    }

    #[test]
    fn open_articles_are_full_for_every_reader() {
        let now = Utc::now();
        assert!(can_see_full_version(READER, None, &article(Some(ChannelType::FreeOpen), false, None), now));
        assert!(can_see_full_version(READER, None, &article(Some(ChannelType::Premium), false, None), now));
        assert!(can_see_full_version(READER, None, &article(Some(ChannelType::FreeClosed), false, None), now));
        // Premium whose premium period has ended.
        assert!(can_see_full_version(READER, None, &article(Some(ChannelType::Premium), true, Some(-1)), now));
        assert!(can_see_full_version(READER, None, &article(None, true, None), now));
    }

    #[test]
    fn premium_articles_need_an_active_full_subscription() {
        let now = Utc::now();
        let premium = article(Some(ChannelType::Premium), true, Some(5));
        assert!(!can_see_full_version(READER, None, &premium, now));
        assert!(can_see_full_version(READER, subscription(SubscriptionState::Active, None, true), &premium, now));
        // A running trial (active until its end), and one that has ended.
        assert!(can_see_full_version(READER, subscription(SubscriptionState::Active, Some(3), true), &premium, now));
        assert!(!can_see_full_version(READER, subscription(SubscriptionState::Active, Some(-1), true), &premium, now));
        // Summary only.
        assert!(!can_see_full_version(READER, subscription(SubscriptionState::Active, None, false), &premium, now));
        for state in [
            SubscriptionState::Pending,
            SubscriptionState::Rejected,
            SubscriptionState::Canceled,
            SubscriptionState::Expired,
            SubscriptionState::PaymentFailed,
        ] {
            assert!(!can_see_full_version(READER, subscription(state, None, true), &premium, now), "{state:?}");
        }
        // Canceled at period end: still active until then.
        assert!(can_see_full_version(READER, subscription(SubscriptionState::Active, Some(10), true), &premium, now));
        let closed = article(Some(ChannelType::FreeClosed), true, None);
        assert!(!can_see_full_version(READER, None, &closed, now));
        assert!(can_see_full_version(READER, subscription(SubscriptionState::Active, None, true), &closed, now));
    }

    #[test]
    fn unpublished_articles_and_callers_without_a_role_see_nothing() {
        let now = Utc::now();
        let open = article(Some(ChannelType::FreeOpen), false, None);
        assert!(!can_see_full_version(None, None, &open, now));
        for state in [ArticleState::Pending, ArticleState::ReadyForReview, ArticleState::Archived] {
            assert!(!can_see_full_version(READER, None, &ArticleFacts { state, ..open }, now));
        }
    }
}
