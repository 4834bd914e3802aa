//! Embedded Tableau charts (spec 1 §3 'Charts item', §7 `getTableauToken`, `getTableauCharts`):
//! Connected App tokens for the Embedding API, the views of the configured project through
//! Tableau's REST API, and their preview images served through this server, for users with
//! tableauAccess. Without a configured server and connected app the features are off.
//!
//! REST calls sign in as the user asking (the JWT's `sub`), so Tableau applies that user's
//! permissions; the session, the user's view list and the images are kept in memory for a few
//! minutes so opening the chart picker again costs Tableau nothing.

mod graphql;
mod image;
pub mod jwt;
pub mod rest;

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use chrono::{DateTime, Utc};

pub use graphql::TableauQuery;
pub use image::view_image;

use crate::{
    auth::Viewer,
    config::TableauConfig,
    error::{Error, Result},
};
use jwt::ConnectedApp;
use rest::{Rest, RestError, Session, View};

pub const NOT_CONFIGURED: &str = "Embedded charts are not configured.";
pub const TABLEAU_UNAVAILABLE: &str = "Tableau is not available at the moment. Please try again later.";
pub const SIGN_IN_REFUSED: &str = "Tableau refused to sign you in. Ask an administrator to check your Tableau account.";

/// How long a user's view list and a view's image are reused.
pub const CACHE_TTL: Duration = Duration::from_secs(5 * 60);
/// How long a REST session is reused; Tableau's own lasts longer (240 minutes by default), and a
/// refused one is replaced at once.
const SESSION_TTL: Duration = Duration::from_secs(30 * 60);
/// Images kept at most.
const MAX_IMAGES: usize = 500;

/// A value and when it stops being used.
struct Expiring<T> {
    value: T,
    until: Instant,
}

impl<T: Clone> Expiring<T> {
    fn live(&self, now: Instant) -> Option<T> {
        (now < self.until).then(|| self.value.clone())
    }
}

/// A map of expiring values behind a lock held only to read or write it (never across a call).
struct Cache<T>(Mutex<HashMap<String, Expiring<T>>>);

impl<T: Clone> Cache<T> {
    fn new() -> Self {
        Cache(Mutex::new(HashMap::new()))
    }

    fn get(&self, key: &str) -> Option<T> {
        self.0.lock().expect("cache lock").get(key).and_then(|entry| entry.live(Instant::now()))
    }

    fn put(&self, key: &str, value: T, ttl: Duration, max: usize) {
        let now = Instant::now();
        let mut map = self.0.lock().expect("cache lock");
        map.retain(|_, entry| entry.until > now);
        if map.len() >= max
            && let Some(oldest) = map.iter().min_by_key(|(_, entry)| entry.until).map(|(key, _)| key.clone())
        {
            map.remove(&oldest);
        }
        map.insert(key.to_owned(), Expiring { value, until: now + ttl });
    }

    fn remove(&self, key: &str) {
        self.0.lock().expect("cache lock").remove(key);
    }
}

/// A chart the editor can insert: a view of the project.
#[derive(Debug, Clone)]
pub struct Chart {
    pub id: String,
    pub title: String,
    /// `Workbook/View`, the part of the view's URL after `/views/`.
    pub path: String,
    workbook_id: Option<String>,
}

pub struct Tableau {
    server_url: String,
    site: String,
    project: Option<String>,
    username_domain: Option<String>,
    api_base: String,
    app: ConnectedApp,
    http: reqwest::Client,
    sessions: Cache<Session>,
    charts: Cache<Arc<Vec<Chart>>>,
    images: Cache<bytes::Bytes>,
}

impl Tableau {
    /// The client, or None when Tableau is not configured (or the project cannot be filtered on).
    pub fn from_config(config: &TableauConfig) -> Option<Tableau> {
        if !config.is_configured() {
            return None;
        }
        let project = config.project.as_deref().map(str::trim).filter(|p| !p.is_empty()).map(str::to_owned);
        if let Some(project) = &project
            && !rest::is_filterable(project)
        {
            tracing::error!(project, "embedded charts are off: Tableau cannot filter on a project name with ',' or '&'");
            return None;
        }
        let server_url = config.server_url.as_deref().unwrap_or_default().trim().trim_end_matches('/').to_owned();
        let http = match reqwest::Client::builder().connect_timeout(Duration::from_secs(5)).timeout(Duration::from_secs(20)).build() {
            Ok(http) => http,
            Err(error) => {
                tracing::error!(%error, "embedded charts are off: the HTTP client could not be built");
                return None;
            }
        };
        Some(Tableau {
            api_base: format!("{server_url}/api/{}", config.api_version.trim()),
            server_url,
            site: config.site.as_deref().unwrap_or_default().trim().to_owned(),
            project,
            username_domain: config.username_domain.as_deref().map(str::trim).filter(|d| !d.is_empty()).map(str::to_owned),
            app: ConnectedApp::new(
                config.client_id.as_deref().unwrap_or_default().trim(),
                config.secret_id.as_deref().unwrap_or_default().trim(),
                config.secret_value.as_ref().map(|secret| secret.expose()).unwrap_or_default(),
            ),
            http,
            sessions: Cache::new(),
            charts: Cache::new(),
            images: Cache::new(),
        })
    }

    pub fn server_url(&self) -> &str {
        &self.server_url
    }

    pub fn site(&self) -> &str {
        &self.site
    }

    /// Where the browser loads the Embedding API v3 from.
    pub fn embedding_script_url(&self) -> String {
        format!("{}/javascripts/api/tableau.embedding.3.latest.min.js", self.server_url)
    }

    /// The user's Tableau username: their email, on the configured domain when one is set.
    pub fn username(&self, email: &str) -> String {
        match (&self.username_domain, email.rsplit_once('@')) {
            (Some(domain), Some((local, _))) => format!("{local}@{domain}"),
            _ => email.to_owned(),
        }
    }

    /// A token the browser embeds views with, for the user.
    pub fn embed_token(&self, username: &str) -> Result<(String, DateTime<Utc>)> {
        Ok(self.app.sign(username, jwt::EMBED_SCOPES, Utc::now())?)
    }

    /// The project's views the user may see, from the cache or Tableau.
    pub async fn charts(&self, username: &str) -> Result<Arc<Vec<Chart>>> {
        if let Some(charts) = self.charts.get(username) {
            return Ok(charts);
        }
        let project = self.project.as_deref();
        let views = self.with_session(username, |rest, session| async move { rest.views(&session, project).await }).await?;
        let charts = Arc::new(views.into_iter().map(Chart::from).collect::<Vec<_>>());
        self.charts.put(username, charts.clone(), CACHE_TTL, usize::MAX);
        Ok(charts)
    }

    /// The preview image of one of the user's charts (NOT_FOUND for a view not in their list).
    pub async fn image(&self, username: &str, view_id: &str) -> Result<bytes::Bytes> {
        let charts = self.charts(username).await?;
        let chart = charts.iter().find(|chart| chart.id == view_id).ok_or(Error::NotFound("Chart"))?;
        if let Some(image) = self.images.get(view_id) {
            return Ok(image);
        }
        let workbook_id = chart.workbook_id.as_deref().ok_or(Error::NotFound("Chart image"))?;
        let image =
            self.with_session(username, |rest, session| async move { rest.preview_image(&session, workbook_id, view_id).await }).await?;
        self.images.put(view_id, image.clone(), CACHE_TTL, MAX_IMAGES);
        Ok(image)
    }

    /// Runs `call` with the user's REST session, signing in when there is none; a session Tableau
    /// no longer accepts is replaced once.
    async fn with_session<'a, T, F, Fut>(&'a self, username: &str, call: F) -> Result<T>
    where
        F: Fn(Rest<'a>, Session) -> Fut,
        Fut: Future<Output = Result<T, RestError>>,
    {
        let mut fresh = false;
        let session = match self.sessions.get(username) {
            Some(session) => session,
            None => {
                fresh = true;
                self.sign_in(username).await?
            }
        };
        match call(self.rest(), session).await {
            Err(RestError::Unauthorized(detail)) if !fresh => {
                tracing::info!(detail, "Tableau refused a kept session; signing in again");
                self.sessions.remove(username);
                let session = self.sign_in(username).await?;
                call(self.rest(), session).await.map_err(unavailable)
            }
            other => other.map_err(unavailable),
        }
    }

    async fn sign_in(&self, username: &str) -> Result<Session> {
        let (jwt, _) = self.app.sign(username, jwt::REST_SCOPES, Utc::now())?;
        let session = self.rest().sign_in(&jwt, &self.site).await.map_err(|error| match error {
            RestError::Unauthorized(detail) => {
                tracing::warn!(detail, "Tableau refused the connected app sign-in");
                Error::Unavailable(SIGN_IN_REFUSED)
            }
            other => unavailable(other),
        })?;
        self.sessions.put(username, session.clone(), SESSION_TTL, usize::MAX);
        Ok(session)
    }

    fn rest(&self) -> Rest<'_> {
        Rest { http: &self.http, base: &self.api_base }
    }
}

impl From<View> for Chart {
    fn from(view: View) -> Self {
        Chart { path: view.embed_path(), id: view.id, title: view.name, workbook_id: view.workbook.map(|workbook| workbook.id) }
    }
}

/// Tableau failed: the details go to the log (never a token or the secret), the user gets a sentence.
fn unavailable(error: RestError) -> Error {
    tracing::warn!(%error, "Tableau call failed");
    Error::Unavailable(TABLEAU_UNAVAILABLE)
}

/// The Tableau client and the caller's Tableau username: UNAVAILABLE when Tableau is not
/// configured, FORBIDDEN for users without tableauAccess.
pub fn for_viewer<'a>(tableau: Option<&'a Tableau>, viewer: &Viewer) -> Result<(&'a Tableau, String)> {
    let tableau = tableau.ok_or(Error::Unavailable(NOT_CONFIGURED))?;
    viewer.require(crate::auth::ALL_ROLES)?;
    if !viewer.user.tableau_access {
        return Err(Error::Forbidden);
    }
    Ok((tableau, tableau.username(&viewer.user.email)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(project: Option<&str>, domain: Option<&str>) -> TableauConfig {
        TableauConfig {
            server_url: Some("https://tableau.example/".into()),
            site: Some("research".into()),
            client_id: Some("client".into()),
            secret_id: Some("secret-id".into()),
            secret_value: Some("value".parse().unwrap()),
            project: project.map(str::to_owned),
            username_domain: domain.map(str::to_owned),
            api_version: "3.22".into(),
        }
    }

    #[test]
    fn needs_the_server_and_the_whole_connected_app() {
        assert!(Tableau::from_config(&config(None, None)).is_some());
        assert!(Tableau::from_config(&TableauConfig { secret_value: None, ..config(None, None) }).is_none());
        assert!(Tableau::from_config(&TableauConfig { server_url: Some(" ".into()), ..config(None, None) }).is_none());
        assert!(Tableau::from_config(&config(Some("Oil, Gas"), None)).is_none());
    }

    #[test]
    fn usernames_are_emails_on_the_configured_domain() {
        let plain = Tableau::from_config(&config(None, None)).unwrap();
        assert_eq!(plain.username("ann@insights.example"), "ann@insights.example");
        let mapped = Tableau::from_config(&config(None, Some("tableau.example"))).unwrap();
        assert_eq!(mapped.username("ann@insights.example"), "ann@tableau.example");
        assert_eq!(mapped.embedding_script_url(), "https://tableau.example/javascripts/api/tableau.embedding.3.latest.min.js");
    }
}
