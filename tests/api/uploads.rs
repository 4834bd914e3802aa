//! `POST /upload` and `GET /uploads/{name}`: images checked by content and size, generated names;
//! the same on an S3 bucket (moto's server), and a store that does not answer.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{
    TestRole,
    factories::ReaderArticle,
    s3,
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

    // Linked from nothing yet: served to staff only.
    let served = app.client.get(app.url(&format!("/uploads/{name}"))).send().await.unwrap();
    assert_eq!(served.status(), 404);
    let served = app.client.get(app.url(&format!("/uploads/{name}"))).bearer_auth(&token).send().await.unwrap();
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
    pdf_of(&[(200, 100), (200, 100)])
}

/// A PDF with pages of these sizes (points), each showing a rectangle.
fn pdf_of(pages: &[(u32, u32)]) -> Vec<u8> {
    let contents = pages.len() + 3;
    let kids: Vec<String> = (0..pages.len()).map(|i| format!("{} 0 R", i + 3)).collect();
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        format!("<< /Type /Pages /Kids [{}] /Count {} >>", kids.join(" "), pages.len()),
    ];
    for (width, height) in pages {
        objects.push(format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width} {height}] /Contents {contents} 0 R >>"));
    }
    objects.push("<< /Length 34 >>\nstream\n0 0 1 rg 10 10 180 80 re f\nendstream".to_owned());
    pdf_from(&objects)
}

/// A PDF file of `objects` (object 1 the catalog), with its cross-reference table.
fn pdf_from(objects: &[String]) -> Vec<u8> {
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

/// A PDF of one A6 page per text, each line of text set in Helvetica.
fn pdf_with_text(pages: &[&[&str]]) -> Vec<u8> {
    let n = pages.len();
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", i + 3)).collect();
    let font = 3 + 2 * n;
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" ")),
    ];
    for i in 0..n {
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 298 420] /Resources << /Font << /F1 {font} 0 R >> >> /Contents {} 0 R >>",
            3 + n + i
        ));
    }
    for lines in pages {
        let shown: Vec<String> = lines.iter().map(|line| format!("({line}) Tj 0 -30 Td")).collect();
        let stream = format!("BT /F1 14 Tf 20 380 Td {} ET", shown.join(" "));
        objects.push(format!("<< /Length {} >>\nstream\n{stream}\nendstream", stream.len()));
    }
    objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned());
    pdf_from(&objects)
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
        let served = app.client.get(app.url(page["link"].as_str().unwrap())).bearer_auth(&token).send().await.unwrap();
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

        let served = app.client.get(app.url(&format!("/uploads/{name}"))).bearer_auth(&token).send().await.unwrap();
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
    let served = app.client.get(app.url(&format!("/uploads/{}.png", insights::ids::new_id()))).bearer_auth(&token).send().await.unwrap();
    assert_eq!(served.status(), 503);
    assert_eq!(served.json::<Value>().await.unwrap(), expected);
    let uploaded = upload(&app, Some(&token), "a.png", PNG).await;
    assert_eq!(uploaded.status(), 503);
    assert_eq!(uploaded.json::<Value>().await.unwrap(), expected);
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "answered in {:?}, not after minutes of retries", started.elapsed());
}

/// A PNG whose header declares `width` × `height` pixels (its data is one empty block: the size is
/// what a pixel bomb lies about).
fn png_declaring(width: u32, height: u32) -> Vec<u8> {
    let chunk = |kind: &[u8], data: &[u8]| {
        let mut chunk = (data.len() as u32).to_be_bytes().to_vec();
        chunk.extend_from_slice(kind);
        chunk.extend_from_slice(data);
        let mut crc_input = kind.to_vec();
        crc_input.extend_from_slice(data);
        chunk.extend_from_slice(&crc32(&crc_input).to_be_bytes());
        chunk
    };
    let mut header = width.to_be_bytes().to_vec();
    header.extend_from_slice(&height.to_be_bytes());
    header.extend_from_slice(&[8, 6, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &header));
    png.extend(chunk(b"IDAT", b"x\x9c\x03\0\0\0\0\x01"));
    png.extend(chunk(b"IEND", b""));
    png
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[sqlx::test(migrations = "./migrations")]
async fn a_png_declaring_a_huge_image_is_refused_quickly(pool: PgPool) {
    let (app, dir) = spawn(pool, &[]).await;
    let token = app.token(TestRole::Editor).await;
    let bomb = png_declaring(50_000, 50_000);
    let started = std::time::Instant::now();
    let response = upload(&app, Some(&token), "photo.png", &bomb).await;
    assert!(started.elapsed() < std::time::Duration::from_secs(2), "{:?}", started.elapsed());
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["fields"]["file"], "The image is too large: at most 25 megapixels (this one is 50000 × 50000 pixels)", "{body}");
    assert_eq!(std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0), 0, "nothing stored");
    // The limit is on pixels, not on a side: 5000 × 5000 fits.
    assert_eq!(upload(&app, Some(&token), "wide.png", &png_declaring(5_000, 5_000)).await.status(), 201);
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrations = "./migrations")]
async fn a_pdf_with_a_huge_page_is_refused_before_it_is_rendered(pool: PgPool) {
    let (app, dir) = spawn(pool, &[]).await;
    if !app.state.pdf_renderer.check().await {
        eprintln!("skipped: pdftoppm or pdfinfo (poppler-utils) is not installed");
        return;
    }
    let token = app.token(TestRole::Editor).await;
    let bomb = pdf_of(&[(14_400, 14_400)]);
    assert!(bomb.len() < 1024, "a few hundred bytes: {}", bomb.len());
    let started = std::time::Instant::now();
    let response = upload_pdf(&app, Some(&token), "bomb.pdf", bomb).await;
    assert!(started.elapsed() < std::time::Duration::from_secs(2), "{:?}", started.elapsed());
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["fields"]["file"], "The PDF's pages are too large: at most 5000 points a side (page 1 is 14400 × 14400)", "{body}");
    // A large page within the limit is rendered into the bounded box.
    let response = upload_pdf(&app, Some(&token), "poster.pdf", pdf_of(&[(4_000, 4_000)])).await;
    assert_eq!(response.status(), 201);
    let body: Value = response.json().await.unwrap();
    let name = body["pages"][0]["fileName"].as_str().unwrap();
    let size = imagesize::blob_size(&std::fs::read(dir.join(name)).unwrap()).unwrap();
    assert_eq!((size.width, size.height), (2000, 2000), "fitted into 2000 px, not 6111 px at 110 dpi");
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrations = "./migrations")]
async fn without_pdfinfo_a_pdf_is_refused_with_503_not_an_internal_error(pool: PgPool) {
    let missing = std::env::temp_dir().join(format!("no-pdfinfo-{}", insights::ids::new_id()));
    let (app, dir) = spawn(pool, &["--pdfinfo", missing.to_str().unwrap()]).await;
    let token = app.token(TestRole::Editor).await;
    let expected = json!({ "code": "UNAVAILABLE", "message": insights::uploads::UNAVAILABLE_MESSAGE });
    // Believed present: the spawn fails; then known missing.
    for _ in 0..2 {
        let response = upload_pdf(&app, Some(&token), "deck.pdf", two_page_pdf()).await;
        assert_eq!(response.status(), 503);
        assert_eq!(response.json::<Value>().await.unwrap(), expected);
    }
    assert!(!app.state.pdf_renderer.check_at_startup().await, "the start-up check sees it missing");
    let _ = std::fs::remove_dir_all(dir);
}

/// The GET of `path` with `token`: its status and Cache-Control.
async fn fetch(app: &crate::support::TestApp, path: &str, token: Option<&str>) -> (u16, String) {
    let mut request = app.client.get(app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let cache = response.headers().get("cache-control").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (response.status().as_u16(), cache)
}

/// The `src` of the first image of an article body as `token` is shown it (None: no body).
async fn image_src(app: &crate::support::TestApp, token: &str, article: &str) -> Option<String> {
    let query = "query($id: ID!) { findPublishedArticleById(id: $id) { html } }";
    let response = app.gql(Some(token), query, json!({ "id": article })).await;
    let html = response["data"]["findPublishedArticleById"]["html"].as_str()?.to_owned();
    let src = html.split("src=\"").nth(1).unwrap().split('"').next().unwrap();
    Some(src.replace("&amp;", "&"))
}

#[sqlx::test(migrations = "./migrations")]
async fn a_premium_articles_images_go_only_to_readers_who_may_read_it(pool: PgPool) {
    let (app, dir) = spawn(pool, &[]).await;
    let admin = app.token(TestRole::Administrator).await;
    let editor = app.token(TestRole::Editor).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&app.user_id(&editor).await]).await;
    let premium = app.channel_of_type(&admin, &desk, "Metals Premium", "premium").await;
    let name = crate::support::uploads::upload_name(&app, &editor, PNG).await;
    let path = format!("/uploads/{name}");
    // 128 random bits, nothing of the id generator's shape (time, process, counter).
    let stem = name.strip_suffix(".png").unwrap();
    assert_eq!(stem.len(), 32, "{name}");
    assert!(!insights::ids::is_valid_id(stem));

    // Just uploaded, linked from nothing: staff only. Refusals are 404, as for a missing file, so a
    // name is never confirmed to exist.
    let (anonymous, reader_token) = (None, app.token(TestRole::Subscriber).await);
    assert_eq!(fetch(&app, &path, anonymous).await.0, 404, "anonymous, unlinked");
    assert_eq!(fetch(&app, &path, Some(&reader_token)).await.0, 404, "reader, unlinked");
    let (status, cache) = fetch(&app, &path, Some(&editor)).await;
    assert_eq!((status, cache.starts_with("private")), (200, true), "staff, unlinked: {cache}");

    let article = app
        .insert_reader_article(ReaderArticle {
            channel: Some(&premium),
            desk: Some(&desk),
            is_premium: true,
            body: Box::leak(format!(r#"Capesize rates<img src="/uploads/{name}" alt="chart">"#).into_boxed_str()),
            ..Default::default()
        })
        .await;
    let linked: Vec<String> =
        sqlx::query_scalar("select article_id from upload_article where name = $1").bind(&name).fetch_all(&app.pool).await.unwrap();
    assert_eq!(linked, [article.clone()], "the link is recorded with the file");

    // Without a subscription: no body, so no link, and the plain path stays closed.
    let (reader, reader_id) = app.signed_in_reader("reader@example.com").await;
    assert_eq!(image_src(&app, &reader, &article).await, None);
    assert_eq!(fetch(&app, &path, None).await.0, 404, "anonymous, premium");
    assert_eq!(fetch(&app, &path, Some(&reader)).await.0, 404, "unentitled reader, premium");

    // Subscribed: the body's link is signed for them, and works without a token for a few minutes.
    app.subscribe(&premium, &reader_id, "account", "active", None, true).await;
    let signed = image_src(&app, &reader, &article).await.expect("the entitled reader sees the body");
    assert!(signed.starts_with(&format!("{path}?u={reader_id}&e=")), "{signed}");
    let (status, cache) = fetch(&app, &signed, None).await;
    assert_eq!(status, 200, "{signed}");
    let max_age: i64 = cache.strip_prefix("private, max-age=").unwrap().parse().unwrap();
    assert!((300..=600).contains(&max_age), "{cache}");
    // The same link again (the page is kept per article, signed per reader): still the same.
    assert_eq!(image_src(&app, &reader, &article).await.as_deref(), Some(signed.as_str()));
    // A forged or re-aimed signature is refused.
    let (other, _) = app.signed_in_reader("other@example.com").await;
    let other_id = app.user_id(&other).await;
    assert_eq!(fetch(&app, &signed.replace(&reader_id, &other_id), None).await.0, 404, "another viewer");
    let forged = format!("{}AAAA", &signed[..signed.len() - 4]);
    assert_eq!(fetch(&app, &forged, None).await.0, 404, "a forged signature");
    assert_eq!(fetch(&app, &signed.replace("&e=", "&e=1"), None).await.0, 404, "a stretched expiry");
    assert_eq!(fetch(&app, &signed.replace("&s=", "&x="), None).await.0, 404, "no signature");
    // Staff always.
    assert_eq!(fetch(&app, &path, Some(&admin)).await.0, 200);
    assert!(image_src(&app, &admin, &article).await.unwrap().contains("&s="), "staff readers get signed links too");
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrations = "./migrations")]
async fn a_channel_image_is_public_once_the_channel_links_it(pool: PgPool) {
    let (app, dir) = spawn(pool, &[]).await;
    let admin = app.token(TestRole::Administrator).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&app.user_id(&admin).await]).await;
    let name = crate::support::uploads::upload_name(&app, &admin, PNG).await;
    let path = format!("/uploads/{name}");
    assert_eq!(fetch(&app, &path, None).await.0, 404, "unlinked");
    let mut item = crate::support::TestApp::premium_channel("Metals Premium", &desk, &[]);
    item["profileImage"] = json!(name);
    app.add_channel(&admin, item).await;
    assert_eq!(fetch(&app, &path, None).await, (200, "public, max-age=31536000, immutable".to_owned()));
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrations = false)]
async fn the_migration_classifies_the_files_already_linked(pool: PgPool) {
    let mut migrations: Vec<_> = std::fs::read_dir("migrations").unwrap().map(|e| e.unwrap().path()).collect();
    migrations.sort();
    let (before, after): (Vec<_>, Vec<_>) = migrations.into_iter().partition(|path| path.file_name().unwrap().to_str().unwrap() < "0025");
    for path in before {
        sqlx::raw_sql(sqlx::AssertSqlSafe(std::fs::read_to_string(path).unwrap())).execute(&pool).await.unwrap();
    }
    // Links as the id-shaped names of the time left them.
    let (photo, topic, promotion, body, unlinked) = (
        "aaaaaaaaaaaaaaaaaaaaaaaa.jpg",
        "bbbbbbbbbbbbbbbbbbbbbbbb.png",
        "cccccccccccccccccccccccc.png",
        "dddddddddddddddddddddddd.gif",
        "eeeeeeeeeeeeeeeeeeeeeeee.png",
    );
    let id = |c: char| c.to_string().repeat(24);
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "insert into users (user_id, subject, email, name, profile_picture) values ('{u}', 'dev|x', 'x@example.com', 'X', '{photo}');
         insert into category (category_id, name, description, small_image) values ('{c}', 'Metals', 'Metals', '/uploads/{topic}');
         insert into promotional_content (promotional_content_id, name, article_image) values ('{p}', 'Webinar', '{promotion}');
         insert into article (article_id, title, html) values ('{a}', 'Copper', '<p><img src=\"/uploads/{body}\" alt=\"\"></p>');",
        u = id('1'),
        c = id('2'),
        p = id('3'),
        a = id('4'),
    )))
    .execute(&pool)
    .await
    .unwrap();
    for path in after {
        sqlx::raw_sql(sqlx::AssertSqlSafe(std::fs::read_to_string(path).unwrap())).execute(&pool).await.unwrap();
    }
    let classes: Vec<(String, bool, Vec<String>)> = sqlx::query_as(
        "select u.name, u.is_public, array(select a.article_id from upload_article a where a.name = u.name) from upload u order by u.name",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let expected = [(photo, true, vec![]), (topic, true, vec![]), (promotion, true, vec![]), (body, false, vec![id('4')])];
    assert_eq!(classes, expected.map(|(name, public, articles)| (name.to_owned(), public, articles)), "{unlinked} has no row: staff only");
}

/// The `pageTexts` of an article as `token` is shown it: (file name, page, text), or None (no body).
async fn page_texts(app: &crate::support::TestApp, token: &str, article: &str) -> Option<Vec<(String, i64, String)>> {
    let query = "query($id: ID!) { findPublishedArticleById(id: $id) { pageTexts { fileName page text } } }";
    let response = app.gql(Some(token), query, json!({ "id": article })).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    let pages = response["data"]["findPublishedArticleById"]["pageTexts"].as_array()?.clone();
    let page = |p: &Value| (p["fileName"].as_str().unwrap().to_owned(), p["page"].as_i64().unwrap(), p["text"].as_str().unwrap().to_owned());
    Some(pages.iter().map(page).collect())
}

/// The search total of `words` for `token`.
async fn found(app: &crate::support::TestApp, token: &str, words: &str) -> i64 {
    let query = "query($p: SearchArticlesParams) { searchArticles(params: $p, first: 5) { totalCount } }";
    let response = app.gql(Some(token), query, json!({ "p": { "searchQuery": words } })).await;
    assert_eq!(response["errors"], Value::Null, "{response}");
    response["data"]["searchArticles"]["totalCount"].as_i64().unwrap()
}

/// WCAG 1.1.1 for PDF pages shown as images: each page's text is read at upload, offered beside
/// the page to readers who may read the article, and searchable, by the same entitlement rule.
#[sqlx::test(migrations = "./migrations")]
async fn a_pdf_pages_text_is_read_at_upload_offered_with_the_page_and_found_by_search(pool: PgPool) {
    let (app, dir) = spawn(pool, &[]).await;
    let admin = app.token(TestRole::Administrator).await;
    let editor = app.token(TestRole::Editor).await;
    let editor_id = app.user_id(&editor).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&editor_id]).await;
    let premium = app.channel_of_type(&admin, &desk, "Metals Premium", "premium").await;
    let topic = app.add_category(&admin, "Metals", None).await;
    let tag = app.add_tag(&admin, "Monthly deck").await;

    let pdf = pdf_with_text(&[&["Molybdenum outlook", "Supply tightens in Chile"], &[], &["Tungsten stocks fell"]]);
    let response = upload_pdf(&app, Some(&editor), "metals.pdf", pdf).await;
    assert_eq!(response.status(), 201);
    let body: Value = response.json().await.unwrap();
    let names: Vec<String> = body["pages"].as_array().unwrap().iter().map(|p| p["fileName"].as_str().unwrap().to_owned()).collect();
    assert_eq!(names.len(), 3);
    let stored: Vec<(String, Option<i32>, Option<String>)> =
        sqlx::query_as("select name, pdf_page, page_text from upload where name = any($1) order by pdf_page")
            .bind(&names)
            .fetch_all(&app.pool)
            .await
            .unwrap();
    let first_page = "Molybdenum outlook\nSupply tightens in Chile".to_owned();
    let expected = vec![
        (names[0].clone(), Some(1), Some(first_page.clone())),
        (names[1].clone(), Some(2), None),
        (names[2].clone(), Some(3), Some("Tungsten stocks fell".to_owned())),
    ];
    assert_eq!(stored, expected, "each page's text, none for the blank page");

    // An article of nothing but the pages (the last first), published through the API.
    let images: String =
        [&names[2], &names[0], &names[1]].iter().map(|name| format!(r#"<p><img src="/uploads/{name}" alt=""></p>"#)).collect();
    let item = json!({
        "title": "Minor metals", "html": images, "summary": "Pages of the monthly deck", "premiumChannelId": premium,
        "contributors": [editor_id], "categories": [topic], "tags": [tag], "isPremium": true,
    });
    let publish = "mutation($item: ArticleInput!) { publishAdd(item: $item) { _id } }";
    let published = app.gql(Some(&editor), publish, json!({ "item": item })).await;
    assert_eq!(published["errors"], Value::Null, "{published}");
    let article = published["data"]["publishAdd"]["_id"].as_str().unwrap().to_owned();

    // The entitled reader gets the texts in the body's order; one without the channel, none.
    let (reader, reader_id) = app.signed_in_reader("reader@example.com").await;
    assert_eq!(page_texts(&app, &reader, &article).await, None, "no body, no page text");
    assert_eq!(found(&app, &reader, "tungsten molybdenum").await, 0, "nor any match on the pages' words");
    app.subscribe(&premium, &reader_id, "account", "active", None, true).await;
    let expected = vec![(names[2].clone(), 3, "Tungsten stocks fell".to_owned()), (names[0].clone(), 1, first_page)];
    assert_eq!(page_texts(&app, &reader, &article).await, Some(expected.clone()));
    assert_eq!(page_texts(&app, &editor, &article).await, Some(expected));
    assert_eq!(found(&app, &reader, "tungsten molybdenum").await, 1, "found by the words of its pages");
    assert_eq!(found(&app, &editor, "tightens Chile").await, 1);
    std::fs::remove_dir_all(dir).ok();
}
