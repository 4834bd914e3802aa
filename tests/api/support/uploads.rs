//! Uploads for tests: tiny real images, an app with its own upload directory (or bucket), and
//! `POST /upload`.

use reqwest::multipart::{Form, Part};
use sqlx::PgPool;

use super::TestApp;

/// A 1×1 PNG.
pub const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\x0f\0\0\x01\x01\0\x05\x18\xd8N\0\0\0\0IEND\xaeB`\x82";
pub const GIF: &[u8] = b"GIF89a\x01\0\x01\0\x80\0\0\0\0\0\xff\xff\xff!\xf9\x04\x01\0\0\0\0,\0\0\0\0\x01\0\x01\0\0\x02\x02D\x01\0;";

pub async fn spawn(pool: PgPool, flags: &[&str]) -> (TestApp, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("insights-uploads-{}", insights::ids::new_id()));
    let mut all = vec!["--upload-dir", dir.to_str().unwrap()];
    all.extend_from_slice(flags);
    (TestApp::spawn_with(pool, &all).await, dir)
}

/// An app whose uploads go to a new bucket of the test S3 server, under `uploads/`; returns the
/// bucket's name.
pub async fn spawn_s3(pool: PgPool, flags: &[&str]) -> (TestApp, String) {
    let server = super::s3::server();
    let bucket = server.bucket().await;
    let url = server.upload_url(&bucket, "uploads");
    let mut all = vec!["--upload-url", url.as_str()];
    all.extend_from_slice(flags);
    (TestApp::spawn_with(pool, &all).await, bucket)
}

pub async fn upload(app: &TestApp, token: Option<&str>, file_name: &str, bytes: &[u8]) -> reqwest::Response {
    let form = Form::new().part("file", Part::bytes(bytes.to_vec()).file_name(file_name.to_owned()));
    let mut request = app.client.post(app.url("/upload")).multipart(form);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

/// Uploads `bytes` as `token`'s user and returns the stored file name; panics on refusal.
pub async fn upload_name(app: &TestApp, token: &str, bytes: &[u8]) -> String {
    let response = upload(app, Some(token), "image.png", bytes).await;
    assert_eq!(response.status(), 201);
    let body: serde_json::Value = response.json().await.unwrap();
    body["fileName"].as_str().unwrap().to_owned()
}
