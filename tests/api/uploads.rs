//! `POST /upload` and `GET /uploads/{name}`: images checked by content and size, generated names;
//! the same on an S3 bucket (moto's server), and a store that does not answer.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{
    TestRole, s3,
    uploads::{GIF, PNG, spawn, spawn_s3, upload},
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
    for path in
        ["/uploads/..%2F..%2Fetc%2Fpasswd", "/uploads/5f9b2c3e1a2b3c4d5e6f7a8b.svg", &format!("/uploads/{}.png", insights::ids::new_id())]
    {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
    }
    let _ = std::fs::remove_dir_all(_dir);
}

/// What the upload directory holds besides uploads (e.g. a PDF's working copy): nothing.
fn not_uploads(dir: &std::path::Path) -> Vec<String> {
    let names = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned());
    names.filter(|name| !insights::uploads::is_upload_name(name)).collect()
}

/// A two-page PDF, written out with its cross-reference table.
fn two_page_pdf() -> Vec<u8> {
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 5 0 R >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 5 0 R >>",
        "<< /Length 34 >>\nstream\n0 0 1 rg 10 10 180 80 re f\nendstream",
    ];
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", i + 1).as_bytes());
    }
    let xref = pdf.len();
    pdf.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for offset in offsets {
        pdf.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes());
    pdf
}

async fn upload_pdf(app: &crate::support::TestApp, token: Option<&str>, file_name: &str, bytes: Vec<u8>) -> reqwest::Response {
    let form = reqwest::multipart::Form::new().part("file", reqwest::multipart::Part::bytes(bytes).file_name(file_name.to_owned()));
    let mut request = app.client.post(app.url("/upload-file")).multipart(form);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

#[sqlx::test(migrations = "./migrations")]
async fn a_pdf_becomes_one_stored_image_per_page(pool: PgPool) {
    let (app, dir) = spawn(pool, &[]).await;
    let token = app.token(TestRole::Contributor).await;
    let response = upload_pdf(&app, Some(&token), "deck.pdf", two_page_pdf()).await;
    assert_eq!(response.status(), 201);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["pageCount"], 2, "{body}");
    for page in body["pages"].as_array().unwrap() {
        let name = page["fileName"].as_str().unwrap();
        assert!(insights::uploads::is_upload_name(name) && name.ends_with(".png"), "{name}");
        let served = app.client.get(app.url(page["link"].as_str().unwrap())).send().await.unwrap();
        assert_eq!(served.headers()["content-type"], "image/png");
        let bytes = served.bytes().await.unwrap();
        assert_eq!(imagesize::blob_size(&bytes).unwrap().width, 306, "200 pt at 110 dpi");
    }
    assert_eq!(not_uploads(&dir), Vec::<String>::new(), "only the pages are in the upload directory");
    let _ = std::fs::remove_dir_all(dir);
}

#[sqlx::test(migrations = "./migrations")]
async fn only_pdfs_of_at_most_20_mb_are_taken(pool: PgPool) {
    let (app, dir) = spawn(pool, &[]).await;
    let token = app.token(TestRole::Editor).await;
    let renamed = upload_pdf(&app, Some(&token), "report.pdf", PNG.to_vec()).await;
    assert_eq!(renamed.status(), 400);
    let body: Value = renamed.json().await.unwrap();
    assert_eq!(
        (&body["code"], &body["fields"]["file"]),
        (&json!("BAD_USER_INPUT"), &json!("File format not supported: upload a PDF")),
        "{body}"
    );

    let mut big = two_page_pdf();
    big.resize(21 * 1024 * 1024, b' ');
    assert_eq!(upload_pdf(&app, Some(&token), "big.pdf", big).await.status(), 413);
    let broken = upload_pdf(&app, Some(&token), "broken.pdf", b"%PDF-1.7\nnot really".to_vec()).await;
    assert_eq!(broken.status(), 400);
    assert_eq!(upload_pdf(&app, None, "deck.pdf", two_page_pdf()).await.status(), 401);
    let reader = app.token(TestRole::Subscriber).await;
    assert_eq!(upload_pdf(&app, Some(&reader), "deck.pdf", two_page_pdf()).await.status(), 403);
    let _ = std::fs::remove_dir_all(dir);
}

#[sqlx::test(migrations = "./migrations")]
async fn without_pdftoppm_a_pdf_is_refused_with_503_not_an_internal_error(pool: PgPool) {
    let missing = std::env::temp_dir().join(format!("no-pdftoppm-{}", insights::ids::new_id()));
    let (app, dir) = spawn(pool, &["--pdftoppm", missing.to_str().unwrap()]).await;
    assert!(!app.state.pdf_renderer.check_at_startup().await, "the start-up check sees it missing");
    let token = app.token(TestRole::Editor).await;
    let expected = json!({ "code": "UNAVAILABLE", "message": insights::uploads::UNAVAILABLE_MESSAGE });
    // Twice: once known missing from the check, and the server still answers the same.
    for _ in 0..2 {
        let response = upload_pdf(&app, Some(&token), "deck.pdf", two_page_pdf()).await;
        assert_eq!(response.status(), 503);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body, expected);
    }
    // Disappearing at run time: believed present, the spawn fails with NotFound.
    let (app, dir2) = spawn(app.pool.clone(), &["--pdftoppm", missing.to_str().unwrap()]).await;
    assert!(app.state.pdf_renderer.is_available(), "not checked yet");
    let token = app.token(TestRole::Editor).await;
    let response = upload_pdf(&app, Some(&token), "deck.pdf", two_page_pdf()).await;
    assert_eq!(response.status(), 503);
    assert_eq!(response.json::<Value>().await.unwrap(), expected);
    assert!(!app.state.pdf_renderer.is_available(), "remembered as missing");
    // Images are unaffected, and authentication still comes first.
    assert_eq!(upload(&app, Some(&token), "a.png", PNG).await.status(), 201);
    assert_eq!(upload_pdf(&app, None, "deck.pdf", two_page_pdf()).await.status(), 401);
    assert_eq!(not_uploads(&dir2), Vec::<String>::new(), "nothing but uploads in the upload directory");
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(dir2);
}

#[sqlx::test(migrations = "./migrations")]
async fn on_s3_an_image_goes_to_the_bucket_and_comes_back_byte_identical(pool: PgPool) {
    let (app, bucket) = spawn_s3(pool, &[]).await;
    let token = app.token(TestRole::Editor).await;
    for (bytes, content_type) in [(PNG, "image/png"), (GIF, "image/gif")] {
        let response = upload(&app, Some(&token), "picture", bytes).await;
        assert_eq!(response.status(), 201);
        let name = response.json::<Value>().await.unwrap()["fileName"].as_str().unwrap().to_owned();
        let stored = s3::server().object(&bucket, &format!("uploads/{name}")).await.expect("the file is in the bucket");
        assert_eq!(stored, (bytes.to_vec(), content_type.to_owned()), "stored as sent, with its type");

        let served = app.client.get(app.url(&format!("/uploads/{name}"))).send().await.unwrap();
        assert_eq!(served.status(), 200);
        assert_eq!(served.headers()["content-type"], content_type);
        assert_eq!(served.headers()["x-content-type-options"], "nosniff");
        assert_eq!(served.bytes().await.unwrap().as_ref(), bytes);
        assert_eq!(app.state.uploads.head(&name).await.unwrap(), Some(bytes.len() as u64), "sizes for channel images");
    }
    assert_eq!(s3::server().keys(&bucket).await.len(), 2, "nothing else was written");
}

#[sqlx::test(migrations = "./migrations")]
async fn on_s3_a_missing_object_is_not_found(pool: PgPool) {
    let (app, _bucket) = spawn_s3(pool, &[]).await;
    let response = app.client.get(app.url(&format!("/uploads/{}.png", insights::ids::new_id()))).send().await.unwrap();
    assert_eq!(response.status(), 404);
    assert_eq!(response.json::<Value>().await.unwrap()["code"], "NOT_FOUND");
    assert!(app.state.uploads.check().await.is_ok(), "the start-up check sees the store");
}

#[sqlx::test(migrations = "./migrations")]
async fn on_s3_a_pdfs_pages_land_in_the_bucket(pool: PgPool) {
    let (app, bucket) = spawn_s3(pool, &[]).await;
    if !app.state.pdf_renderer.check().await {
        eprintln!("skipped: pdftoppm (poppler-utils) is not installed");
        return;
    }
    let token = app.token(TestRole::Editor).await;
    let response = upload_pdf(&app, Some(&token), "deck.pdf", two_page_pdf()).await;
    assert_eq!(response.status(), 201);
    let body: Value = response.json().await.unwrap();
    let mut names: Vec<String> =
        body["pages"].as_array().unwrap().iter().map(|p| format!("uploads/{}", p["fileName"].as_str().unwrap())).collect();
    names.sort();
    assert_eq!(names.len(), 2, "{body}");
    assert_eq!(s3::server().keys(&bucket).await, names, "the pages, and nothing else, are in the bucket");
    for name in &names {
        let (bytes, content_type) = s3::server().object(&bucket, name).await.unwrap();
        assert_eq!((imagesize::blob_size(&bytes).unwrap().width, content_type.as_str()), (306, "image/png"));
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn a_store_that_does_not_answer_gives_503_with_a_clear_message(pool: PgPool) {
    // The server of the test S3 URL is gone: nothing listens on its port.
    let url =
        format!("s3://gone/uploads?endpoint=http://127.0.0.1:{}&allow_http=true&access_key_id=x&secret_access_key=y", s3::free_port());
    let (app, dir) = spawn(pool, &["--upload-url", &url]).await;
    assert!(app.state.uploads.check().await.is_err(), "the start-up check sees it");
    assert!(!dir.exists(), "the upload directory is not used");
    let token = app.token(TestRole::Editor).await;
    let expected = json!({ "code": "UNAVAILABLE", "message": insights::uploads::store::UNREACHABLE_MESSAGE });
    let started = std::time::Instant::now();
    let served = app.client.get(app.url(&format!("/uploads/{}.png", insights::ids::new_id()))).send().await.unwrap();
    assert_eq!(served.status(), 503);
    assert_eq!(served.json::<Value>().await.unwrap(), expected);
    let uploaded = upload(&app, Some(&token), "a.png", PNG).await;
    assert_eq!(uploaded.status(), 503);
    assert_eq!(uploaded.json::<Value>().await.unwrap(), expected);
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "answered in {:?}, not after minutes of retries", started.elapsed());
}
