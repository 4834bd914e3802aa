//! GraphQL of the users area: the `User` object, the identity operations, and the users
//! administration (its rules are in `service`).

use async_graphql::{Context, Enum, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{
    User,
    queries::{self, UserListQuery, UserStats, UserSummary},
    service::{self, ProfileChange},
};
use crate::{
    articles::ArticleTopic,
    auth::{ALL_ROLES, Identity, Role, STAFF, TrialState, is_trial_reader, trial_minutes_left},
    channels::{self, ChannelObject},
    error::{Error, Result},
    graphql::{SortDirection, app_state, checked_limit_offset, contains_pattern, total_from_page, viewer},
    reading,
    subscriptions::{self, ChannelSubscriptionObject},
};

#[Object]
impl User {
    #[graphql(name = "_id")]
    async fn id(&self) -> &str {
        &self.user_id
    }

    /// The identity provider's subject for this user.
    async fn insights_user_id(&self) -> &str {
        &self.subject
    }

    async fn email(&self) -> &str {
        &self.email
    }

    async fn name(&self) -> &str {
        &self.name
    }

    async fn first_name(&self) -> Option<&str> {
        self.first_name.as_deref()
    }

    async fn last_name(&self) -> Option<&str> {
        self.last_name.as_deref()
    }

    async fn company(&self) -> Option<&str> {
        self.company.as_deref()
    }

    async fn phone(&self) -> Option<&str> {
        self.phone.as_deref()
    }

    /// The user's function (job title).
    async fn position(&self) -> Option<&str> {
        self.position.as_deref()
    }

    /// The highest role of the user's scopes; null when they carry no Insights scope.
    async fn role(&self) -> Option<Role> {
        Role::from_scopes(&self.scopes)
    }

    async fn scopes(&self) -> &[String] {
        &self.scopes
    }

    async fn is_internal(&self) -> bool {
        self.is_internal
    }

    /// Whether the user holds the `intelligence` scope.
    async fn intelligence(&self) -> bool {
        self.scopes.iter().any(|s| s == crate::auth::scopes::INTELLIGENCE)
    }

    async fn first_login(&self) -> DateTime<Utc> {
        self.first_login
    }

    async fn last_login(&self) -> Option<DateTime<Utc>> {
        self.last_login
    }

    async fn trial_state(&self, ctx: &Context<'_>) -> TrialState {
        TrialState::from_minutes_left(self.trial_minutes_left(ctx))
    }

    /// Minutes of trial left: -1 without a trial, 0 once expired.
    async fn trial_min_left(&self, ctx: &Context<'_>) -> i64 {
        self.trial_minutes_left(ctx)
    }

    async fn tableau_access(&self) -> bool {
        self.tableau_access
    }

    async fn display_avatar(&self) -> bool {
        self.display_avatar
    }

    async fn version(&self) -> i32 {
        self.version
    }

    /// The first sign-in.
    async fn member_since(&self) -> DateTime<Utc> {
        self.first_login
    }

    /// Articles the user is a contributor of.
    async fn article_count(&self, ctx: &Context<'_>) -> Result<i64> {
        Ok(self.stats(ctx).await?.article_count)
    }

    /// Views of the articles the user is a contributor of.
    async fn views(&self, ctx: &Context<'_>) -> Result<i64> {
        Ok(self.stats(ctx).await?.views)
    }

    /// Whether the user's email is on an internal company domain (only those may show a photo).
    async fn can_have_profile_picture(&self, ctx: &Context<'_>) -> bool {
        service::is_company_email(&self.email, &app_state(ctx).config.internal_email_domains)
    }

    async fn has_profile_picture(&self) -> bool {
        self.profile_picture.is_some()
    }

    /// The active channels the user may publish to: every one for an Administrator; otherwise
    /// those they administer or that they or one of their desks own.
    async fn channels_to_publish(&self, ctx: &Context<'_>) -> Result<Vec<ChannelObject>> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        if viewer.user.user_id != self.user_id && !viewer.role()?.is_staff() {
            return Err(Error::Forbidden);
        }
        let role = Role::from_scopes(&self.scopes);
        channels::channels_to_publish(ctx, &self.user_id, role).await
    }

    /// The firm the user belongs to, if any (the user themself, or staff).
    async fn firm(&self, ctx: &Context<'_>) -> Result<Option<crate::firms::FirmOfUser>> {
        // The session reads it for everyone signed in, a user without an Insights role too.
        if viewer(ctx)?.user.user_id != self.user_id {
            self.require_self_or_staff(ctx)?;
        }
        crate::firms::firm_of_user(ctx, &self.user_id).await
    }

    /// The seats the user's firm gives them, by channel name (the user themself, or staff).
    async fn firm_seats(&self, ctx: &Context<'_>) -> Result<Vec<ReaderSeat>> {
        let viewer = self.require_self_or_staff(ctx)?;
        let seats = if viewer.user.user_id == self.user_id {
            crate::kept::RequestScope::of(ctx).viewer_subscriptions().await?.seats.clone()
        } else {
            crate::firms::queries::seats_of_user(&app_state(ctx).pool, &self.user_id).await?
        };
        Ok(seats.into_iter().map(ReaderSeat).collect())
    }

    /// The user's channel subscriptions in every state, by channel name (the user themself, or staff).
    async fn channel_subscriptions(&self, ctx: &Context<'_>) -> Result<Vec<ChannelSubscriptionObject>> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        let rows = if viewer.user.user_id == self.user_id {
            crate::kept::RequestScope::of(ctx).viewer_subscriptions().await?.rows.clone()
        } else if viewer.role()?.is_staff() {
            subscriptions::queries::of_user(&app_state(ctx).pool, &self.user_id).await?
        } else {
            return Err(Error::Forbidden);
        };
        ChannelSubscriptionObject::with_channels(ctx, rows).await
    }

    /// Published articles from the user's subscribed channels and followed topics, newest first,
    /// leaving out those they have read twice or more (the user themself only).
    async fn recommended_articles(
        &self,
        ctx: &Context<'_>,
        #[graphql(default = 9)] take: i32,
        #[graphql(default = 0)] skip: i32,
    ) -> Result<Vec<reading::ArticleCard>> {
        self.require_self(ctx)?;
        reading::recommended_articles(ctx, take, skip).await
    }

    /// The global email settings (the user themself only).
    async fn email_notification_settings(&self, ctx: &Context<'_>) -> Result<crate::email::graphql::EmailNotificationSettings> {
        self.require_self(ctx)?;
        crate::email::graphql::of_viewer(ctx).await
    }

    /// Topics the user follows, by name (the user themself only).
    async fn followed_categories(&self, ctx: &Context<'_>) -> Result<Vec<ArticleTopic>> {
        self.require_self(ctx)?;
        let followed = reading::read::followed_topics_of(crate::kept::RequestScope::of(ctx), &self.user_id).await?;
        Ok(followed.iter().map(|(id, name)| ArticleTopic { id: id.clone(), name: name.clone() }).collect())
    }
}

impl User {
    /// The caller, when they are this user or staff; FORBIDDEN otherwise.
    fn require_self_or_staff<'a>(&self, ctx: &Context<'a>) -> Result<&'a crate::auth::Viewer> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(ALL_ROLES)?;
        if viewer.user.user_id != self.user_id && !role.is_staff() {
            return Err(Error::Forbidden);
        }
        Ok(viewer)
    }

    /// FORBIDDEN unless the caller is this user (with an Insights role).
    fn require_self(&self, ctx: &Context<'_>) -> Result<()> {
        let viewer = viewer(ctx)?;
        viewer.require(ALL_ROLES)?;
        if viewer.user.user_id != self.user_id {
            return Err(Error::Forbidden);
        }
        Ok(())
    }
}

impl User {
    async fn stats(&self, ctx: &Context<'_>) -> Result<UserStats> {
        match self.stats {
            Some(stats) => Ok(stats),
            None => Ok(queries::stats_of(&app_state(ctx).pool, &self.user_id).await?),
        }
    }

    fn trial_minutes_left(&self, ctx: &Context<'_>) -> i64 {
        let trial_days = app_state(ctx).config.constants.trial_days;
        trial_minutes_left(is_trial_reader(&self.scopes), self.first_login, trial_days, Utc::now())
    }

    /// A profile is complete when the identity provider gave us a name and an email, and, for
    /// clients (external users), their company.
    pub fn is_profile_complete(&self) -> bool {
        !self.name.trim().is_empty()
            && !self.email.trim().is_empty()
            && (self.is_internal || self.company.as_deref().is_some_and(|c| !c.trim().is_empty()))
    }
}

#[derive(SimpleObject)]
pub struct UserFromToken {
    /// True on the user's first sign-in.
    is_new_user: bool,
    user: User,
}

#[derive(SimpleObject)]
pub struct ProfileCompleteness {
    is_profile_complete: bool,
}

#[derive(Default)]
pub struct UsersQuery;

#[Object]
impl UsersQuery {
    /// The signed-in user.
    async fn me(&self, ctx: &Context<'_>) -> Result<User> {
        Ok(viewer(ctx)?.user.clone())
    }

    async fn is_user_profile_complete(&self, ctx: &Context<'_>) -> Result<ProfileCompleteness> {
        Ok(ProfileCompleteness { is_profile_complete: viewer(ctx)?.user.is_profile_complete() })
    }

    /// Staff: a page of users. Default sort: name, then last sign-in (newest first). With
    /// `subscribableToChannel`, only users who can be added to that channel (spec 3 §5 user
    /// search): signed in at least once, and not subscribed to it, except those whose trial ended.
    /// "Subscribed" is having a subscription to the channel at all (the exception says so: an
    /// ended trial is all it leaves out): a reader whose subscription is live, waits for staff, was
    /// rejected or ended otherwise is on the channel's subscriber stats, where staff edit it.
    #[allow(clippy::too_many_arguments)]
    async fn get_paginated_users(
        &self,
        ctx: &Context<'_>,
        #[graphql(default)] r#type: UserListType,
        search_query: Option<String>,
        sort_field: Option<UserSortField>,
        sort_direction: Option<SortDirection>,
        #[graphql(default = 15)] limit: i32,
        #[graphql(default)] offset: i32,
        subscribable_to_channel: Option<ID>,
    ) -> Result<UserPage> {
        viewer(ctx)?.require(STAFF)?;
        let (limit, offset) = checked_limit_offset(limit, offset)?;
        let pattern = contains_pattern(search_query.as_deref());
        let subscribable_to = subscribable_to_channel.map(|id| id.0);
        let query = UserListQuery {
            subscribable_to: subscribable_to.as_deref(),
            role: r#type.role().map(Role::as_str),
            trial_only: r#type == UserListType::Trial,
            pattern: pattern.as_deref(),
            sort: sort_field.unwrap_or_default().column(),
            descending: sort_direction == Some(SortDirection::Desc),
            limit,
            offset,
        };
        let pool = &app_state(ctx).pool;
        let users = queries::list_users(pool, &query).await?;
        let total = match total_from_page(users.len(), limit, offset) {
            Some(total) => total,
            None => queries::count_users(pool, &query).await?,
        };
        Ok(UserPage { users, total })
    }

    /// Staff.
    async fn find_user_by_id(&self, ctx: &Context<'_>, id: ID) -> Result<User> {
        viewer(ctx)?.require(STAFF)?;
        load_user(ctx, &id).await
    }

    /// Staff: users who hold a staff role whose name or email matches (pickers), by name.
    async fn staff_users(
        &self,
        ctx: &Context<'_>,
        search_query: Option<String>,
        #[graphql(default = 20)] limit: i32,
    ) -> Result<Vec<UserSummary>> {
        viewer(ctx)?.require(STAFF)?;
        let pattern = contains_pattern(search_query.as_deref());
        Ok(queries::staff_users(&app_state(ctx).pool, pattern.as_deref(), i64::from(limit.clamp(1, 100))).await?)
    }
}

async fn load_user(ctx: &Context<'_>, id: &str) -> Result<User> {
    if !crate::ids::is_valid_id(id) {
        return Err(Error::NotFound("User"));
    }
    queries::find_by_id(&app_state(ctx).pool, id).await?.ok_or(Error::NotFound("User"))
}

/// The tabs of the users list (spec 2 §2).
#[derive(Enum, Clone, Copy, PartialEq, Eq, Default)]
#[graphql(rename_items = "PascalCase")]
pub enum UserListType {
    #[default]
    All,
    Administrator,
    Editor,
    Contributor,
    Subscriber,
    Trial,
}

impl UserListType {
    fn role(self) -> Option<Role> {
        match self {
            UserListType::Administrator => Some(Role::Administrator),
            UserListType::Editor => Some(Role::Editor),
            UserListType::Contributor => Some(Role::Contributor),
            UserListType::Subscriber => Some(Role::Subscriber),
            UserListType::All | UserListType::Trial => None,
        }
    }
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Default)]
#[graphql(rename_items = "PascalCase")]
pub enum UserSortField {
    #[default]
    Name,
    Email,
    Company,
    Role,
    LastLogin,
    ArticleCount,
    Views,
    TrialMinLeft,
}

impl UserSortField {
    fn column(self) -> &'static str {
        match self {
            UserSortField::Name => "name",
            UserSortField::Email => "email",
            UserSortField::Company => "company",
            UserSortField::Role => "role",
            UserSortField::LastLogin => "lastLogin",
            UserSortField::ArticleCount => "articles",
            UserSortField::Views => "views",
            UserSortField::TrialMinLeft => "trial",
        }
    }
}

#[derive(SimpleObject)]
pub struct UserPage {
    users: Vec<User>,
    total: i64,
}

/// An administrator's edit of a user (spec 2 §2 Users).
#[derive(InputObject)]
pub struct UserInput {
    #[graphql(name = "_id")]
    id: ID,
    version: i32,
    /// Function, max 50.
    position: Option<String>,
    /// Show the contributor photo; only for users on an internal company domain.
    display_avatar: bool,
    /// Only an Administrator may change it.
    tableau_access: bool,
    /// An uploaded image's file name (png or jpeg) to use as the contributor photo; none keeps the current one.
    profile_picture: Option<String>,
}

#[derive(Default)]
pub struct UsersMutation;

#[Object]
impl UsersMutation {
    /// Records a sign-in: creates or updates the user from the id token's claims. The id token must
    /// be valid for our client and belong to the caller of the access token.
    async fn update_user_from_token(&self, ctx: &Context<'_>, id_token: String) -> Result<UserFromToken> {
        let viewer = viewer(ctx)?;
        let state = app_state(ctx);
        // A refusal is a sign-in refused, in the audit trail with its reason.
        let refused = async |error: Error, reason: &str| -> Result<UserFromToken> {
            let change = serde_json::json!({ "outcome": "refused", "reason": reason });
            crate::audit::queries::record(&state.pool, None, Some("sign-in"), Some("user"), Some(&viewer.user.user_id), &change).await?;
            Err(error)
        };
        let claims = match state.tokens.validate(&id_token, &state.config.auth.client_id).await {
            Ok(claims) => claims,
            Err(error) => {
                tracing::info!(%error, "id token refused");
                return refused(Error::Unauthenticated, &format!("id token refused: {error}")).await;
            }
        };
        let config = &state.config;
        let Some(from_id_token) = Identity::from_claims(&claims, &config.auth.email_claim, &config.auth.name_claim) else {
            return refused(Error::Unauthenticated, "id token without a subject or email").await;
        };
        if from_id_token.subject != viewer.identity.subject {
            return refused(Error::Forbidden, "id token of another user").await;
        }
        if !from_id_token.usable_email() {
            return Err(crate::auth::session::unusable_email());
        }
        // Scopes come from the access token: id tokens do not carry API permissions.
        let identity = Identity { scopes: viewer.identity.scopes.clone(), ..from_id_token };
        let is_internal = identity.subject.starts_with(&config.internal_id_prefix);
        let mut tx = state.pool.begin().await?;
        // Nothing is written when a newer token's claims are stored already.
        queries::upsert_from_identity(&mut *tx, &identity, crate::auth::session::issued_at(&claims), is_internal).await?;
        let previous_sign_in = queries::record_sign_in(&mut *tx, &viewer.user.user_id).await?;
        let signed_in = serde_json::json!({ "outcome": "signed in" });
        crate::audit::queries::record(&mut *tx, None, Some("sign-in"), Some("user"), Some(&viewer.user.user_id), &signed_in).await?;
        let user = queries::find_by_subject(&mut *tx, &identity.subject).await?.ok_or(Error::NotFound("User"))?;
        tx.commit().await?;
        // Other servers drop their copy on the change notification; this one at once.
        state.users.forget(&identity.subject);
        Ok(UserFromToken { is_new_user: previous_sign_in.is_none(), user })
    }

    /// Administrators and Editors edit anyone, a Contributor only themself; only an Administrator
    /// may change Tableau access; the photo only for users on an internal company domain.
    async fn edit_user(&self, ctx: &Context<'_>, item: UserInput) -> Result<User> {
        let viewer = viewer(ctx)?;
        let role = viewer.require(STAFF)?;
        let state = app_state(ctx);
        let change = ProfileChange {
            id: item.id.0,
            version: item.version,
            position: item.position,
            display_avatar: item.display_avatar,
            tableau_access: item.tableau_access,
            profile_picture: item.profile_picture,
        };
        let id = service::edit_profile(&state.pool, &state.uploads, (&viewer.user.user_id, role), &change, &state.config.internal_email_domains).await?;
        let user = load_user(ctx, &id).await?;
        // A change by an administrator ends the user's built-in sessions: they sign in again to
        // what the change made of them.
        if state.config.auth.uses_builtin_provider() {
            crate::auth::provider::queries::revoke_refresh_tokens(&state.pool, &user.subject).await?;
        }
        // This server's kept copy goes now; the others drop theirs on the trigger's notification.
        state.users.forget(&user.subject);
        Ok(user)
    }
}

/// A seat a reader's firm gives them: shown on their Subscriptions page as "Provided by {firm}",
/// with no cancel button (they may give it back).
pub struct ReaderSeat(crate::firms::queries::ReaderSeatRow);

#[Object]
impl ReaderSeat {
    async fn firm_subscription_id(&self) -> &str {
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

    async fn starts_at(&self) -> DateTime<Utc> {
        self.0.starts_at
    }

    /// When the firm's subscription ends; null: open-ended.
    async fn cancel_at(&self) -> Option<DateTime<Utc>> {
        self.0.cancel_at
    }

    async fn assigned_at(&self) -> DateTime<Utc> {
        self.0.assigned_at
    }

    /// It gives access now (the firm's subscription is active and has started).
    async fn is_active(&self) -> bool {
        subscriptions::read::seat_access(&self.0).is_active(Utc::now())
    }

    async fn is_full_article_content(&self) -> bool {
        self.0.is_full_article_content
    }

    /// New articles of the channel are emailed (the reader's per-channel setting).
    async fn email_notifications(&self) -> bool {
        self.0.email_notifications
    }

    async fn email_frequency(&self) -> crate::email::graphql::EmailFrequency {
        crate::email::graphql::EmailFrequency::parse(&self.0.email_frequency)
    }
}

