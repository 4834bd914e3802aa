//! GraphQL of registered interest: the promotional content interest mutation (article and channel
//! interest are registered by the reading and subscriptions areas) and the Administrators' list.

use async_graphql::{Context, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, NaiveDate, Utc};

use super::{
    Delivery, DeliveryState, InterestKind,
    queries::{self, InterestFilter, InterestRow},
};
use crate::{
    auth::{ALL_ROLES, Role},
    error::{Error, Result},
    graphql::{DEFAULT_PAGE_SIZE, Date, PageParams, app_state, contains_pattern, total_from_page, viewer},
    validation::{BEFORE_MIN_DATE_MESSAGE, optional_id},
};

/// The list and the export are for Administrators.
pub const ADMINISTRATOR: &[Role] = &[Role::Administrator];

#[derive(SimpleObject)]
pub struct Interest {
    #[graphql(name = "_id")]
    id: ID,
    kind: InterestKind,
    item_id: ID,
    /// The article's title, the channel's or the promotional content's name.
    item_name: String,
    user_id: ID,
    user_name: String,
    user_email: String,
    user_company: Option<String>,
    registered_at: DateTime<Utc>,
    /// The addresses emailed, or 'Microsoft Teams'.
    delivered_to: Option<String>,
    delivery_state: DeliveryState,
    /// The last failed attempt's reason.
    delivery_error: Option<String>,
}

impl From<InterestRow> for Interest {
    fn from(r: InterestRow) -> Self {
        Interest {
            id: ID(r.interest_id.to_string()),
            kind: InterestKind::parse(&r.kind).unwrap_or(InterestKind::Article),
            item_id: ID(r.item_id),
            item_name: r.item_name,
            user_id: ID(r.user_id),
            user_name: r.user_name,
            user_email: r.user_email,
            user_company: r.user_company,
            registered_at: r.registered_at,
            delivered_to: r.delivered_to,
            delivery_state: DeliveryState::parse(&r.delivery_state),
            delivery_error: r.last_error,
        }
    }
}

#[derive(InputObject, Default)]
pub struct InterestListParams {
    #[graphql(default = 1)]
    page: i32,
    #[graphql(default_with = "DEFAULT_PAGE_SIZE")]
    page_size: i32,
    kind: Option<InterestKind>,
    item_id: Option<ID>,
    /// Registered on or after this day (UTC).
    from: Option<Date>,
    /// Registered on or before this day (UTC).
    to: Option<Date>,
    /// In the reader's name, email or company.
    search_query: Option<String>,
}

#[derive(SimpleObject)]
pub struct InterestPage {
    interests: Vec<Interest>,
    total: i64,
}

/// The filters of the list and the export, checked: a malformed item id matches nothing (NOT_FOUND
/// like a missing record), a range that ends before it starts is refused (its end is before the
/// minimal date its start sets: spec 1 §5's message).
pub fn filter(
    kind: Option<InterestKind>,
    item_id: Option<&str>,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    search: Option<&str>,
) -> Result<InterestFilter> {
    if let (Some(from), Some(to)) = (from, to)
        && to < from
    {
        return Err(Error::field("to", BEFORE_MIN_DATE_MESSAGE));
    }
    Ok(InterestFilter { kind, item_id: optional_id(item_id, "Item")?, from, to, pattern: contains_pattern(search) })
}

#[derive(InputObject)]
pub struct PromotionalContentInterestInput {
    promotional_content_id: ID,
}

#[derive(Default)]
pub struct InterestsQuery;

#[Object]
impl InterestsQuery {
    /// Administrators: registered interest, newest first, filtered and searched in the database.
    async fn get_all_interests(&self, ctx: &Context<'_>, params: Option<InterestListParams>) -> Result<InterestPage> {
        viewer(ctx)?.require(ADMINISTRATOR)?;
        let params = params.unwrap_or(InterestListParams { page: 1, page_size: DEFAULT_PAGE_SIZE, ..Default::default() });
        let (limit, offset) = PageParams { page: params.page, page_size: params.page_size }.limit_offset()?;
        let filter = filter(
            params.kind,
            params.item_id.as_ref().map(|id| id.as_str()),
            params.from.map(|d| d.0),
            params.to.map(|d| d.0),
            params.search_query.as_deref(),
        )?;
        let pool = &app_state(ctx).pool;
        let rows = queries::page(pool, &filter, limit, offset).await?;
        let total = match total_from_page(rows.len(), limit, offset) {
            Some(total) => total,
            None => queries::count(pool, &filter).await?,
        };
        Ok(InterestPage { interests: rows.into_iter().map(Interest::from).collect(), total })
    }
}

#[derive(Default)]
pub struct InterestsMutation;

#[Object]
impl InterestsMutation {
    /// Any signed-in user, from a promotion page: recorded once a day and delivered to the page's
    /// Teams channel (a webhook, or an email address). True once recorded, however delivery goes.
    async fn notify_registered_interest_in_promotional_content(
        &self,
        ctx: &Context<'_>,
        item: PromotionalContentInterestInput,
    ) -> Result<bool> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let not_found = || Error::NotFound("Promotional content");
        let id = optional_id(Some(&item.promotional_content_id), "Promotional content")?.ok_or_else(not_found)?;
        let state = app_state(ctx);
        let mut tx = state.pool.begin().await?;
        let content = queries::live_content(&mut *tx, &id).await?.ok_or_else(not_found)?;
        let teams_channel = content.teams_channel.ok_or(Error::NotFound("Promotion page"))?;
        let delivery = Delivery::of_teams_channel(&teams_channel);
        super::register(
            &mut tx,
            state.jobs.as_ref(),
            InterestKind::PromotionalContent,
            &content.promotional_content_id,
            &viewer.user.user_id,
            delivery,
        )
        .await?;
        tx.commit().await?;
        Ok(true)
    }
}
