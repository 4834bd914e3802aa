//! Uploads: `POST /upload` takes one image (png, jpeg or gif, recognised by its content, not its
//! name), stores it under a generated name in the upload store (`store`: `INSIGHTS_UPLOAD_DIR` or
//! `INSIGHTS_UPLOAD_URL`), and answers with its link; `GET /uploads/{name}` serves it with its type
//! and `nosniff` to whoever may read it (`access`). `POST /upload-file` takes a PDF and stores an
//! image of each page (see `pdf`). Names are 128 random bits: a name is never guessed from another.

pub mod access;
pub mod migrate;
mod pdf;
mod queries;
pub mod store;

pub use pdf::{PdfError, PdfRenderer, RenderedPage, UNAVAILABLE_MESSAGE};
pub use store::UploadStore;

use axum::{
    Json,
    body::Body,
    extract::{Multipart, Path as UrlPath, Query, State, multipart::MultipartError},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

use crate::{
    audit::{self, Actor, Origin},
    auth::{STAFF, session},
    error::Error,
    http::HttpError,
    ids,
    state::AppState,
};

/// The image kinds accepted, with the extension and type they are stored and served as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
    Gif,
}

impl ImageKind {
    /// Recognises an image by its bytes.
    pub fn sniff(bytes: &[u8]) -> Option<ImageKind> {
        match imagesize::image_type(bytes).ok()? {
            imagesize::ImageType::Png => Some(ImageKind::Png),
            imagesize::ImageType::Jpeg => Some(ImageKind::Jpeg),
            imagesize::ImageType::Gif => Some(ImageKind::Gif),
            _ => None,
        }
    }

    fn extension(self) -> &'static str {
        match self {
            ImageKind::Png => "png",
            ImageKind::Jpeg => "jpg",
            ImageKind::Gif => "gif",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
            ImageKind::Gif => "image/gif",
        }
    }

    pub fn from_extension(extension: &str) -> Option<ImageKind> {
        match extension {
            "png" => Some(ImageKind::Png),
            "jpg" => Some(ImageKind::Jpeg),
            "gif" => Some(ImageKind::Gif),
            _ => None,
        }
    }
}

/// Whether `name` is a name this server generated (`<32 hex>.<png|jpg|gif>`, or the id-shaped
/// `<24 hex>` of files stored before names were random): nothing else is ever read from the upload
/// store, so no path can escape it.
pub fn is_upload_name(name: &str) -> bool {
    let is_hex = |s: &str| s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    match name.split_once('.') {
        Some((stem, extension)) => matches!(stem.len(), 24 | 32) && is_hex(stem) && ImageKind::from_extension(extension).is_some(),
        None => false,
    }
}

/// A new upload name: 128 random bits from the thread's CSPRNG, in hex.
pub fn new_upload_name(kind: ImageKind) -> String {
    format!("{:032x}.{}", rand::random::<u128>(), kind.extension())
}

/// A refused file: BAD_USER_INPUT on the `file` field.
fn refused_file(message: impl Into<String>) -> Error {
    Error::field("file", message)
}

fn bad_upload(message: impl Into<String>) -> HttpError {
    HttpError::from(refused_file(message))
}

/// The most pixels a stored image may have: a browser decodes every image it shows in full, so a
/// small file declaring a huge image (a "pixel bomb") would stall whoever opens the page.
pub const MAX_IMAGE_PIXELS: u64 = 25_000_000;

/// Stores `bytes` if they are an accepted image of at most `MAX_IMAGE_PIXELS`; returns the
/// generated file name. Every image that reaches the store comes through here.
pub async fn store_image(store: &UploadStore, bytes: Vec<u8>) -> Result<(String, ImageKind), Error> {
    let kind = ImageKind::sniff(&bytes).ok_or_else(|| refused_file("File format not supported: upload a PNG, JPEG or GIF image"))?;
    let size = imagesize::blob_size(&bytes).map_err(|_| refused_file("The image could not be read"))?;
    if size.width as u64 * size.height as u64 > MAX_IMAGE_PIXELS {
        let message = format!(
            "The image is too large: at most {} megapixels (this one is {} × {} pixels)",
            MAX_IMAGE_PIXELS / 1_000_000,
            size.width,
            size.height
        );
        return Err(refused_file(message));
    }
    let name = new_upload_name(kind);
    store.put(&name, bytes, kind.content_type()).await.map_err(Error::from)?;
    Ok((name, kind))
}

/// `POST /upload`: multipart with one part named `file`.
pub async fn upload(State(state): State<AppState>, origin: Origin, headers: HeaderMap, mut multipart: Multipart) -> Result<Response, HttpError> {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let auth = session::authenticate(&state, authorization).await?;
    auth.viewer()?.require_to_change(STAFF)?;

    let bytes = read_file_part(&mut multipart, state.config.uploads.max_image_bytes).await?;
    let size = bytes.len();
    let (name, kind) = store_image(&state.uploads, bytes).await?;
    tracing::info!(file = %name, size, "image uploaded");
    let actor = Actor::of_request(&auth, &origin, "POST /upload");
    let change = serde_json::json!({ "op": "insert", "after": { "name": name, "contentType": kind.content_type(), "size": size } });
    audit::queries::record(&state.pool, Some(&actor), None, Some("upload"), Some(&name), &change).await.map_err(Error::from)?;
    let body = serde_json::json!({
        "link": format!("/uploads/{name}"),
        "fileName": name,
        "contentType": kind.content_type(),
        "size": size,
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// An error of `POST /upload-file`: the endpoint's usual errors, or no renderer on this server.
#[derive(Debug)]
pub enum UploadFileError {
    Http(HttpError),
    /// 503 `{"code": "UNAVAILABLE", "message": UNAVAILABLE_MESSAGE}`, the shape of the other errors.
    Unavailable,
}

impl From<HttpError> for UploadFileError {
    fn from(error: HttpError) -> Self {
        UploadFileError::Http(error)
    }
}

impl From<Error> for UploadFileError {
    fn from(error: Error) -> Self {
        UploadFileError::Http(error.into())
    }
}

impl From<PdfError> for UploadFileError {
    fn from(error: PdfError) -> Self {
        match error {
            PdfError::Unavailable => UploadFileError::Unavailable,
            PdfError::Refused(message) => UploadFileError::Http(bad_upload(message)),
            PdfError::Internal(error) => UploadFileError::Http(HttpError::from(error)),
        }
    }
}

impl IntoResponse for UploadFileError {
    fn into_response(self) -> Response {
        match self {
            UploadFileError::Http(error) => error.into_response(),
            UploadFileError::Unavailable => {
                let body = serde_json::json!({ "code": "UNAVAILABLE", "message": UNAVAILABLE_MESSAGE });
                (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
            }
        }
    }
}

/// `POST /upload-file`: multipart with one part named `file`, a PDF whose pages are stored as images.
pub async fn upload_file(
    State(state): State<AppState>,
    origin: Origin,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<Response, UploadFileError> {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let auth = session::authenticate(&state, authorization).await?;
    auth.viewer()?.require_to_change(STAFF)?;
    let renderer = &state.pdf_renderer;
    // Known missing: look again (it may have been installed since) before taking the file.
    if !renderer.is_available() && !renderer.check().await {
        return Err(UploadFileError::Unavailable);
    }
    let uploads = &state.config.uploads;
    let bytes = read_file_part(&mut multipart, uploads.max_file_bytes).await?;
    if !pdf::is_pdf(&bytes) {
        return Err(bad_upload("File format not supported: upload a PDF").into());
    }
    let work = std::env::temp_dir().join(format!("insights-pdf-{}", ids::new_id()));
    let pages = pdf::render(renderer, &work, &bytes, uploads.max_pdf_pages).await;
    let stored = match pages {
        Ok(pages) => store_pages(&state, pages).await.map_err(UploadFileError::from),
        Err(error) => Err(UploadFileError::from(error)),
    };
    // The working copy goes whatever happened.
    let _ = tokio::fs::remove_dir_all(&work).await;
    let names = stored?;
    tracing::info!(pages = names.len(), size = bytes.len(), "PDF uploaded");
    let actor = Actor::of_request(&auth, &origin, "POST /upload-file");
    let change = serde_json::json!({ "op": "insert", "after": { "pages": names, "size": bytes.len() } });
    audit::queries::record(&state.pool, Some(&actor), None, Some("upload"), names.first().map(String::as_str), &change)
        .await
        .map_err(Error::from)?;
    let pages: Vec<_> = names.iter().map(|name| serde_json::json!({ "link": format!("/uploads/{name}"), "fileName": name })).collect();
    Ok((StatusCode::CREATED, Json(serde_json::json!({ "pageCount": pages.len(), "pages": pages }))).into_response())
}

/// Stores a PDF's rendered pages as images, each recorded with its page number and text
/// (migration 0033); returns their names in page order.
async fn store_pages(state: &AppState, pages: Vec<RenderedPage>) -> Result<Vec<String>, Error> {
    let mut names = Vec::with_capacity(pages.len());
    let mut texts = Vec::with_capacity(pages.len());
    for page in pages {
        names.push(store_image(&state.uploads, page.image).await?.0);
        texts.push(Some(page.text).filter(|text| !text.is_empty()));
    }
    queries::insert_pdf_pages(&state.pool, &names, &texts).await?;
    Ok(names)
}

/// The text of a PDF page shown as an image in a body: its upload name, its page in the PDF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageText {
    pub name: String,
    pub page: i32,
    pub text: String,
}

/// The names of the uploads `html` links (`/uploads/<name>`), each once, in the order linked.
pub fn linked_names(html: &str) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for (at, _) in html.match_indices("/uploads/") {
        let from = &html[at + "/uploads/".len()..];
        let name = &from[..from.find(|c: char| !(c.is_ascii_alphanumeric() || c == '.')).unwrap_or(from.len())];
        if is_upload_name(name) && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The texts of the PDF pages `html` shows, in the order it shows them (none for a body
/// without PDF pages, or pages uploaded before their text was kept).
pub async fn page_texts(pool: &sqlx::PgPool, html: &str) -> Result<Vec<PageText>, Error> {
    let names = linked_names(html);
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let mut found = queries::page_texts(pool, &names).await?;
    found.sort_by_key(|(name, _, _)| names.iter().position(|linked| linked == name));
    Ok(found.into_iter().map(|(name, page, text)| PageText { name, page, text }).collect())
}

/// The bytes of the multipart part named `file`, read in chunks and refused (413) as soon as they
/// pass `max`, so an oversized file is never held in memory whole. Missing or empty: 400.
async fn read_file_part(multipart: &mut Multipart, max: usize) -> Result<Vec<u8>, HttpError> {
    let too_large = || {
        let message = format!("The file is larger than {} MB", max / (1024 * 1024));
        HttpError::from(Error::field("file", message)).with_status(StatusCode::PAYLOAD_TOO_LARGE)
    };
    while let Some(mut field) = multipart.next_field().await.map_err(multipart_error)? {
        if field.name() != Some("file") {
            continue;
        }
        let mut data = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
            if data.len() + chunk.len() > max {
                return Err(too_large());
            }
            data.extend_from_slice(&chunk);
        }
        if data.is_empty() {
            return Err(bad_upload("The file is empty"));
        }
        return Ok(data);
    }
    Err(bad_upload(crate::error::REQUIRED_MESSAGE))
}

fn multipart_error(error: MultipartError) -> HttpError {
    let status = error.status();
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        HttpError::from(Error::field("file", "The file is too large")).with_status(status)
    } else {
        bad_upload(error.body_text())
    }
}

/// `GET /uploads/{name}`: a public file to anyone; any other to staff (bearer token) or through a
/// signed link (`access`). NOT_FOUND for everyone else, as for a missing file.
pub async fn serve(
    State(state): State<AppState>,
    headers: HeaderMap,
    UrlPath(name): UrlPath<String>,
    Query(link): Query<access::SignedLink>,
) -> Result<Response, HttpError> {
    if !is_upload_name(&name) {
        return Err(Error::NotFound("File").into());
    }
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let grant = access::grant(&state, &name, authorization, &link).await?.ok_or(Error::NotFound("File"))?;
    let mut response = image_response(&state.uploads, &name).await?;
    // Names are never reused, so a file never changes.
    let cache = match grant {
        access::Grant::Public => HeaderValue::from_static("public, max-age=31536000, immutable"),
        access::Grant::Private(seconds) => HeaderValue::try_from(format!("private, max-age={seconds}")).expect("a header value"),
    };
    response.headers_mut().insert(header::CACHE_CONTROL, cache);
    Ok(response)
}

/// The stored image `name` with its type, `nosniff` and a sandboxing policy; NOT_FOUND for
/// anything that is not one of our files, UNAVAILABLE (503) when the store does not answer.
pub async fn image_response(store: &UploadStore, name: &str) -> Result<Response, HttpError> {
    if !is_upload_name(name) {
        return Err(Error::NotFound("File").into());
    }
    let kind = name.rsplit('.').next().and_then(ImageKind::from_extension).ok_or(Error::NotFound("File"))?;
    let bytes = store.get(name).await.map_err(Error::from)?.ok_or(Error::NotFound("File"))?;
    let mut response = Response::new(Body::from(bytes));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind.content_type()));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; sandbox"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_links_its_uploads_by_name_once_each_in_order() {
        let a = "0123456789abcdef0123456789abcdef.png";
        let b = "5f9b2c3e1a2b3c4d5e6f7a8b.jpg";
        let html = format!(
            r#"<p><img src="/uploads/{b}" alt=""></p><img src="/uploads/{a}?u=x&amp;e=1"><a href="/uploads/{b}">again</a><img src="/uploads/nope.png">"#
        );
        assert_eq!(linked_names(&html), vec![b, a]);
        assert!(linked_names("<p>No files</p>").is_empty());
    }

    #[test]
    fn only_generated_names_are_served() {
        assert!(is_upload_name("5f9b2c3e1a2b3c4d5e6f7a8b.png"));
        assert!(is_upload_name("5f9b2c3e1a2b3c4d5e6f7a8b.jpg"));
        assert!(is_upload_name("0123456789abcdef0123456789abcdef.gif"));
        assert!(is_upload_name(&new_upload_name(ImageKind::Png)));
        for bad in [
            "../etc/passwd",
            "5f9b2c3e1a2b3c4d5e6f7a8b.png/..",
            "5f9b2c3e1a2b3c4d5e6f7a8b.svg",
            "x.png",
            "5f9b2c3e1a2b3c4d5e6f7a8b",
            "0123456789abcdef0123456789abcdef0.png",
        ] {
            assert!(!is_upload_name(bad), "{bad}");
        }
    }

    #[test]
    fn images_are_recognised_by_content() {
        assert_eq!(ImageKind::sniff(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0"), Some(ImageKind::Png));
        assert_eq!(ImageKind::sniff(b"GIF89a\x01\0\x01\0\0\0\0"), Some(ImageKind::Gif));
        assert_eq!(ImageKind::sniff(b"%PDF-1.7\n"), None);
        assert_eq!(ImageKind::sniff(b"hello, I am text pretending to be a png"), None);
    }
}
