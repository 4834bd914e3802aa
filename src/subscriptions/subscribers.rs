//! Subscriber administration's terms: the views of a channel's subscribers and the list's sorts
//! and page. Its SQL (the list paged, searched and sorted in the database, the views' counts,
//! article views by channel for a page, the audit log, the bulk check's lookups) is in `queries`.

/// The subscriber stats views (spec 3 §2), plus the pending requests staff approve.
#[derive(async_graphql::Enum, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[graphql(rename_items = "PascalCase")]
pub enum SubscriberView {
    #[default]
    All,
    Trial,
    Paid,
    PaymentFailed,
    Expired,
    NonCharge,
    Unsubscribed,
    /// Trial and access requests waiting for approval.
    Requests,
    /// Readers a client firm gives the channel through a seat (they may have no subscription of their own).
    FirmSeats,
}

impl SubscriberView {
    pub const ALL: [SubscriberView; 9] = [
        SubscriberView::All,
        SubscriberView::Trial,
        SubscriberView::Paid,
        SubscriberView::PaymentFailed,
        SubscriberView::Expired,
        SubscriberView::NonCharge,
        SubscriberView::Unsubscribed,
        SubscriberView::Requests,
        SubscriberView::FirmSeats,
    ];

    /// The name `subscription_in_view` (SQL) knows the view by (FirmSeats is read from the seats instead).
    pub(super) fn as_str(self) -> &'static str {
        match self {
            SubscriberView::All => "All",
            SubscriberView::Trial => "Trial",
            SubscriberView::Paid => "Paid",
            SubscriberView::PaymentFailed => "PaymentFailed",
            SubscriberView::Expired => "Expired",
            SubscriberView::NonCharge => "NonCharge",
            SubscriberView::Unsubscribed => "Unsubscribed",
            SubscriberView::Requests => "Requests",
            SubscriberView::FirmSeats => "FirmSeats",
        }
    }
}

/// The sorts of the subscriber list.
#[derive(async_graphql::Enum, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[graphql(rename_items = "camelCase")]
pub enum SubscriberSortField {
    Name,
    Email,
    Company,
    #[default]
    SubscribedAt,
    CancelAt,
}

/// A page of the subscriber list: a channel's view, searched, sorted.
pub struct SubscriberQuery<'a> {
    pub channel_id: &'a str,
    pub view: SubscriberView,
    /// A LIKE pattern over lower-cased "name email company".
    pub pattern: Option<&'a str>,
    pub sort: SubscriberSortField,
    pub descending: bool,
    pub limit: i64,
    pub offset: i64,
}

impl SubscriberSortField {
    /// The ORDER BY of a sort, whitelisted here: one plain ordering per sort lets the planner walk
    /// `channel_subscription_channel_created_idx` for the default one instead of sorting the channel.
    pub(super) fn order_by(self, descending: bool) -> &'static str {
        match (self, descending) {
            (SubscriberSortField::Name, false) => "lower(u.name) asc, s.created_at desc, s.user_id",
            (SubscriberSortField::Name, true) => "lower(u.name) desc, s.created_at desc, s.user_id",
            (SubscriberSortField::Email, false) => r#"lower(u.email collate "default") asc, s.user_id"#,
            (SubscriberSortField::Email, true) => r#"lower(u.email collate "default") desc, s.user_id"#,
            (SubscriberSortField::Company, false) => "lower(u.company) asc nulls first, s.created_at desc, s.user_id",
            (SubscriberSortField::Company, true) => "lower(u.company) desc nulls last, s.created_at desc, s.user_id",
            (SubscriberSortField::CancelAt, false) => "s.cancel_at asc nulls last, s.created_at desc, s.user_id",
            (SubscriberSortField::CancelAt, true) => "s.cancel_at desc nulls last, s.created_at desc, s.user_id",
            (SubscriberSortField::SubscribedAt, false) => "s.created_at asc, s.user_id",
            (SubscriberSortField::SubscribedAt, true) => "s.created_at desc, s.user_id",
        }
    }
}
