//! Where uploads live: one `UploadStore` over the `object_store` crate, a local directory
//! (`INSIGHTS_UPLOAD_DIR`) or a bucket (`INSIGHTS_UPLOAD_URL`: S3 and S3-compatible servers, GCS,
//! Azure), so that several servers share the files. Every reader and writer of upload files goes
//! through it; names are always server-generated (`is_upload_name`), so nothing leaves the prefix.
//! A missing object is `None`; any other failure is a `StoreError`, which the API answers with
//! 503 UNAVAILABLE (the details are logged, never credentials).

use std::{sync::Arc, time::Duration};

use bytes::Bytes;
use object_store::{
    Attribute, Attributes, BackoffConfig, ObjectStore, ObjectStoreExt, ObjectStoreScheme, PutOptions, PutPayload, RetryConfig,
    aws::AmazonS3Builder, azure::MicrosoftAzureBuilder, gcp::GoogleCloudStorageBuilder, local::LocalFileSystem, path::Path,
};
use sha2::{Digest, Sha256};
use url::Url;

use super::is_upload_name;
use crate::{config::Uploads, error::Error};

/// What a client is told when the store cannot be reached (503 UNAVAILABLE).
pub const UNREACHABLE_MESSAGE: &str = "The file store is unreachable; try again shortly";

/// A name no upload has (ids are random), headed to see that the store answers.
const PROBE_NAME: &str = "000000000000000000000000.png";

/// A failure of the store itself (not a missing object).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// `cause`: the store's error with the causes it does not already say (down to e.g.
    /// "Connection refused"), as one text: its own chain repeats itself.
    #[error("the upload store {store} is unreachable: {cause}")]
    Unreachable { store: String, cause: String },
    #[error("the upload store {store} could not be set up: {reason}")]
    NotSetUp { store: String, reason: String },
    #[error("{name} in {store} differs from the original: {reason}")]
    Mismatch { store: String, name: String, reason: String },
}

impl From<StoreError> for Error {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Mismatch { .. } => Error::Internal(error.into()),
            _ => {
                tracing::warn!(error = %error, "upload store unreachable");
                Error::Unavailable(UNREACHABLE_MESSAGE)
            }
        }
    }
}

/// The upload files, wherever they are kept.
#[derive(Debug)]
pub struct UploadStore {
    /// Shown in logs and messages: the directory, or the URL without its query.
    label: String,
    /// A bucket (which keeps content types), not a local directory.
    remote: bool,
    prefix: Path,
    /// The store, or why it could not be built (every operation then fails with that reason).
    store: Result<Arc<dyn ObjectStore>, String>,
}

/// `INSIGHTS_UPLOAD_URL`: a bucket URL whose query (store options, perhaps credentials) is never
/// shown: `Debug` and `label` print it without.
#[derive(Clone)]
pub struct StoreUrl(Url);

impl StoreUrl {
    /// The URL without user, password, query or fragment.
    pub fn label(&self) -> String {
        label_of(&self.0)
    }
}

impl std::fmt::Debug for StoreUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StoreUrl({})", self.label())
    }
}

impl std::str::FromStr for StoreUrl {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, String> {
        parse_url(value).map(StoreUrl)
    }
}

/// Validates `INSIGHTS_UPLOAD_URL` when the configuration is read: a supported scheme and options
/// the store knows (a misspelt one would otherwise be ignored).
fn parse_url(value: &str) -> Result<Url, String> {
    let url = Url::parse(value.trim()).map_err(|e| format!("not a URL: {e}"))?;
    let (scheme, _) = ObjectStoreScheme::parse(&url).map_err(|e| e.to_string())?;
    for (key, _) in url.query_pairs() {
        let key = key.to_ascii_lowercase();
        let known = match scheme {
            ObjectStoreScheme::AmazonS3 => key.parse::<object_store::aws::AmazonS3ConfigKey>().is_ok(),
            ObjectStoreScheme::GoogleCloudStorage => key.parse::<object_store::gcp::GoogleConfigKey>().is_ok(),
            ObjectStoreScheme::MicrosoftAzure => key.parse::<object_store::azure::AzureConfigKey>().is_ok(),
            _ => false,
        };
        if !known {
            return Err(format!("{key} is not an option of this store"));
        }
    }
    match scheme {
        ObjectStoreScheme::AmazonS3 | ObjectStoreScheme::GoogleCloudStorage | ObjectStoreScheme::MicrosoftAzure => Ok(url),
        ObjectStoreScheme::Local => match url.to_file_path() {
            Ok(_) if url.query().is_none() => Ok(url),
            _ => Err("a file: URL must be an absolute path without options".to_owned()),
        },
        _ => Err("use s3://, gs://, az:// (or abfs://) or file://".to_owned()),
    }
}

/// The URL as logged: no user, password, query or fragment.
fn label_of(url: &Url) -> String {
    let mut shown = url.clone();
    let _ = shown.set_username("");
    let _ = shown.set_password(None);
    shown.set_query(None);
    shown.set_fragment(None);
    shown.to_string()
}

/// Failures are retried a little (S3 asks for it under load), but a store that does not answer is
/// reported within seconds instead of holding the request for minutes. (The client's own timeouts,
/// 5 s to connect and 30 s a request, are the crate's defaults, set by `*_TIMEOUT` settings.)
fn retry() -> RetryConfig {
    RetryConfig { backoff: BackoffConfig::default(), max_retries: 3, retry_timeout: Duration::from_secs(10) }
}

/// A bucket store from its URL: the builder's own environment settings (AWS_*, GOOGLE_*, AZURE_*)
/// first, then the URL's query options.
fn bucket(url: &Url, scheme: ObjectStoreScheme) -> object_store::Result<Arc<dyn ObjectStore>> {
    // Its reqwest client uses rustls without a provider of its own: the process's, ring.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut base = url.clone();
    base.set_query(None);
    let options: Vec<(String, String)> = url.query_pairs().map(|(k, v)| (k.to_ascii_lowercase(), v.into_owned())).collect();
    macro_rules! build {
        ($builder:ty) => {{
            let mut builder = <$builder>::from_env().with_url(base.as_str()).with_retry(retry());
            for (key, value) in options {
                builder = builder.with_config(key.parse()?, value);
            }
            Arc::new(builder.build()?) as Arc<dyn ObjectStore>
        }};
    }
    Ok(match scheme {
        ObjectStoreScheme::AmazonS3 => build!(AmazonS3Builder),
        ObjectStoreScheme::GoogleCloudStorage => build!(GoogleCloudStorageBuilder),
        ObjectStoreScheme::MicrosoftAzure => build!(MicrosoftAzureBuilder),
        _ => return Err(object_store::Error::NotSupported { source: format!("the store of {}", label_of(url)).into() }),
    })
}

fn local(dir: &std::path::Path) -> Result<Arc<dyn ObjectStore>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the directory: {e}"))?;
    LocalFileSystem::new_with_prefix(dir).map(|store| Arc::new(store) as Arc<dyn ObjectStore>).map_err(|e| e.to_string())
}

impl UploadStore {
    /// The store the configuration names. Never fails: a store that cannot be built answers every
    /// operation with the reason (the start-up check logs it).
    pub fn from_config(config: &Uploads) -> UploadStore {
        let Some(StoreUrl(url)) = &config.url else {
            return UploadStore {
                label: config.dir.display().to_string(),
                remote: false,
                prefix: Path::default(),
                store: local(&config.dir),
            };
        };
        let label = label_of(url);
        match ObjectStoreScheme::parse(url) {
            Ok((ObjectStoreScheme::Local, _)) => {
                let store = url.to_file_path().map_err(|()| "not an absolute path".to_owned()).and_then(|dir| local(&dir));
                UploadStore { label, remote: false, prefix: Path::default(), store }
            }
            Ok((scheme, prefix)) => UploadStore { label, remote: true, prefix, store: bucket(url, scheme).map_err(|e| e.to_string()) },
            Err(error) => UploadStore { label, remote: true, prefix: Path::default(), store: Err(error.to_string()) },
        }
    }

    /// A local directory store (for tools and tests).
    pub fn local(dir: &std::path::Path) -> UploadStore {
        UploadStore { label: dir.display().to_string(), remote: false, prefix: Path::default(), store: local(dir) }
    }

    /// The directory or the URL (without options), for messages.
    pub fn label(&self) -> &str {
        &self.label
    }

    fn store(&self) -> Result<&Arc<dyn ObjectStore>, StoreError> {
        self.store.as_ref().map_err(|reason| StoreError::NotSetUp { store: self.label.clone(), reason: reason.clone() })
    }

    fn location(&self, name: &str) -> Path {
        // `join` escapes separators and dots, so even a bad name stays under the prefix.
        self.prefix.clone().join(name)
    }

    fn unreachable(&self, error: object_store::Error) -> StoreError {
        let mut cause = error.to_string();
        let mut source = std::error::Error::source(&error);
        while let Some(inner) = source {
            let text = inner.to_string();
            if !cause.contains(&text) {
                cause = format!("{cause}: {text}");
            }
            source = inner.source();
        }
        StoreError::Unreachable { store: self.label.clone(), cause }
    }

    /// Stores `bytes` under `name` (a generated upload name), with its content type in a bucket.
    pub async fn put(&self, name: &str, bytes: impl Into<Bytes>, content_type: &'static str) -> Result<(), StoreError> {
        debug_assert!(is_upload_name(name), "{name}");
        let mut options = PutOptions::default();
        if self.remote {
            options.attributes = Attributes::from_iter([(Attribute::ContentType, content_type)]);
        }
        let payload = PutPayload::from_bytes(bytes.into());
        self.store()?.put_opts(&self.location(name), payload, options).await.map_err(|e| self.unreachable(e))?;
        Ok(())
    }

    /// The bytes of upload `name`; None when there is no such upload.
    pub async fn get(&self, name: &str) -> Result<Option<Bytes>, StoreError> {
        if !is_upload_name(name) {
            return Ok(None);
        }
        let store = self.store()?;
        let read = async { store.get(&self.location(name)).await?.bytes().await };
        match read.await {
            Ok(bytes) => Ok(Some(bytes)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(self.unreachable(error)),
        }
    }

    /// The size of upload `name`; None when there is no such upload.
    pub async fn head(&self, name: &str) -> Result<Option<u64>, StoreError> {
        if !is_upload_name(name) {
            return Ok(None);
        }
        match self.store()?.head(&self.location(name)).await {
            Ok(meta) => Ok(Some(meta.size)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(self.unreachable(error)),
        }
    }

    /// Whether the store answers (a HEAD of a name no upload has).
    pub async fn check(&self) -> Result<(), StoreError> {
        self.head(PROBE_NAME).await.map(|_| ())
    }

    /// The start-up check of `serve` and `worker`: logs where uploads are, or a clear error naming
    /// the store (the process runs on; uploads answer 503 until the store answers).
    pub async fn check_at_startup(&self) -> bool {
        match self.check().await {
            Ok(()) => {
                tracing::info!("uploads in {}", self.label);
                true
            }
            Err(error) => {
                tracing::error!(store = %self.label, "{error}; uploads and image requests will fail until it answers");
                false
            }
        }
    }

    /// Checks a copy of `original` stored under `name`: its size, then the SHA-256 of a re-read.
    pub async fn verify(&self, name: &str, original: &[u8]) -> Result<(), StoreError> {
        let mismatch = |reason: String| StoreError::Mismatch { store: self.label.clone(), name: name.to_owned(), reason };
        match self.head(name).await? {
            None => return Err(mismatch("missing after the copy".to_owned())),
            Some(size) if size != original.len() as u64 => return Err(mismatch(format!("{size} bytes instead of {}", original.len()))),
            Some(_) => {}
        }
        let copy = self.get(name).await?.ok_or_else(|| mismatch("missing after the copy".to_owned()))?;
        if Sha256::digest(&copy) != Sha256::digest(original) {
            return Err(mismatch("the content hash differs".to_owned()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_a_bucket_with_known_options() {
        assert!(parse_url("s3://bucket/prefix").is_ok());
        assert!(parse_url("s3://bucket/prefix?endpoint=http://127.0.0.1:9000&allow_http=true").is_ok());
        assert!(parse_url("gs://bucket").is_ok());
        assert!(parse_url("az://container/prefix").is_ok());
        assert!(parse_url("file:///var/lib/insights/uploads").is_ok());
        assert!(parse_url("s3://bucket?access_key_id=x&secret_access_key=y").is_ok());
        assert!(parse_url("s3://bucket?colour=blue").unwrap_err().contains("not an option"));
        assert!(parse_url("https://example.com/files").is_err());
        assert!(parse_url("memory:///").is_err());
        assert!(parse_url("bucket/prefix").is_err());
    }

    #[test]
    fn the_url_is_shown_without_options_or_user() {
        let url: StoreUrl = "s3://user:pw@bucket/prefix?secret_access_key=hidden".parse().unwrap();
        assert_eq!(url.label(), "s3://bucket/prefix");
        assert_eq!(format!("{url:?}"), "StoreUrl(s3://bucket/prefix)");
    }

    #[tokio::test]
    async fn a_local_store_keeps_files_under_their_names() {
        let dir = std::env::temp_dir().join(format!("insights-store-{}", crate::ids::new_id()));
        let store = UploadStore::local(&dir);
        let name = format!("{}.png", crate::ids::new_id());
        assert_eq!(store.head(&name).await.unwrap(), None);
        assert_eq!(store.get(&name).await.unwrap(), None);
        store.put(&name, b"png bytes".to_vec(), "image/png").await.unwrap();
        assert_eq!(std::fs::read(dir.join(&name)).unwrap(), b"png bytes");
        assert_eq!(store.head(&name).await.unwrap(), Some(9));
        assert_eq!(store.get(&name).await.unwrap().unwrap().as_ref(), b"png bytes");
        store.verify(&name, b"png bytes").await.unwrap();
        assert!(matches!(store.verify(&name, b"png bytez").await, Err(StoreError::Mismatch { .. })));
        assert_eq!(store.get("../etc/passwd").await.unwrap(), None);
        store.check().await.unwrap();
        std::fs::remove_dir_all(dir).unwrap();
    }
}
