//! The three calls of Tableau's REST API the chart list needs, in its JSON form (`Accept:
//! application/json`): Sign In with a connected-app JWT, Query Views for Site (filtered by
//! project) and Query View Preview Image.

use serde::Deserialize;
use serde_json::json;

/// What went wrong talking to Tableau; the caller logs it and shows the user a plain sentence.
#[derive(Debug, thiserror::Error)]
pub enum RestError {
    #[error("Tableau could not be reached: {0}")]
    Unreachable(#[from] reqwest::Error),
    /// 401: the session (or, on sign-in, the JWT) was refused.
    #[error("Tableau refused the credentials: {0}")]
    Unauthorized(String),
    #[error("Tableau answered {status}: {detail}")]
    Status { status: u16, detail: String },
    #[error("Tableau's answer could not be read: {0}")]
    Malformed(String),
}

/// A signed-in REST session: the credentials token (`X-Tableau-Auth`) and the site's LUID.
#[derive(Debug, Clone)]
pub struct Session {
    pub token: String,
    pub site_id: String,
}

/// A view of the site, as Query Views for Site lists it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct View {
    pub id: String,
    pub name: String,
    /// `Workbook/sheets/View`.
    pub content_url: String,
    pub workbook: Option<Reference>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Reference {
    pub id: String,
}

impl View {
    /// The path after `/views/` in the view's URL (`Workbook/View`), which the Embedding API loads.
    pub fn embed_path(&self) -> String {
        match self.content_url.split_once("/sheets/") {
            Some((workbook, view)) => format!("{workbook}/{view}"),
            None => self.content_url.clone(),
        }
    }
}

/// Tableau's error body: `{"error": {"summary", "detail", "code"}}`.
#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    #[serde(default)]
    summary: String,
    #[serde(default)]
    detail: String,
    #[serde(default)]
    code: String,
}

#[derive(Deserialize)]
struct SignInBody {
    credentials: Credentials,
}

#[derive(Deserialize)]
struct Credentials {
    token: String,
    site: SiteRef,
}

#[derive(Deserialize)]
struct SiteRef {
    id: String,
}

#[derive(Deserialize)]
struct ViewsBody {
    pagination: Pagination,
    #[serde(default)]
    views: ViewList,
}

/// Tableau's JSON writes the pagination numbers as strings.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Pagination {
    total_available: String,
}

/// `"views": {}` when there are none.
#[derive(Deserialize, Default)]
struct ViewList {
    #[serde(default)]
    view: Vec<View>,
}

/// Views asked for per page (Tableau's maximum is 1000).
const PAGE_SIZE: usize = 1000;
/// Pages read at most: a project with more views than this is not a chart picker's.
const MAX_PAGES: usize = 5;
/// Largest image accepted from Tableau.
const MAX_IMAGE_BYTES: usize = 10 * 1024 * 1024;

pub struct Rest<'a> {
    pub http: &'a reqwest::Client,
    /// `{server}/api/{version}`.
    pub base: &'a str,
}

impl Rest<'_> {
    /// Sign In with a connected-app JWT to the site with content URL `site`.
    pub async fn sign_in(&self, jwt: &str, site: &str) -> Result<Session, RestError> {
        let body = json!({ "credentials": { "jwt": jwt, "site": { "contentUrl": site } } });
        let response = self.http.post(format!("{}/auth/signin", self.base)).header("accept", "application/json").json(&body).send().await?;
        let body: SignInBody = read_json(response).await?;
        Ok(Session { token: body.credentials.token, site_id: body.credentials.site.id })
    }

    /// The views of the site, only those of `project` when given, by name.
    pub async fn views(&self, session: &Session, project: Option<&str>) -> Result<Vec<View>, RestError> {
        let mut views = Vec::new();
        for page in 1..=MAX_PAGES {
            let mut query = vec![("pageSize", PAGE_SIZE.to_string()), ("pageNumber", page.to_string()), ("sort", "name:asc".to_owned())];
            if let Some(project) = project {
                query.push(("filter", format!("projectName:eq:{project}")));
            }
            let response = self
                .http
                .get(format!("{}/sites/{}/views", self.base, session.site_id))
                .header("accept", "application/json")
                .header("x-tableau-auth", &session.token)
                .query(&query)
                .send()
                .await?;
            let body: ViewsBody = read_json(response).await?;
            let total: usize = body.pagination.total_available.parse().map_err(|_| RestError::Malformed("pagination".into()))?;
            let count = body.views.view.len();
            views.extend(body.views.view);
            if count < PAGE_SIZE || views.len() >= total {
                break;
            }
        }
        Ok(views)
    }

    /// The view's preview image (a PNG thumbnail).
    pub async fn preview_image(&self, session: &Session, workbook_id: &str, view_id: &str) -> Result<bytes::Bytes, RestError> {
        let response = self
            .http
            .get(format!("{}/sites/{}/workbooks/{workbook_id}/views/{view_id}/previewImage", self.base, session.site_id))
            .header("x-tableau-auth", &session.token)
            .send()
            .await?;
        let response = check(response).await?;
        if response.content_length().is_some_and(|length| length as usize > MAX_IMAGE_BYTES) {
            return Err(RestError::Malformed("the image is too large".into()));
        }
        let bytes = response.bytes().await?;
        if bytes.len() > MAX_IMAGE_BYTES || crate::uploads::ImageKind::sniff(&bytes).is_none() {
            return Err(RestError::Malformed("not an image".into()));
        }
        Ok(bytes)
    }
}

/// Tableau's filter expressions cannot hold these (they separate expressions), nor escape them.
pub fn is_filterable(value: &str) -> bool {
    !value.contains([',', '&'])
}

async fn check(response: reqwest::Response) -> Result<reqwest::Response, RestError> {
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    let text = response.text().await.unwrap_or_default();
    let detail = match serde_json::from_str::<ErrorBody>(&text) {
        Ok(ErrorBody { error }) => format!("{} {}: {}", error.code, error.summary, error.detail),
        Err(_) => text.chars().take(200).collect(),
    };
    Err(if status == reqwest::StatusCode::UNAUTHORIZED {
        RestError::Unauthorized(detail)
    } else {
        RestError::Status { status: status.as_u16(), detail }
    })
}

async fn read_json<T: serde::de::DeserializeOwned>(response: reqwest::Response) -> Result<T, RestError> {
    let response = check(response).await?;
    let bytes = response.bytes().await?;
    serde_json::from_slice(&bytes).map_err(|error| RestError::Malformed(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embed_path_drops_the_sheets_segment() {
        let view = View { id: "v".into(), name: "Sales".into(), content_url: "Regional/sheets/Sales".into(), workbook: None };
        assert_eq!(view.embed_path(), "Regional/Sales");
    }

    #[test]
    fn views_parse_from_tableaus_json() {
        let body: ViewsBody = serde_json::from_value(json!({
            "pagination": { "pageNumber": "1", "pageSize": "1000", "totalAvailable": "1" },
            "views": { "view": [{ "id": "v1", "name": "Sales", "contentUrl": "Regional/sheets/Sales",
                                  "workbook": { "id": "w1" }, "owner": { "id": "o1" }, "project": { "id": "p1" },
                                  "tags": {}, "viewUrlName": "Sales" }] }
        }))
        .unwrap();
        assert_eq!(body.views.view[0].workbook.as_ref().unwrap().id, "w1");
        let empty: ViewsBody = serde_json::from_value(json!({ "pagination": { "totalAvailable": "0" }, "views": {} })).unwrap();
        assert!(empty.views.view.is_empty());
    }

    #[test]
    fn project_names_with_separators_cannot_be_filtered_on() {
        assert!(is_filterable("Oil: 2024"));
        assert!(!is_filterable("Oil, Gas"));
        assert!(!is_filterable("Oil & Gas"));
    }
}
