//! `POST /upload` and `GET /uploads/{name}`: images checked by content and size, generated names.

use serde_json::Value;
use sqlx::PgPool;

use crate::support::{
    TestRole,
    uploads::{GIF, PNG, spawn, upload},
};

#[sqlx::test(migrations = "./migrations")]
async fn an_image_is_stored_under_a_generated_name_and_served_with_its_type(pool: PgPool) {
    let (app, dir) = spawn(pool, &[]).await;
    let token = app.token(TestRole::Editor).await;
    let response = upload(&app, Some(&token), "../../evil name.png", PNG).await;
    assert_eq!(response.status(), 201);
    let body: Value = response.json().await.unwrap();
    let name = body["fileName"].as_str().unwrap();
    assert!(insights::uploads::is_upload_name(name) && name.ends_with(".png"), "{name}");
    assert_eq!(body["link"], format!("/uploads/{name}"));
    assert_eq!(body["contentType"], "image/png");
    assert!(dir.join(name).exists(), "stored in the upload directory");

    let served = app.client.get(app.url(&format!("/uploads/{name}"))).send().await.unwrap();
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "image/png");
    assert_eq!(served.headers()["x-content-type-options"], "nosniff");
    assert_eq!(served.bytes().await.unwrap().as_ref(), PNG);

    let gif: Value = upload(&app, Some(&token), "anim.gif", GIF).await.json().await.unwrap();
    assert_eq!(gif["contentType"], "image/gif");
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrations = "./migrations")]
async fn the_type_comes_from_the_content_not_the_name(pool: PgPool) {
    let (app, dir) = spawn(pool, &[]).await;
    let token = app.token(TestRole::Contributor).await;

    // A PNG renamed .pdf is still a PNG: stored and served as one.
    let renamed = upload(&app, Some(&token), "report.pdf", PNG).await;
    assert_eq!(renamed.status(), 201);
    let body: Value = renamed.json().await.unwrap();
    assert!(body["fileName"].as_str().unwrap().ends_with(".png"));

    // A text file renamed .png is refused.
    let text = upload(&app, Some(&token), "photo.png", b"<script>alert(1)</script> not an image").await;
    assert_eq!(text.status(), 400);
    let error: Value = text.json().await.unwrap();
    assert_eq!(error["code"], "BAD_USER_INPUT");
    assert!(error["fields"]["file"].as_str().unwrap().contains("File format not supported"), "{error}");

    // So is a PDF, and an empty file.
    assert_eq!(upload(&app, Some(&token), "doc.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n").await.status(), 400);
    assert_eq!(upload(&app, Some(&token), "empty.png", b"").await.status(), 400);
    let stored = std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
    assert_eq!(stored, 1, "only the real image was stored");
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrations = "./migrations")]
async fn a_file_over_the_limit_is_refused(pool: PgPool) {
    let (app, dir) = spawn(pool, &["--upload-max-image-bytes", "1048576"]).await;
    let token = app.token(TestRole::Editor).await;
    let mut big = PNG.to_vec();
    big.resize(1024 * 1024 + 1, 0);
    let response = upload(&app, Some(&token), "big.png", &big).await;
    assert_eq!(response.status(), 413);
    let mut fits = PNG.to_vec();
    fits.resize(1024 * 1024, 0);
    assert_eq!(upload(&app, Some(&token), "fits.png", &fits).await.status(), 201);
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrations = "./migrations")]
async fn uploading_needs_a_staff_token(pool: PgPool) {
    let (app, dir) = spawn(pool, &[]).await;
    assert_eq!(upload(&app, None, "a.png", PNG).await.status(), 401);
    assert_eq!(upload(&app, Some("garbage"), "a.png", PNG).await.status(), 401);
    let reader = app.token(TestRole::Subscriber).await;
    assert_eq!(upload(&app, Some(&reader), "a.png", PNG).await.status(), 403);
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrations = "./migrations")]
async fn only_generated_names_are_served(pool: PgPool) {
    let (app, _dir) = spawn(pool, &[]).await;
    for path in ["/uploads/..%2F..%2Fetc%2Fpasswd", "/uploads/5f9b2c3e1a2b3c4d5e6f7a8b.svg", &format!("/uploads/{}.png", insights::ids::new_id())] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
    }
}
