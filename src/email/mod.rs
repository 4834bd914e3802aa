//! Email: every email the product sends, from the change that causes it to the reader's inbox.
//!
//! - `outbox`: emails are composed and written in the transaction of the change that causes them,
//!   each under a unique delivery key, and a job delivers them (`delivery`).
//! - `compose`: one function per kind of email decides who gets it and what it says (the data its
//!   template shows); `templates` renders a kind's one template into subject, HTML and text.
//! - `notifications` and `digest`: new-article emails, at once or gathered into digests.
//! - `unsubscribe` and `settings`: the reader's control over channel emails.
//! - `queries`: every SQL statement of the area.
//!
//! Adding a kind of email is one template (`templates/{kind}.j2`) and one compose function.

pub mod compose;
pub mod delivery;
pub mod digest;
pub mod graphql;
pub mod notifications;
pub mod outbox;
pub mod queries;
pub mod settings;
pub mod templates;
pub mod unsubscribe;

/// Every kind of email; the stored `kind` and the template's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A new (or updated) article, to a channel's subscribers.
    ArticlePublished,
    /// The articles of a day or a week, to a reader who chose digests.
    Digest,
    Welcome,
    TrialApproved,
    TrialRejected,
    AccessApproved,
    AccessRejected,
    TrialEnding,
    TrialEnded,
    SubscriptionCanceled,
    /// A reader's registered interest in a channel, to its admins.
    ChannelInterest,
    /// A reader's registered interest in a premium article, to its desk.
    ArticleInterest,
    /// A card renewal failed: the reader is asked to update their card.
    PaymentFailed,
    /// A reader asks to pay a channel by invoice: to the channel's admins.
    InvoiceRequested,
    /// A reader's registered interest in a promotional content, to its promotion page's address.
    PromotionInterest,
    /// A firm's administrator invites a colleague (`firms::service::invite`).
    FirmInvitation,
    /// A firm's reading of the last month, to its administrators who asked for it.
    FirmUsage,
}

impl Kind {
    pub const ALL: [Kind; 17] = [
        Kind::ArticlePublished,
        Kind::Digest,
        Kind::Welcome,
        Kind::TrialApproved,
        Kind::TrialRejected,
        Kind::AccessApproved,
        Kind::AccessRejected,
        Kind::TrialEnding,
        Kind::TrialEnded,
        Kind::SubscriptionCanceled,
        Kind::ChannelInterest,
        Kind::ArticleInterest,
        Kind::PaymentFailed,
        Kind::InvoiceRequested,
        Kind::PromotionInterest,
        Kind::FirmInvitation,
        Kind::FirmUsage,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::ArticlePublished => "articlePublished",
            Kind::Digest => "digest",
            Kind::Welcome => "welcome",
            Kind::TrialApproved => "trialApproved",
            Kind::TrialRejected => "trialRejected",
            Kind::AccessApproved => "accessApproved",
            Kind::AccessRejected => "accessRejected",
            Kind::TrialEnding => "trialEnding",
            Kind::TrialEnded => "trialEnded",
            Kind::SubscriptionCanceled => "subscriptionCanceled",
            Kind::ChannelInterest => "channelInterest",
            Kind::ArticleInterest => "articleInterest",
            Kind::PaymentFailed => "paymentFailed",
            Kind::InvoiceRequested => "invoiceRequested",
            Kind::PromotionInterest => "promotionInterest",
            Kind::FirmInvitation => "firmInvitation",
            Kind::FirmUsage => "firmUsage",
        }
    }

    /// Notifications and digests, sent to many readers at once: delivered after service emails.
    pub fn is_bulk(self) -> bool {
        matches!(self, Kind::ArticlePublished | Kind::Digest)
    }

    pub fn parse(value: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.as_str() == value)
    }
}

impl From<crate::subscriptions::machine::EmailKind> for Kind {
    fn from(kind: crate::subscriptions::machine::EmailKind) -> Self {
        use crate::subscriptions::machine::EmailKind;
        match kind {
            EmailKind::Welcome => Kind::Welcome,
            EmailKind::TrialApproved => Kind::TrialApproved,
            EmailKind::TrialRejected => Kind::TrialRejected,
            EmailKind::AccessApproved => Kind::AccessApproved,
            EmailKind::AccessRejected => Kind::AccessRejected,
            EmailKind::TrialEnding => Kind::TrialEnding,
            EmailKind::TrialEnded => Kind::TrialEnded,
            EmailKind::SubscriptionCanceled => Kind::SubscriptionCanceled,
            EmailKind::ChannelInterest => Kind::ChannelInterest,
            EmailKind::PaymentFailed => Kind::PaymentFailed,
            EmailKind::InvoiceRequested => Kind::InvoiceRequested,
        }
    }
}
