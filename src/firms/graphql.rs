//! GraphQL of client firms: the staff list and form, members, firm subscriptions (through the
//! subscription state machine), seats, invitations and readership. Staff see every firm; a firm's
//! administrator sees theirs (`myFirm`, `firmSeats`, `firmReadership`); every resolver asks
//! `service::access` first.

use std::collections::HashMap;

use async_graphql::{Context, Enum, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Duration, Utc};

use super::{
    queries::{self, FirmRow, FirmSubscriptionRow},
    seats, service,
    subscriptions::{self, FirmSubscriptionChange},
};
use crate::{
    auth::STAFF,
    error::{Error, Result},
    graphql::{DEFAULT_PAGE_SIZE, PageParams, app_state, contains_pattern, total_from_page, viewer},
    subscriptions::{
        machine,
        model::{SubscriptionState, SubscriptionType},
        service::GrantInput,
    },
    users::UserSummary,
};

#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug)]
#[graphql(rename_items = "camelCase")]
pub enum FirmBillingMethod {
    Account,
    Invoice,
    Card,
}

impl FirmBillingMethod {
    fn as_str(self) -> &'static str {
        match self {
            FirmBillingMethod::Account => "account",
            FirmBillingMethod::Invoice => "invoice",
            FirmBillingMethod::Card => "card",
        }
    }

    fn parse(value: &str) -> FirmBillingMethod {
        match value {
            "invoice" => FirmBillingMethod::Invoice,
            "card" => FirmBillingMethod::Card,
            _ => FirmBillingMethod::Account,
        }
    }
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug)]
#[graphql(rename_items = "camelCase")]
pub enum FirmState {
    Active,
    Archived,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug)]
#[graphql(rename_items = "camelCase")]
pub enum FirmJoinedBy {
    Domain,
    Staff,
    Invitation,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug)]
#[graphql(rename_items = "camelCase")]
pub enum PriceBasis {
    Seat,
    Flat,
}

pub struct FirmObject {
    row: FirmRow,
    domains: Vec<String>,
}

/// Firm objects for rows, with their domains read in one statement.
async fn firm_objects(ctx: &Context<'_>, rows: Vec<FirmRow>) -> Result<Vec<FirmObject>> {
    let ids: Vec<String> = rows.iter().map(|r| r.firm_id.clone()).collect();
    let mut domains: HashMap<String, Vec<String>> = HashMap::new();
    for (firm_id, domain) in queries::domains_of(&app_state(ctx).pool, &ids).await? {
        domains.entry(firm_id).or_default().push(domain);
    }
    Ok(rows.into_iter().map(|row| FirmObject { domains: domains.remove(&row.firm_id).unwrap_or_default(), row }).collect())
}

/// One firm, for a caller `service::access` let through.
async fn load_firm(ctx: &Context<'_>, id: &str) -> Result<FirmObject> {
    let rows = queries::list(&app_state(ctx).pool, Some(id), None, None, 1, 0).await?;
    firm_objects(ctx, rows).await?.pop().ok_or(Error::NotFound("Firm"))
}

#[Object(name = "Firm")]
impl FirmObject {
    #[graphql(name = "_id")]
    async fn id(&self) -> &str {
        &self.row.firm_id
    }

    async fn name(&self) -> &str {
        &self.row.name
    }

    /// Its email domains: readers at them join it at their first sign-in.
    async fn domains(&self) -> &[String] {
        &self.domains
    }

    async fn account_number(&self) -> Option<&str> {
        self.row.account_number.as_deref()
    }

    async fn billing_method(&self) -> FirmBillingMethod {
        FirmBillingMethod::parse(&self.row.billing_method)
    }

    async fn state(&self) -> FirmState {
        if self.row.state == "archived" { FirmState::Archived } else { FirmState::Active }
    }

    /// Staff's notes on the firm (not shown to the firm's administrators).
    async fn notes(&self, ctx: &Context<'_>) -> Result<Option<&str>> {
        viewer(ctx)?.require(STAFF)?;
        Ok(self.row.notes.as_deref())
    }

    async fn created_at(&self) -> DateTime<Utc> {
        self.row.created_at
    }

    async fn version(&self) -> i32 {
        self.row.version
    }

    async fn reader_count(&self) -> i64 {
        self.row.readers
    }

    /// Seats given, over all its subscriptions.
    async fn seats_used(&self) -> i64 {
        self.row.seats_used
    }

    /// Seats of its live subscriptions, started or not (0 with none); null when one is unlimited.
    async fn seats_held(&self) -> Option<i64> {
        self.row.seats_held
    }

    /// Its live subscriptions.
    async fn subscription_count(&self) -> i64 {
        self.row.subscriptions
    }

    /// Its members by name, a page at a time; `search` matches a name or an address.
    async fn readers(&self, ctx: &Context<'_>, params: Option<FirmReaderParams>) -> Result<FirmReaderPage> {
        let params = params.unwrap_or_default();
        let (limit, offset) = PageParams { page: params.page, page_size: params.page_size }.limit_offset()?;
        let pattern = contains_pattern(params.search.as_deref());
        let pool = &app_state(ctx).pool;
        let rows = queries::members(pool, &self.row.firm_id, pattern.as_deref(), limit, offset).await?;
        let total = match total_from_page(rows.len(), limit, offset) {
            Some(total) => total,
            None => queries::count_members(pool, &self.row.firm_id, pattern.as_deref()).await?,
        };
        Ok(FirmReaderPage { readers: rows.into_iter().map(FirmMember::from).collect(), total })
    }

    /// Its invitations not yet taken up, newest first (the latest 200).
    async fn pending_invitations(&self, ctx: &Context<'_>) -> Result<Vec<FirmInvitation>> {
        let rows = queries::pending_invitations(&app_state(ctx).pool, &self.row.firm_id, PENDING_INVITATIONS_SHOWN).await?;
        Ok(rows
            .into_iter()
            .map(|row| FirmInvitation { email: row.email, invited_at: row.invited_at, invited_by_name: row.invited_by_name })
            .collect())
    }

    /// Its subscriptions in every state, by channel name.
    async fn subscriptions(&self, ctx: &Context<'_>) -> Result<Vec<FirmSubscriptionObject>> {
        let rows = queries::subscriptions_of(&app_state(ctx).pool, std::slice::from_ref(&self.row.firm_id)).await?;
        Ok(rows.into_iter().map(FirmSubscriptionObject).collect())
    }
}

const PENDING_INVITATIONS_SHOWN: i64 = 200;

/// An invitation to join a firm, not yet taken up.
#[derive(SimpleObject)]
pub struct FirmInvitation {
    email: String,
    invited_at: DateTime<Utc>,
    /// Who sent it, while their account exists.
    invited_by_name: Option<String>,
}

#[derive(InputObject)]
pub struct FirmReaderParams {
    #[graphql(default = 1)]
    page: i32,
    #[graphql(default = 15)]
    page_size: i32,
    search: Option<String>,
}

impl Default for FirmReaderParams {
    fn default() -> Self {
        FirmReaderParams { page: 1, page_size: DEFAULT_PAGE_SIZE, search: None }
    }
}

#[derive(SimpleObject)]
pub struct FirmReaderPage {
    readers: Vec<FirmMember>,
    total: i64,
}

/// A member of a firm.
#[derive(SimpleObject)]
pub struct FirmMember {
    user: UserSummary,
    is_admin: bool,
    joined_by: FirmJoinedBy,
    joined_at: DateTime<Utc>,
    last_login: Option<DateTime<Utc>>,
    /// The channels their seats give them.
    seat_channel_ids: Vec<ID>,
}

impl From<queries::MemberRow> for FirmMember {
    fn from(row: queries::MemberRow) -> Self {
        FirmMember {
            user: UserSummary { user_id: row.user_id, name: row.name, email: row.email },
            is_admin: row.is_admin,
            joined_by: match row.joined_by.as_str() {
                "staff" => FirmJoinedBy::Staff,
                "invitation" => FirmJoinedBy::Invitation,
                _ => FirmJoinedBy::Domain,
            },
            joined_at: row.joined_at,
            last_login: row.last_login,
            seat_channel_ids: row.seat_channel_ids.into_iter().map(ID).collect(),
        }
    }
}

pub struct FirmSubscriptionObject(FirmSubscriptionRow);

#[Object(name = "FirmSubscription")]
impl FirmSubscriptionObject {
    #[graphql(name = "_id")]
    async fn id(&self) -> &str {
        &self.0.firm_subscription_id
    }

    async fn firm_id(&self) -> &str {
        &self.0.firm_id
    }

    async fn firm_name(&self) -> &str {
        &self.0.firm_name
    }

    async fn channel_id(&self) -> &str {
        &self.0.channel_id
    }

    async fn channel_name(&self) -> &str {
        &self.0.channel_name
    }

    /// Null: unlimited.
    async fn seats(&self) -> Option<i32> {
        self.0.seats
    }

    async fn seats_used(&self) -> i64 {
        self.0.seats_used
    }

    async fn starts_at(&self) -> DateTime<Utc> {
        self.0.starts_at
    }

    /// When it ends (a trial's end, an end date); null: open-ended.
    async fn cancel_at(&self) -> Option<DateTime<Utc>> {
        self.0.cancel_at
    }

    async fn subscription_type(&self) -> SubscriptionType {
        SubscriptionType::parse(&self.0.subscription_type)
    }

    /// The state as it is now (one past its end has ended, even before the sweep records it).
    async fn subscription_state(&self) -> SubscriptionState {
        self.0.machine().effective_state(Utc::now())
    }

    /// Its seats give access now (started, not ended).
    async fn is_active(&self) -> bool {
        let now = Utc::now();
        self.0.machine().effective_state(now) == SubscriptionState::Active && self.0.starts_at <= now
    }

    /// Whether seats may still be given (live, or starting later).
    async fn is_live(&self) -> bool {
        self.0.machine().is_live_or_pending(Utc::now())
    }

    async fn type_label(&self) -> &'static str {
        machine::type_label(SubscriptionType::parse(&self.0.subscription_type), self.0.rebate)
    }

    async fn price_basis(&self) -> PriceBasis {
        if self.0.price_basis == "flat" { PriceBasis::Flat } else { PriceBasis::Seat }
    }

    async fn price_per_month(&self) -> Option<&str> {
        self.0.price_per_month.as_deref()
    }

    async fn account_number(&self) -> Option<&str> {
        self.0.account_number.as_deref()
    }

    async fn billing_method(&self) -> Option<&str> {
        self.0.billing_method.as_deref()
    }

    async fn rebate(&self) -> bool {
        self.0.rebate
    }

    async fn trial_duration(&self) -> Option<i32> {
        self.0.trial_duration
    }

    async fn is_full_article_content(&self) -> bool {
        self.0.is_full_article_content
    }

    /// Staff's notes (not shown to the firm's administrators).
    async fn notes(&self, ctx: &Context<'_>) -> Result<Option<&str>> {
        viewer(ctx)?.require(STAFF)?;
        Ok(self.0.notes.as_deref())
    }

    async fn version(&self) -> i32 {
        self.0.version
    }

    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

/// A firm subscription's seats and who holds them.
#[derive(SimpleObject)]
pub struct FirmSeats {
    subscription: FirmSubscriptionObject,
    holders: Vec<FirmSeatHolder>,
}

#[derive(SimpleObject)]
pub struct FirmSeatHolder {
    user: UserSummary,
    assigned_at: DateTime<Utc>,
}

/// A reader's firm, as `me.firm` shows it.
#[derive(SimpleObject)]
pub struct FirmOfUser {
    #[graphql(name = "_id")]
    id: ID,
    name: String,
    is_admin: bool,
    /// A firm administrator's monthly usage email is on.
    usage_email: bool,
}

/// The firm of `user_id`, if they belong to one.
pub async fn firm_of_user(ctx: &Context<'_>, user_id: &str) -> Result<Option<FirmOfUser>> {
    let membership = queries::membership(&app_state(ctx).pool, user_id).await?;
    Ok(membership.map(|m| FirmOfUser { id: ID(m.firm_id), name: m.firm_name, is_admin: m.is_admin, usage_email: m.usage_email }))
}

/// A firm's reading of one channel in one month.
#[derive(SimpleObject)]
pub struct FirmChannelMonth {
    channel_id: Option<ID>,
    /// Null: articles in no channel.
    channel_name: Option<String>,
    month: DateTime<Utc>,
    readers: i64,
    full_reads: i64,
    previews: i64,
    articles_read: i64,
}

impl From<queries::ReadershipRow> for FirmChannelMonth {
    fn from(r: queries::ReadershipRow) -> Self {
        FirmChannelMonth {
            channel_id: r.channel_id.map(ID),
            channel_name: r.channel_name,
            month: r.month,
            readers: r.readers,
            full_reads: r.full_reads,
            previews: r.previews,
            articles_read: r.articles_read,
        }
    }
}

/// What one member read of one article.
#[derive(SimpleObject)]
pub struct FirmReaderRead {
    user: UserSummary,
    article_id: ID,
    title: String,
    channel_name: Option<String>,
    full_reads: i64,
    previews: i64,
    last_read: DateTime<Utc>,
}

#[derive(SimpleObject)]
pub struct FirmReadership {
    channels: Vec<FirmChannelMonth>,
    reads: Vec<FirmReaderRead>,
}

/// Reads listed per member at most (the CSV export has them all).
pub const READS_LISTED: i64 = 500;

#[derive(InputObject, Default)]
pub struct FirmListParams {
    #[graphql(default = 1)]
    page: i32,
    #[graphql(default = 15)]
    page_size: i32,
    /// Matches a name or a domain.
    search: Option<String>,
    /// Only firms in this state (default: every firm).
    state: Option<FirmState>,
}

#[derive(SimpleObject)]
pub struct FirmPage {
    firms: Vec<FirmObject>,
    total: i64,
}

#[derive(Default)]
pub struct FirmsQuery;

#[Object]
impl FirmsQuery {
    /// Staff: firms by name, a page at a time.
    async fn firms(&self, ctx: &Context<'_>, params: Option<FirmListParams>) -> Result<FirmPage> {
        viewer(ctx)?.require(STAFF)?;
        let params = params.unwrap_or(FirmListParams { page: 1, page_size: DEFAULT_PAGE_SIZE, ..Default::default() });
        let (limit, offset) = PageParams { page: params.page, page_size: params.page_size }.limit_offset()?;
        let pattern = contains_pattern(params.search.as_deref());
        let state = params.state.map(|s| if s == FirmState::Archived { "archived" } else { "active" });
        let pool = &app_state(ctx).pool;
        let rows = queries::list(pool, None, pattern.as_deref(), state, limit, offset).await?;
        let total = match total_from_page(rows.len(), limit, offset) {
            Some(total) => total,
            None => queries::count(pool, pattern.as_deref(), state).await?,
        };
        Ok(FirmPage { firms: firm_objects(ctx, rows).await?, total })
    }

    /// Staff, or the firm's own administrator.
    async fn find_firm_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<FirmObject> {
        let (id, _) = service::access(&app_state(ctx).pool, viewer(ctx)?, &id).await?;
        load_firm(ctx, &id).await
    }

    /// The firm the caller administers; FORBIDDEN for anyone else.
    async fn my_firm(&self, ctx: &Context<'_>) -> Result<FirmObject> {
        let id = service::my_firm(&app_state(ctx).pool, viewer(ctx)?).await?;
        load_firm(ctx, &id).await
    }

    /// Staff: how many readers in no firm are at `domains` (they join the firm those domains are
    /// given to), for the confirmation before saving.
    async fn firm_domain_readers(&self, ctx: &Context<'_>, domains: Vec<String>, firm_id: Option<ID>) -> Result<i64> {
        service::require_staff_writer(viewer(ctx)?)?;
        service::readers_joining(&app_state(ctx).pool, &domains, firm_id.as_ref().map(|id| id.as_str())).await
    }

    /// A firm subscription to a channel and its seat holders (staff, the firm's administrator).
    async fn firm_seats(&self, ctx: &Context<'_>, firm_id: ID, channel_id: ID) -> Result<FirmSeats> {
        let pool = &app_state(ctx).pool;
        let (firm_id, _) = service::access(pool, viewer(ctx)?, &firm_id).await?;
        let channel_id = crate::validation::optional_id(Some(&channel_id), "Subscription")?.ok_or(Error::NotFound("Subscription"))?;
        let row = queries::subscription(pool, None, Some((&firm_id, &channel_id))).await?.ok_or(Error::NotFound("Subscription"))?;
        let holders = queries::seat_holders(pool, &row.firm_subscription_id).await?;
        Ok(FirmSeats {
            holders: holders
                .into_iter()
                .map(|h| FirmSeatHolder { user: UserSummary { user_id: h.user_id, name: h.name, email: h.email }, assigned_at: h.assigned_at })
                .collect(),
            subscription: FirmSubscriptionObject(row),
        })
    }

    /// Staff who manage the channel: every firm's subscription to it with its seats held and used
    /// (the channel's firms view).
    async fn channel_firm_subscriptions(&self, ctx: &Context<'_>, channel_id: ID) -> Result<Vec<FirmSubscriptionObject>> {
        let viewer = viewer(ctx)?;
        let role = service::require_staff_writer(viewer)?;
        let pool = &app_state(ctx).pool;
        let channel = crate::subscriptions::service::staff_channel(pool, &channel_id, &viewer.user.user_id, role).await?;
        let rows = queries::subscriptions_to_channel(pool, &channel.id).await?;
        Ok(rows.into_iter().map(FirmSubscriptionObject).collect())
    }

    /// A firm's reading between `from` and `to` (default: the last twelve months), per channel and
    /// month, and per member (staff, the firm's administrator).
    async fn firm_readership(
        &self,
        ctx: &Context<'_>,
        firm_id: ID,
        from: Option<DateTime<Utc>>,
        to: Option<DateTime<Utc>>,
    ) -> Result<FirmReadership> {
        let pool = &app_state(ctx).pool;
        let (firm_id, _) = service::access(pool, viewer(ctx)?, &firm_id).await?;
        let to = to.unwrap_or_else(Utc::now);
        let from = from.unwrap_or(to - Duration::days(365));
        if from >= to {
            return Err(Error::field("from", "The start must be before the end"));
        }
        let channels = queries::readership(pool, &firm_id, from, to).await?;
        let reads = queries::reads_by_member(pool, &firm_id, from, to, READS_LISTED).await?;
        Ok(FirmReadership {
            channels: channels.into_iter().map(FirmChannelMonth::from).collect(),
            reads: reads
                .into_iter()
                .map(|r| FirmReaderRead {
                    user: UserSummary { user_id: r.user_id, name: r.name, email: r.email },
                    article_id: ID(r.article_id),
                    title: r.title,
                    channel_name: r.channel_name,
                    full_reads: r.full_reads,
                    previews: r.previews,
                    last_read: r.last_read,
                })
                .collect(),
        })
    }
}

/// The staff firm form.
#[derive(InputObject)]
pub struct FirmInput {
    /// Required by `editFirm`.
    #[graphql(name = "_id")]
    id: Option<ID>,
    /// Required by `editFirm`: the version the edit is based on.
    version: Option<i32>,
    /// Required, at most 100 characters, unique.
    name: String,
    /// Email domains (example.com), each unique across firms; public mail services are refused.
    #[graphql(default)]
    domains: Vec<String>,
    account_number: Option<String>,
    billing_method: Option<FirmBillingMethod>,
    notes: Option<String>,
}

impl From<FirmInput> for service::FirmChange {
    fn from(input: FirmInput) -> Self {
        service::FirmChange {
            id: input.id.map(|id| id.0),
            version: input.version,
            name: input.name,
            domains: input.domains,
            account_number: input.account_number,
            billing_method: input.billing_method.map(|m| m.as_str().to_owned()),
            notes: input.notes,
        }
    }
}

/// The staff form of a firm subscription.
#[derive(InputObject)]
pub struct FirmSubscriptionInput {
    firm_id: ID,
    channel_id: ID,
    /// Required by `changeFirmSubscription`.
    version: Option<i32>,
    /// account, external, nonCharge or trial.
    subscription_type: Option<SubscriptionType>,
    /// Null: unlimited.
    seats: Option<i32>,
    /// When its seats start to give access (default now; trials start now).
    starts_at: Option<DateTime<Utc>>,
    /// Its end date (stored at 23:59:59 UTC of its day); a trial ends after `trialDuration` days.
    cancel_at: Option<DateTime<Utc>>,
    trial_duration: Option<i32>,
    price_per_month: Option<String>,
    price_basis: Option<PriceBasis>,
    #[graphql(default)]
    rebate: bool,
    account_number: Option<String>,
    billing_method: Option<String>,
    notes: Option<String>,
    is_full_article_content: Option<bool>,
}

impl FirmSubscriptionInput {
    fn change(&self) -> FirmSubscriptionChange {
        FirmSubscriptionChange {
            grant: GrantInput {
                subscription_type: self.subscription_type,
                cancel_at: self.cancel_at,
                account_number: self.account_number.clone(),
                price_per_month: self.price_per_month.clone(),
                rebate: self.rebate,
                billing_method: self.billing_method.clone(),
                trial_duration: self.trial_duration,
                notes: self.notes.clone(),
                is_full_article_content: self.is_full_article_content,
            },
            seats: self.seats,
            starts_at: self.starts_at,
            price_basis: self.price_basis.map(|b| if b == PriceBasis::Flat { "flat".into() } else { "seat".into() }),
            version: self.version,
        }
    }
}

#[derive(Default)]
pub struct FirmsMutation;

impl FirmsMutation {
    async fn grant(ctx: &Context<'_>, item: FirmSubscriptionInput, adding: bool) -> Result<FirmSubscriptionObject> {
        let viewer = viewer(ctx)?;
        let role = service::require_staff_writer(viewer)?;
        let state = app_state(ctx);
        let configured = state.config.constants.trial_channel_days;
        let change = item.change();
        let staff = (viewer.user.user_id.as_str(), role);
        let id =
            subscriptions::grant(&state.pool, state.jobs.as_ref(), configured, staff, &item.firm_id, &item.channel_id, &change, adding)
                .await?;
        let row = queries::subscription(&state.pool, Some(&id), None).await?.ok_or(Error::NotFound("Subscription"))?;
        Ok(FirmSubscriptionObject(row))
    }
}

#[Object]
impl FirmsMutation {
    /// Administrators and Editors.
    async fn add_firm(&self, ctx: &Context<'_>, item: FirmInput) -> Result<FirmObject> {
        let viewer = viewer(ctx)?;
        service::require_staff_writer(viewer)?;
        let id = service::add(&app_state(ctx).pool, &viewer.user.user_id, &item.into()).await?;
        load_firm(ctx, &id).await
    }

    /// Administrators and Editors, at the version read.
    async fn edit_firm(&self, ctx: &Context<'_>, item: FirmInput) -> Result<FirmObject> {
        service::require_staff_writer(viewer(ctx)?)?;
        let id = service::edit(&app_state(ctx).pool, &item.into()).await?;
        load_firm(ctx, &id).await
    }

    /// Administrators and Editors: a firm with no live subscription.
    async fn archive_firm(&self, ctx: &Context<'_>, id: ID, version: i32) -> Result<FirmObject> {
        service::require_staff_writer(viewer(ctx)?)?;
        let id = service::archive(&app_state(ctx).pool, &id, version).await?;
        load_firm(ctx, &id).await
    }

    /// Administrators and Editors make a reader a member (a reader belongs to at most one firm).
    async fn add_firm_member(&self, ctx: &Context<'_>, firm_id: ID, user_id: ID) -> Result<FirmObject> {
        service::require_staff_writer(viewer(ctx)?)?;
        service::add_member(&app_state(ctx).pool, &firm_id, &user_id).await?;
        load_firm(ctx, &firm_id).await
    }

    /// Administrators and Editors remove a member; their seats of the firm end at once.
    async fn remove_firm_member(&self, ctx: &Context<'_>, firm_id: ID, user_id: ID) -> Result<FirmObject> {
        service::require_staff_writer(viewer(ctx)?)?;
        service::remove_member(&app_state(ctx).pool, &firm_id, &user_id).await?;
        load_firm(ctx, &firm_id).await
    }

    /// Administrators and Editors make a member one of the firm's administrators, or not.
    async fn set_firm_admin(&self, ctx: &Context<'_>, firm_id: ID, user_id: ID, is_admin: bool) -> Result<FirmObject> {
        service::require_staff_writer(viewer(ctx)?)?;
        service::set_admin(&app_state(ctx).pool, &firm_id, &user_id, is_admin).await?;
        load_firm(ctx, &firm_id).await
    }

    /// Staff who manage the channel: a firm's subscription to it, through the subscription state machine.
    async fn create_firm_subscription(&self, ctx: &Context<'_>, item: FirmSubscriptionInput) -> Result<FirmSubscriptionObject> {
        FirmsMutation::grant(ctx, item, true).await
    }

    /// Staff who manage the channel, at the version read.
    async fn change_firm_subscription(&self, ctx: &Context<'_>, item: FirmSubscriptionInput) -> Result<FirmSubscriptionObject> {
        FirmsMutation::grant(ctx, item, false).await
    }

    /// Staff who manage the channel end a firm's subscription at once; its seats are freed.
    async fn cancel_firm_subscription(&self, ctx: &Context<'_>, firm_id: ID, channel_id: ID, version: i32) -> Result<FirmSubscriptionObject> {
        let viewer = viewer(ctx)?;
        let role = service::require_staff_writer(viewer)?;
        let state = app_state(ctx);
        let staff = (viewer.user.user_id.as_str(), role);
        let id = subscriptions::cancel(&state.pool, state.jobs.as_ref(), staff, &firm_id, &channel_id, version).await?;
        let row = queries::subscription(&state.pool, Some(&id), None).await?.ok_or(Error::NotFound("Subscription"))?;
        Ok(FirmSubscriptionObject(row))
    }

    /// Staff, or the firm's administrator: gives a member a seat. A full subscription answers
    /// BAD_USER_INPUT 'All N seats are in use'.
    async fn assign_firm_seat(&self, ctx: &Context<'_>, firm_subscription_id: ID, user_id: ID) -> Result<bool> {
        seats::assign(&app_state(ctx).pool, viewer(ctx)?, &firm_subscription_id, &user_id).await?;
        Ok(true)
    }

    /// Staff or the firm's administrator take a seat back; a holder gives their own back.
    async fn release_firm_seat(&self, ctx: &Context<'_>, firm_subscription_id: ID, user_id: ID) -> Result<bool> {
        seats::release(&app_state(ctx).pool, viewer(ctx)?, &firm_subscription_id, &user_id).await?;
        Ok(true)
    }

    /// A firm's administrator invites a colleague by email; they join at their first sign-in.
    async fn invite_to_firm(&self, ctx: &Context<'_>, email: String) -> Result<bool> {
        let state = app_state(ctx);
        service::invite(&state.pool, state.jobs.as_ref(), viewer(ctx)?, &email).await?;
        Ok(true)
    }

    /// Withdraws an invitation not yet taken up (staff, or the firm's administrators).
    async fn withdraw_firm_invitation(&self, ctx: &Context<'_>, firm_id: ID, email: String) -> Result<bool> {
        service::withdraw_invitation(&app_state(ctx).pool, viewer(ctx)?, &firm_id, &email).await?;
        Ok(true)
    }

    /// A firm's administrator asks for (or stops) the monthly usage email.
    async fn set_firm_usage_email(&self, ctx: &Context<'_>, on: bool) -> Result<bool> {
        let viewer = viewer(ctx)?;
        let pool = &app_state(ctx).pool;
        service::my_firm(pool, viewer).await?;
        queries::set_usage_email(pool, &viewer.user.user_id, on).await?;
        Ok(on)
    }
}
