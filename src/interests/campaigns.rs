//! Campaign links (spec 2 §3 Campaign): the two addresses of a campaign of an article, and the
//! views and readers each campaign brought (the article stats page).

use async_graphql::{ID, SimpleObject};
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

use super::queries;

/// The article page and the marketing article page (no app header), each ending in the
/// `{campaignId}_{campaignType}` segment that attributes a view to the campaign.
pub fn links(public_url: &str, article_id: &str, campaign_id: &str, campaign_type: &str) -> (String, String) {
    let segment = format!("{article_id}/{campaign_id}_{campaign_type}");
    (format!("{public_url}/insights/browse/article/{segment}"), format!("{public_url}/insights/browse/marketing-article/{segment}"))
}

/// A campaign of an article and what it brought.
#[derive(SimpleObject, Debug, Clone, PartialEq, Eq)]
pub struct CampaignStats {
    #[graphql(name = "_id")]
    pub id: ID,
    pub campaign_type: String,
    pub article_link: String,
    pub marketing_article_link: String,
    pub created_at: DateTime<Utc>,
    /// Views attributed to it (one per reader session, on either page; previews included).
    pub views: i64,
    /// Readers who came through it.
    pub unique_readers: i64,
}

/// The campaigns of an article, newest first, with their views, readers and links.
pub async fn of_article(db: impl PgExecutor<'_>, public_url: &str, article_id: &str) -> sqlx::Result<Vec<CampaignStats>> {
    let rows = queries::campaign_views(db, article_id).await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let (article_link, marketing_article_link) = links(public_url, article_id, &r.campaign_id, &r.campaign_type);
            CampaignStats {
                id: ID(r.campaign_id),
                campaign_type: r.campaign_type,
                article_link,
                marketing_article_link,
                created_at: r.created_at,
                views: r.views,
                unique_readers: r.readers,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_links_end_in_the_campaign_segment() {
        let (article, marketing) = links("https://i.example", "a1", "c1", "email");
        assert_eq!(article, "https://i.example/insights/browse/article/a1/c1_email");
        assert_eq!(marketing, "https://i.example/insights/browse/marketing-article/a1/c1_email");
    }
}
