//! `POST /upload-file`: a PDF (recognised by its content, at most `INSIGHTS_UPLOAD_MAX_FILE_BYTES`)
//! rendered to one PNG per page with poppler's `pdftoppm`, so the editor can insert the pages.
//! The pages are stored as ordinary uploads; the PDF itself is not kept (it is rendered in a
//! working directory under the system's temporary directory, whatever the upload store). Without
//! `pdftoppm` the endpoint answers 503 (`PdfRenderer`), never an internal error.

use std::{
    io::ErrorKind,
    path::{Path, PathBuf},
    process::Stdio,
    sync::atomic::{AtomicBool, Ordering},
    time::Duration,
};

use axum::{
    Json,
    extract::{Multipart, State},
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};

use super::{UploadStore, bad_upload, read_file_part, store_image};
use crate::{
    auth::{STAFF, session},
    error::Error,
    http::HttpError,
    ids,
    state::AppState,
};

/// Rendering resolution: pages come out about 935 px wide for A4, enough for an article column.
const DPI: &str = "110";
/// A PDF that takes longer than this to render is refused rather than holding a worker.
const RENDER_TIMEOUT: Duration = Duration::from_secs(60);

fn is_pdf(bytes: &[u8]) -> bool {
    // The header may follow a few bytes of junk, which readers tolerate (within the first 1024).
    bytes.windows(5).take(1024).any(|w| w == b"%PDF-")
}

/// What `POST /upload-file` answers when PDFs cannot be rendered (503).
pub const UNAVAILABLE_MESSAGE: &str = "PDF rendering is unavailable: pdftoppm (poppler-utils) is not installed on the server";

/// The `pdftoppm` program (`INSIGHTS_PDFTOPPM`) and whether it could be started when last tried:
/// checked at start-up by `serve`, and updated by every render, so a program removed while the
/// server runs is noticed, and one installed later is picked up without a restart.
#[derive(Debug)]
pub struct PdfRenderer {
    program: PathBuf,
    available: AtomicBool,
}

impl PdfRenderer {
    /// Assumed available until a check or a render says otherwise.
    pub fn new(program: PathBuf) -> Self {
        PdfRenderer { program, available: AtomicBool::new(true) }
    }

    pub fn program(&self) -> &Path {
        &self.program
    }

    pub fn is_available(&self) -> bool {
        self.available.load(Ordering::Relaxed)
    }

    /// Runs `pdftoppm -v` and records whether it could be started (its exit status does not
    /// matter: older poppler releases exit with 99 after printing their version).
    pub async fn check(&self) -> bool {
        let started = tokio::process::Command::new(&self.program)
            .arg("-v")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn();
        let available = match started {
            Ok(mut child) => {
                let _ = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
                true
            }
            Err(error) => {
                tracing::debug!(%error, program = %self.program.display(), "pdftoppm cannot be started");
                false
            }
        };
        self.available.store(available, Ordering::Relaxed);
        available
    }

    /// The start-up check: one clear warning when PDFs cannot be rendered.
    pub async fn check_at_startup(&self) -> bool {
        let available = self.check().await;
        if !available {
            tracing::warn!(
                program = %self.program.display(),
                "PDF pages cannot be rendered: pdftoppm (Debian package poppler-utils) is not installed; \
                 POST /upload-file will refuse PDFs"
            );
        }
        available
    }

    fn set_available(&self, available: bool) {
        self.available.store(available, Ordering::Relaxed);
    }
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

pub async fn upload_file(State(state): State<AppState>, headers: HeaderMap, mut multipart: Multipart) -> Result<Response, UploadFileError> {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    session::authenticate(&state, authorization).await?.viewer()?.require(STAFF)?;
    let renderer = &state.pdf_renderer;
    // Known missing: look again (it may have been installed since) before taking the file.
    if !renderer.is_available() && !renderer.check().await {
        return Err(UploadFileError::Unavailable);
    }
    let uploads = &state.config.uploads;
    let bytes = read_file_part(&mut multipart, uploads.max_file_bytes).await?;
    if !is_pdf(&bytes) {
        return Err(bad_upload("File format not supported: upload a PDF").into());
    }
    let work = std::env::temp_dir().join(format!("insights-pdf-{}", ids::new_id()));
    let pages = render(renderer, &work, &bytes, uploads.max_pdf_pages).await;
    let stored = match pages {
        Ok(pages) => store_pages(&state.uploads, pages).await.map_err(UploadFileError::from),
        Err(error) => Err(error),
    };
    // The working copy goes whatever happened.
    let _ = tokio::fs::remove_dir_all(&work).await;
    let names = stored?;
    tracing::info!(pages = names.len(), size = bytes.len(), "PDF uploaded");
    let pages: Vec<_> = names.iter().map(|name| serde_json::json!({ "link": format!("/uploads/{name}"), "fileName": name })).collect();
    Ok((StatusCode::CREATED, Json(serde_json::json!({ "pageCount": pages.len(), "pages": pages }))).into_response())
}

/// Renders every page of `pdf` to PNG files in `work`; returns their contents in page order.
async fn render(renderer: &PdfRenderer, work: &Path, pdf: &[u8], max_pages: u32) -> Result<Vec<Vec<u8>>, UploadFileError> {
    let internal = |error: std::io::Error| HttpError::from(anyhow::Error::from(error));
    tokio::fs::create_dir_all(work).await.map_err(internal)?;
    let input = work.join("input.pdf");
    tokio::fs::write(&input, pdf).await.map_err(internal)?;
    // One page past the limit tells a too-long file from one exactly at the limit.
    let last = (max_pages + 1).to_string();
    let child = tokio::process::Command::new(renderer.program())
        .args(["-png", "-r", DPI, "-l", &last])
        .arg(&input)
        .arg(work.join("page"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn();
    let child = match child {
        Ok(child) => {
            renderer.set_available(true);
            child
        }
        Err(error) if error.kind() == ErrorKind::NotFound => {
            renderer.set_available(false);
            tracing::warn!(%error, program = %renderer.program().display(), "cannot run pdftoppm: install poppler-utils");
            return Err(UploadFileError::Unavailable);
        }
        Err(error) => {
            tracing::error!(%error, program = %renderer.program().display(), "cannot run pdftoppm");
            return Err(internal(error).into());
        }
    };
    let output = tokio::time::timeout(RENDER_TIMEOUT, child.wait_with_output())
        .await
        .map_err(|_| bad_upload("The PDF took too long to render"))?
        .map_err(internal)?;
    if !output.status.success() {
        let reason = String::from_utf8_lossy(&output.stderr);
        tracing::info!(reason = %reason.trim(), "PDF refused by pdftoppm");
        return Err(bad_upload("The PDF could not be read").into());
    }
    // pdftoppm names pages page-1.png, page-01.png… by page count; sort by the page number.
    let mut files = Vec::new();
    let mut entries = tokio::fs::read_dir(work).await.map_err(internal)?;
    while let Some(entry) = entries.next_entry().await.map_err(internal)? {
        let name = entry.file_name().to_string_lossy().into_owned();
        let number = name.strip_prefix("page-").and_then(|n| n.strip_suffix(".png")).and_then(|n| n.parse::<u32>().ok());
        if let Some(number) = number {
            files.push((number, entry.path()));
        }
    }
    if files.is_empty() {
        return Err(bad_upload("The PDF has no pages").into());
    }
    if files.len() > max_pages as usize {
        return Err(bad_upload(format!("The PDF has more than {max_pages} pages")).into());
    }
    files.sort();
    let mut pages = Vec::with_capacity(files.len());
    for (_, path) in files {
        pages.push(tokio::fs::read(path).await.map_err(internal)?);
    }
    Ok(pages)
}

async fn store_pages(store: &UploadStore, pages: Vec<Vec<u8>>) -> Result<Vec<String>, HttpError> {
    let mut names = Vec::with_capacity(pages.len());
    for page in pages {
        names.push(store_image(store, page).await?.0);
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdfs_are_recognised_by_their_header() {
        assert!(is_pdf(b"%PDF-1.7\n..."));
        assert!(is_pdf(b"\xef\xbb\xbf%PDF-1.4"));
        assert!(!is_pdf(b"\x89PNG\r\n\x1a\n"));
        assert!(!is_pdf(b"PDF-1.7"));
    }
}
