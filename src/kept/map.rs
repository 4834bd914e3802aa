//! The map of what servers keep in memory, as data: which database revision each kept value is
//! kept under, and which columns move each revision (by a trigger, in the writing transaction).
//! The table in `kept`'s module comment says the same for a reader (a test holds them together).
//! Tests walk it (tests/api/kept.rs): every row moves its revision, and every column a kept
//! value's read selects has a row under one of that value's revisions, or a `NOT_KEPT` entry
//! saying why not. A new column in a kept table fails those tests until someone decides.

/// A revision in the database that kept values are checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revision {
    /// Singleton `taxonomy_revision.revision` (0003): topics and promotional content.
    Topics,
    /// Singleton `topic_counts_revision.revision` (0017): what topic counts are computed from.
    TopicCounts,
    /// Singleton `content_revision.revision` (0019): published articles and everything reader
    /// lists select and order them by.
    Content,
    /// Singleton `channels_revision.revision` (0020): every channel, its admins and its people.
    Channels,
    /// Per user, `user_subscriptions_revision.revision` (0019): one reader's subscriptions.
    Subscriptions,
    /// Per user, `user_reading_revision.revision` (0021): one reader's follows and read-twice articles.
    Reading,
    /// Per article, `article.card_revision` (0018, widened by 0020 and 0022): what an article's
    /// card and its staff lists show.
    Card,
    /// The NOTIFY channel `insights_user_changed` (0016): a user changed. Not a counter: there is
    /// no value to read, and the signed-in users cache that listens stands apart (`APART`).
    UserChanged,
}

/// What a revision's value is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// One value for the whole database.
    Singleton,
    /// A value per user (`$1`: the user id).
    PerUser,
    /// A value per article (`$1`: the article id).
    PerArticle,
    /// A notification, not a value.
    Notification,
}

impl Revision {
    pub const ALL: [Revision; 8] = [
        Revision::Topics,
        Revision::TopicCounts,
        Revision::Content,
        Revision::Channels,
        Revision::Subscriptions,
        Revision::Reading,
        Revision::Card,
        Revision::UserChanged,
    ];

    pub fn scope(self) -> Scope {
        match self {
            Revision::Topics | Revision::TopicCounts | Revision::Content | Revision::Channels => Scope::Singleton,
            Revision::Subscriptions | Revision::Reading => Scope::PerUser,
            Revision::Card => Scope::PerArticle,
            Revision::UserChanged => Scope::Notification,
        }
    }

    /// The statement reading its current value (`$1`: the user or article, as `scope` says; a
    /// user without a row reads 0); None for a notification.
    pub fn current_value_sql(self) -> Option<&'static str> {
        Some(match self {
            Revision::Topics => "select revision from taxonomy_revision",
            Revision::TopicCounts => "select revision from topic_counts_revision",
            Revision::Content => "select revision from content_revision",
            Revision::Channels => "select revision from channels_revision",
            Revision::Subscriptions => {
                "select coalesce((select revision from user_subscriptions_revision where user_id = $1), 0)"
            }
            Revision::Reading => "select coalesce((select revision from user_reading_revision where user_id = $1), 0)",
            Revision::Card => "select card_revision from article where article_id = $1",
            Revision::UserChanged => return None,
        })
    }
}

/// A column (or a row's insert or delete) whose change moves a revision, by a trigger of `migration`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moves {
    pub table: &'static str,
    /// A column, or `(insert)` / `(delete)` for adding or removing a row.
    pub column: &'static str,
    pub revision: Revision,
    /// The migration(s) whose triggers make it so.
    pub migration: &'static str,
}

/// Rows of `MAP`: one line per table and the revisions (each with its migration) its columns move,
/// made into one row per (table, column, revision), revision by revision.
macro_rules! moves {
    (@rows [$($rows:tt)*]) => { &[$($rows)*] };
    (@rows [$($rows:tt)*] [$revision:ident $migration:literal $(, $other:ident $other_migration:literal)*]
        $table:literal [$($column:literal),* $(,)?]; $($lines:tt)*) => {
        moves!(@rows [$($rows)* $(Moves { table: $table, column: $column, revision: Revision::$revision, migration: $migration },)*]
            [$($other $other_migration),*] $table [$($column),*]; $($lines)*)
    };
    (@rows [$($rows:tt)*] [] $table:literal [$($column:literal),* $(,)?]; $($lines:tt)*) => {
        moves!(@rows [$($rows)*] $($lines)*)
    };
    ($($lines:tt)*) => { moves!(@rows [] $($lines)*) };
}

/// Every (table, column, revision) a trigger moves: the module's table, as data.
#[rustfmt::skip]
pub const MAP: &[Moves] = moves! {
    [Topics "0003"] "category" ["(insert)", "(delete)", "name", "description", "parent_id", "is_featured", "small_image",
        "large_image", "promotional_content_id", "is_locked", "is_premium", "version", "created_at", "updated_at"];
    [Topics "0003"] "promotional_content" ["(insert)", "(delete)", "name", "description", "link", "article_image",
        "sidebar_image", "expiry_date", "version", "created_at", "updated_at", "promotion_page_id"];

    [TopicCounts "0017"] "category_follow" ["(insert)", "(delete)", "category_id", "user_id", "created_at"];
    [TopicCounts "0017"] "article_category" ["(insert)", "(delete)", "article_id", "category_id"];
    [TopicCounts "0017"] "article_contributor" ["(insert)", "(delete)", "article_id", "user_id"];
    [TopicCounts "0017"] "article_view" ["(insert)", "(delete)", "article_id", "user_id", "views", "last_viewed"];

    // An article's every column moves its card (its own update, 0018) and, published, the content.
    [Content "0019", Card "0018"] "article" ["title", "state", "version", "created_at", "updated_at", "premium_channel_id",
        "published_by_desk_id", "published_by_user_id", "author_id", "html", "body_text", "summary", "publish_date",
        "was_published_previously", "is_premium", "premium_expiry_offset", "show_watermark", "display_in_chart_section",
        "is_pinned", "is_timeless", "template_id", "send_emails", "search_vector", "premium_expires_at", "card_revision",
        "title_summary_vector", "first_published_at", "content_updated_at"];
    [Content "0019"] "article" ["(insert)", "(delete)"];
    [Content "0019", Card "0022"] "article_contributor" ["(insert)", "(delete)"];
    // What moves a published article's card moves the content too (its update is a published article's).
    [Content "0018 card, 0019", Card "0018"] "article_category" ["(insert)", "(delete)"];
    [Content "0018 card, 0019", Card "0018"] "article_tag" ["(insert)", "(delete)"];
    [Content "0020 card, 0019", Card "0020"] "article_promotional_content" ["(insert)", "(delete)"];
    [Content "0018 card, 0019", Card "0018"] "category" ["name"];
    [Content "0018 card, 0019", Card "0018"] "tag" ["name"];
    [Content "0018 card, 0019", Card "0018"] "channel" ["name", "type", "state"];
    [Content "0018/0020 card, 0019", Card "0018/0020"] "desk" ["name", "email"];
    [Content "0018/0020/0022 card, 0019", Card "0018/0020/0022"] "users" ["name", "email", "position", "phone",
        "display_avatar", "profile_picture"];
    [Content "0022 card, 0019", Card "0022"] "promotional_content" ["name", "link", "article_image"];

    [Channels "0020"] "channel" ["(insert)", "(delete)", "name", "description", "url", "profile_image", "cover_image",
        "gl_account", "price", "type", "owner_type", "owner_desk_id", "owner_user_id", "default_trial_duration_days",
        "hide_disclaimer", "state", "archived_at", "created_by", "version", "created_at", "updated_at"];
    [Channels "0020"] "channel_admin" ["(insert)", "(delete)", "channel_id", "user_id"];
    [Channels "0020"] "desk" ["name"];
    [Channels "0020"] "users" ["name", "email"];

    [Subscriptions "0019"] "channel_subscription" ["(insert)", "(delete)", "channel_id", "user_id", "subscription_type",
        "subscription_state", "subscribed", "created_at", "updated_at", "cancel_at", "cancel_requested_at",
        "cancel_at_period_end", "notes", "price_per_month", "is_full_article_content", "account_number", "rebate",
        "billing_method", "trial_duration", "email_notifications", "next_payment", "payment_method_type",
        "payment_method_details", "subscription_id", "acknowledged_non_charge_sub_expired", "added_by_admin",
        "email_frequency", "legal_entity_name", "billing_email_address"];
    [Subscriptions "0019"] "channel" ["name", "type"];
    // A reader's firm seats are among their subscriptions (0034).
    [Subscriptions "0034"] "firm_seat" ["(insert)", "(delete)", "assigned_at", "assigned_by", "email_notifications",
        "email_frequency"];
    [Subscriptions "0034"] "firm_subscription" ["(delete)", "channel_id", "seats", "starts_at", "subscription_type",
        "subscription_state", "subscribed", "cancel_at", "cancel_requested_at", "cancel_at_period_end", "next_payment",
        "acknowledged_non_charge_sub_expired", "notes", "price_per_month", "price_basis", "is_full_article_content",
        "account_number", "rebate", "billing_method", "trial_duration", "added_by_admin", "created_by", "created_at",
        "updated_at", "version"];
    [Subscriptions "0034"] "firm" ["name"];

    [Reading "0021"] "category_follow" ["(insert)", "(delete)"];
    // A view moves it only as the article becomes, or stops being, one read twice.
    [Reading "0021"] "article_view" ["(insert)", "(delete)", "views"];
};

/// A value servers keep in memory.
#[derive(Debug, Clone, Copy)]
pub struct KeptValue {
    pub name: &'static str,
    /// What tells one kept value from another.
    pub keyed_by: &'static str,
    /// The revisions it is kept under: found only while each is where it was read.
    pub under: &'static [Revision],
    /// The functions that read it from the database.
    pub read_by: &'static str,
    /// (table, column, why): columns its statements name only in branches its read never takes
    /// (a sort or filter it does not ask for), so no revision of its needs to follow them.
    pub branches_not_taken: &'static [(&'static str, &'static str, &'static str)],
}

const fn kept(name: &'static str, keyed_by: &'static str, under: &'static [Revision], read_by: &'static str) -> KeptValue {
    KeptValue { name, keyed_by, under, read_by, branches_not_taken: &[] }
}

use Revision::{Card, Channels, Content, Reading, Subscriptions, TopicCounts, Topics};

/// Every value kept under a revision.
pub const KEPT: &[KeptValue] = &[
    kept("cards", "article, at its card revision", &[Card], "reading::queries::card_rows"),
    kept("article_relations", "article, at its card revision", &[Card], "articles::queries::relations_of"),
    kept("search_snippets", "article at its card revision, words, body access", &[Card], "search::queries::snippets"),
    kept("article_pages", "article", &[Content, Topics], "reading::queries::article"),
    kept("channel_recent_articles", "channel (a later time cuts the list)", &[Content], "reading::queries::newest_in_channel"),
    kept(
        "latest_pages",
        "filter and page (a free-only page until the next premium period ends)",
        &[Content],
        "reading::queries::latest_ids, next_premium_end",
    ),
    kept("search_pages", "filter, ranking, cursor and size (timeless filters only)", &[Content], "search::queries::page"),
    kept("search_counts", "filter (timeless filters only)", &[Content], "search::queries::count"),
    kept("recommended", "reader, page and active channels", &[Reading, Content], "reading::queries::recommended_ids"),
    kept("followed_topics", "reader", &[Reading, Topics], "reading::queries::followed_topics"),
    kept("reader_subscriptions", "reader", &[Subscriptions], "subscriptions::queries::of_user, firms::queries::seats_of_user"),
    KeptValue {
        branches_not_taken: &[
            ("desk_contributor", "desk_id", "the publisher filter: every channel is read"),
            ("desk_contributor", "user_id", "the publisher filter: every channel is read"),
            ("article", "premium_channel_id", "the articles sort: read by name"),
            ("article", "state", "the articles sort: read by name"),
            ("channel_subscription", "channel_id", "the active users sort: read by name"),
            ("channel_subscription", "subscription_state", "the active users sort: read by name"),
            ("channel_subscription", "cancel_at", "the active users sort: read by name"),
        ],
        ..kept("all_channels", "(one value: every channel)", &[Channels], "channels::queries::select_channels, admins_of")
    },
    kept("topic_list", "(one value: every topic)", &[Topics], "taxonomy::queries::list_categories"),
    kept("topic_counts", "(one value: every topic's counts)", &[TopicCounts], "taxonomy::queries::list_topic_counts"),
    kept(
        "shared_topic_reads",
        "operation (responses built from the topic list)",
        &[Topics],
        "taxonomy::queries::list_categories",
    ),
];

/// What servers keep without a database revision, and why.
pub const APART: &[(&str, &str)] = &[
    (
        "signed_in_users",
        "users::kept: dropped by the NOTIFY `insights_user_changed` (0016) on every change to a user, since a \
         request must see a deactivation or a role change at once, before it reads any revision",
    ),
    ("parsed_documents", "graphql::documents: a GraphQL text parses the same for ever; no data behind it"),
    ("verified_tokens", "auth::jwt: a token's signature checks the same until it expires; no data behind it"),
    ("search_words", "search::read: whether words make a query depends on the text search configuration alone"),
    ("public_uploads", "uploads::access: an upload name once public stays public (migration 0025)"),
];

/// Columns of tables that kept values read which deliberately move no revision (or not every
/// revision that reads them), and why.
pub const NOT_KEPT: &[(&str, &str, &str)] = &[
    ("article", "article_id", ID),
    ("category", "category_id", ID),
    ("tag", "tag_id", ID),
    ("channel", "channel_id", ID),
    ("desk", "desk_id", ID),
    ("users", "user_id", ID),
    ("promotional_content", "promotional_content_id", ID),
    ("article_category", "article_id", LINK),
    ("article_category", "category_id", LINK),
    ("article_tag", "article_id", LINK),
    ("article_tag", "tag_id", LINK),
    ("article_contributor", "article_id", LINK),
    ("article_contributor", "user_id", LINK),
    ("article_promotional_content", "article_id", LINK),
    ("article_promotional_content", "promotional_content_id", LINK),
    ("category_follow", "category_id", LINK),
    ("category_follow", "user_id", LINK),
    ("article_view", "article_id", LINK),
    ("article_view", "user_id", LINK),
    (
        "article_state_count",
        "state",
        "kept by a trigger from article.state: a change to it is a published article's change, which moves the content",
    ),
    (
        "article_state_count",
        "articles",
        "kept by a trigger from article.state: a change to it is a published article's change, which moves the content",
    ),
    ("tag", "description", UNREAD),
    ("tag", "version", UNREAD),
    ("tag", "created_at", UNREAD),
    ("tag", "updated_at", UNREAD),
    ("tag", "search_text", UNREAD),
    ("desk", "description", UNREAD),
    ("desk", "version", UNREAD),
    ("desk", "created_at", UNREAD),
    ("desk", "updated_at", UNREAD),
    ("users", "subject", UNREAD_USER),
    ("users", "first_name", UNREAD_USER),
    ("users", "last_name", UNREAD_USER),
    ("users", "company", UNREAD_USER),
    ("users", "scopes", UNREAD_USER),
    ("users", "role", UNREAD_USER),
    ("users", "is_internal", UNREAD_USER),
    ("users", "tableau_access", UNREAD_USER),
    ("users", "first_login", UNREAD_USER),
    ("users", "last_login", UNREAD_USER),
    ("users", "version", UNREAD_USER),
    ("users", "created_at", UNREAD_USER),
    ("users", "updated_at", UNREAD_USER),
    ("users", "search_text", UNREAD_USER),
    ("users", "is_trial", UNREAD_USER),
    ("users", "channel_notifications", UNREAD_USER),
    ("users", "time_zone", UNREAD_USER),
    ("users", "token_issued_at", UNREAD_USER),
    ("firm_seat", "firm_subscription_id", LINK),
    ("firm_seat", "user_id", LINK),
    ("firm_seat", "firm_id", LINK),
    ("firm_subscription", "firm_subscription_id", ID),
    ("firm_subscription", "firm_id", "a subscription's firm never changes (its seats' key names it)"),
    ("firm", "firm_id", ID),
    ("firm", "account_number", UNREAD),
    ("firm", "billing_method", UNREAD),
    ("firm", "state", UNREAD),
    ("firm", "notes", UNREAD),
    ("firm", "created_by", UNREAD),
    ("firm", "created_at", UNREAD),
    ("firm", "updated_at", UNREAD),
    ("firm", "version", UNREAD),
];

const ID: &str = "an id: never changes (rows are added and removed, and their links name them)";
const LINK: &str = "a link's key: links are added and removed, never changed in place; (insert) and (delete) move the revisions";
const UNREAD: &str = "no kept value reads it";
const UNREAD_USER: &str = "no kept value reads it (signed-in users are kept apart, by NOTIFY)";

#[cfg(test)]
mod tests {
    use super::*;

    /// The module's table, as (revision, table, columns, migration, read by) per row; a row with an
    /// empty revision cell continues the revision above.
    fn documented_rows() -> Vec<(String, String, Vec<String>, String, String)> {
        let mut rows = Vec::new();
        let mut revision = String::new();
        for line in include_str!("mod.rs").lines().filter_map(|line| line.strip_prefix("//! |")) {
            let cells: Vec<&str> = line.trim_end().trim_end_matches('|').split('|').map(str::trim).collect();
            let Some((table, rest)) = cells.get(1).and_then(|moved| moved.split_once(".{")) else { continue };
            if !cells[0].is_empty() {
                revision = cells[0].to_owned();
            }
            let (columns, migration) = rest.split_once("} ").expect("columns end with a brace");
            let columns = columns.split(", ").map(str::to_owned).collect();
            let read_by = cells.get(2).copied().unwrap_or_default().to_owned();
            rows.push((revision.clone(), table.to_owned(), columns, migration.to_owned(), read_by));
        }
        rows
    }

    #[test]
    fn every_map_row_is_in_the_documented_table() {
        let documented = documented_rows();
        for row in MAP {
            let found = documented.iter().any(|(revision, table, columns, migration, _)| {
                *revision == format!("{:?}", row.revision)
                    && table == row.table
                    && columns.iter().any(|column| column == row.column)
                    && migration.contains(row.migration)
            });
            assert!(found, "{}.{} moving {:?} ({}) is not in the module's table", row.table, row.column, row.revision, row.migration);
        }
        let documented_count: usize = documented.iter().map(|(_, _, columns, _, _)| columns.len()).sum();
        assert_eq!(documented_count, MAP.len(), "the module's table lists a column that MAP does not");
    }

    #[test]
    fn the_documented_table_names_the_kept_values_of_each_revision() {
        for (revision, _, _, _, read_by) in documented_rows().iter().filter(|row| !row.4.is_empty()) {
            let kept: Vec<&str> =
                KEPT.iter().filter(|value| value.under.iter().any(|r| format!("{r:?}") == *revision)).map(|value| value.name).collect();
            let mut documented: Vec<&str> = read_by.split(", ").collect();
            let mut expected = kept.clone();
            documented.sort_unstable();
            expected.sort_unstable();
            assert_eq!(documented, expected, "the kept values read under {revision}");
        }
    }

    #[test]
    fn a_column_is_listed_once_per_revision_and_never_both_kept_and_unread() {
        for (i, row) in MAP.iter().enumerate() {
            assert!(
                !MAP[..i].iter().any(|other| (other.table, other.column, other.revision) == (row.table, row.column, row.revision)),
                "{}.{} is listed twice under {:?}",
                row.table,
                row.column,
                row.revision
            );
            assert!(
                !NOT_KEPT.iter().any(|(table, column, why)| (*table, *column) == (row.table, row.column) && why.starts_with("no kept value")),
                "{}.{} moves {:?} yet is said to be read by no kept value",
                row.table,
                row.column,
                row.revision
            );
        }
    }
}
