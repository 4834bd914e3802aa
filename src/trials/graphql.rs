//! `trialPolicy` / `editTrialPolicy`, `trialTerms` / `editTrialTerms`: readers read them (the
//! trial request shows the terms); Administrators change them, each change a new version.

use async_graphql::{Context, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::queries;
use crate::{
    auth::{ALL_ROLES, Role},
    error::Result,
    graphql::{app_state, viewer},
};

#[derive(SimpleObject)]
pub struct TrialPolicy {
    /// The longest trial, in days.
    max_days: i32,
    /// Days after a trial or subscription of a channel ended during which no new trial of it is
    /// given to the reader or to a reader of their firm (0: none).
    cool_off_days: i32,
    /// The reader accepts the trial terms with the request.
    terms_required: bool,
    version: i32,
    updated_at: DateTime<Utc>,
}

impl From<queries::PolicyRow> for TrialPolicy {
    fn from(row: queries::PolicyRow) -> Self {
        TrialPolicy {
            max_days: row.max_days,
            cool_off_days: row.cool_off_days,
            terms_required: row.terms_required,
            version: row.version,
            updated_at: row.updated_at,
        }
    }
}

#[derive(SimpleObject)]
pub struct TrialTerms {
    /// Each edit is a new version; a request accepts one.
    version: i32,
    /// Sanitised HTML.
    html: String,
    created_at: DateTime<Utc>,
}

impl From<queries::TermsRow> for TrialTerms {
    fn from(row: queries::TermsRow) -> Self {
        TrialTerms { version: row.version, html: row.html, created_at: row.created_at }
    }
}

#[derive(InputObject)]
pub struct TrialPolicyInput {
    max_days: i32,
    cool_off_days: i32,
    terms_required: bool,
    version: i32,
}

#[derive(InputObject)]
pub struct TrialTermsInput {
    html: String,
    /// The version the text was edited from (CONFLICT when another was saved since).
    version: i32,
}

#[derive(Default)]
pub struct TrialsQuery;

#[Object]
impl TrialsQuery {
    /// The trial policy (every signed-in role: the trial request follows it).
    async fn trial_policy(&self, ctx: &Context<'_>) -> Result<TrialPolicy> {
        viewer(ctx)?.require(ALL_ROLES)?;
        Ok(queries::policy(&app_state(ctx).pool).await?.into())
    }

    /// The current trial terms.
    async fn trial_terms(&self, ctx: &Context<'_>) -> Result<TrialTerms> {
        viewer(ctx)?.require(ALL_ROLES)?;
        Ok(queries::current_terms(&app_state(ctx).pool).await?.into())
    }
}

#[derive(Default)]
pub struct TrialsMutation;

#[Object]
impl TrialsMutation {
    /// Administrators: the longest trial (1 to 100 days), the cool-off (0 to 3650 days) and whether
    /// readers accept the terms; based on `version` (CONFLICT when stale).
    async fn edit_trial_policy(&self, ctx: &Context<'_>, item: TrialPolicyInput) -> Result<TrialPolicy> {
        let viewer = viewer(ctx)?;
        viewer.require(&[Role::Administrator])?;
        let change = super::PolicyChange { max_days: item.max_days, cool_off_days: item.cool_off_days, terms_required: item.terms_required };
        Ok(super::edit_policy(&app_state(ctx).pool, &viewer.user.user_id, &change, item.version).await?.into())
    }

    /// Administrators: new trial terms (sanitised HTML), the next version; based on `version`
    /// (CONFLICT when another was saved since). Earlier versions stay: acceptances name theirs.
    async fn edit_trial_terms(&self, ctx: &Context<'_>, item: TrialTermsInput) -> Result<TrialTerms> {
        let viewer = viewer(ctx)?;
        viewer.require(&[Role::Administrator])?;
        Ok(super::edit_terms(app_state(ctx), &viewer.user.user_id, &item.html, item.version).await?.into())
    }
}
