//! The PDFs of `POST /upload-file` (recognised by their content, at most
//! `INSIGHTS_UPLOAD_MAX_FILE_BYTES`) rendered to one PNG per page with poppler's `pdftoppm`, so
//! the editor can insert the pages, each with its text read by `pdftotext` (a page shown as an
//! image stays readable by screen readers and findable by search: migration 0033).
//! The pages are stored as ordinary uploads; the PDF itself is not kept (it is rendered in a
//! working directory under the system's temporary directory, whatever the upload store). Without
//! `pdftoppm`, `pdfinfo` or `pdftotext` the endpoint answers 503 (`PdfRenderer`), never an
//! internal error.
//! What a render can fail with is a `PdfError`, which the handler (`upload_file`) answers.
//!
//! A few hundred bytes of PDF can declare pages of 200 inches, which take a minute and gigabytes to
//! render: `pdfinfo` reads the page count and sizes first (refusing too many or too large pages),
//! pages are rendered into a bounded box, and only `INSIGHTS_PDF_RENDERS` renders run at once.

use std::{
    io::ErrorKind,
    path::{Path, PathBuf},
    process::Stdio,
    sync::atomic::{AtomicBool, Ordering},
    time::Duration,
};

use tokio::sync::Semaphore;

/// Rendering resolution: pages come out about 935 px wide for A4, enough for an article column.
const DPI: f64 = 110.0;
/// The longest side of a rendered page, in pixels: a larger page is rendered into this box.
const MAX_RENDER_SIDE: u32 = 2000;
/// The largest page side accepted, in points (about 1.76 m; A0 is 2384 × 3370).
const MAX_PAGE_POINTS: f64 = 5000.0;
/// A PDF that takes longer than this to render is refused rather than holding a worker.
const RENDER_TIMEOUT: Duration = Duration::from_secs(60);
/// `pdfinfo` only reads the file's structure.
const INFO_TIMEOUT: Duration = Duration::from_secs(10);
/// The most text kept of one page, in characters (a dense A4 page holds about 5,000).
const MAX_PAGE_TEXT_CHARS: usize = 20_000;

pub(super) fn is_pdf(bytes: &[u8]) -> bool {
    // The header may follow a few bytes of junk, which readers tolerate (within the first 1024).
    bytes.windows(5).take(1024).any(|w| w == b"%PDF-")
}

/// What `POST /upload-file` answers when PDFs cannot be rendered (503).
pub const UNAVAILABLE_MESSAGE: &str =
    "PDF rendering is unavailable: pdftoppm, pdfinfo and pdftotext (poppler-utils) are not installed on the server";

/// The `pdftoppm`, `pdfinfo` and `pdftotext` programs (`INSIGHTS_PDFTOPPM`, `INSIGHTS_PDFINFO`,
/// `INSIGHTS_PDFTOTEXT`) and whether all three could be started when last tried: checked at start-up by `serve`, and updated by every
/// render, so a program removed while the server runs is noticed, and one installed later is
/// picked up without a restart. `renders` bounds the renders running at once.
#[derive(Debug)]
pub struct PdfRenderer {
    program: PathBuf,
    info_program: PathBuf,
    text_program: PathBuf,
    available: AtomicBool,
    renders: Semaphore,
}

impl PdfRenderer {
    /// Assumed available until a check or a render says otherwise.
    pub fn new(program: PathBuf, info_program: PathBuf, text_program: PathBuf, renders: usize) -> Self {
        let renders = Semaphore::new(renders.max(1));
        PdfRenderer { program, info_program, text_program, available: AtomicBool::new(true), renders }
    }

    pub fn program(&self) -> &Path {
        &self.program
    }

    pub fn is_available(&self) -> bool {
        self.available.load(Ordering::Relaxed)
    }

    /// Runs `pdftoppm -v`, `pdfinfo -v` and `pdftotext -v` and records whether all could be
    /// started (their exit status does not matter: older poppler releases exit with 99 after
    /// printing their version).
    pub async fn check(&self) -> bool {
        let available = starts(&self.program).await && starts(&self.info_program).await && starts(&self.text_program).await;
        self.available.store(available, Ordering::Relaxed);
        available
    }

    /// The start-up check: one clear warning when PDFs cannot be rendered.
    pub async fn check_at_startup(&self) -> bool {
        let available = self.check().await;
        if !available {
            tracing::warn!(
                pdftoppm = %self.program.display(),
                pdfinfo = %self.info_program.display(),
                pdftotext = %self.text_program.display(),
                "PDF pages cannot be rendered: pdftoppm, pdfinfo or pdftotext (Debian package poppler-utils) is not installed; \
                 POST /upload-file will refuse PDFs"
            );
        }
        available
    }

    fn set_available(&self, available: bool) {
        self.available.store(available, Ordering::Relaxed);
    }

    /// Starts `program` with `args`, or says why not: a missing program is `Unavailable` (and
    /// remembered), any other failure internal.
    fn spawn(&self, program: &Path, args: &[&std::ffi::OsStr]) -> Result<tokio::process::Child, PdfError> {
        let child = tokio::process::Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn();
        match child {
            Ok(child) => Ok(child),
            Err(error) if error.kind() == ErrorKind::NotFound => {
                self.set_available(false);
                tracing::warn!(%error, program = %program.display(), "cannot run a poppler program: install poppler-utils");
                Err(PdfError::Unavailable)
            }
            Err(error) => {
                tracing::error!(%error, program = %program.display(), "cannot run a poppler program");
                Err(PdfError::internal(error))
            }
        }
    }
}

/// Whether `program -v` can be started.
async fn starts(program: &Path) -> bool {
    let started = tokio::process::Command::new(program)
        .arg("-v")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn();
    match started {
        Ok(mut child) => {
            let _ = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
            true
        }
        Err(error) => {
            tracing::debug!(%error, program = %program.display(), "cannot be started");
            false
        }
    }
}

/// What rendering a PDF can fail with.
#[derive(Debug)]
pub enum PdfError {
    /// `pdftoppm` or `pdfinfo` cannot be started on this server.
    Unavailable,
    /// The PDF is refused, for the reason given (too many or too large pages, unreadable, too slow).
    Refused(String),
    /// The server failed (the working directory, a program that could not be run).
    Internal(anyhow::Error),
}

impl PdfError {
    fn refused(message: impl Into<String>) -> Self {
        PdfError::Refused(message.into())
    }

    fn internal(error: std::io::Error) -> Self {
        PdfError::Internal(error.into())
    }
}

/// What `pdfinfo` says of a PDF: its page count and the size of its largest page, in points.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PdfInfo {
    pages: u32,
    /// The longest side of any page listed (width or height).
    largest_side: f64,
    /// That page's number, width and height.
    largest: (u32, f64, f64),
}

/// Reads `pdfinfo -f 1 -l <last>` output: `Pages: 3` and one `Page    1 size: 612 x 792 pts` line
/// per page listed.
fn parse_info(output: &str) -> Option<PdfInfo> {
    let mut pages = None;
    let mut info = PdfInfo { pages: 0, largest_side: 0.0, largest: (0, 0.0, 0.0) };
    for line in output.lines() {
        if let Some(count) = line.strip_prefix("Pages:") {
            pages = count.trim().parse().ok();
        } else if let Some((page, size)) = line.strip_prefix("Page").and_then(|rest| rest.split_once(" size:")) {
            let mut numbers = size.split_whitespace().filter_map(|word| word.parse::<f64>().ok());
            let (Some(width), Some(height)) = (numbers.next(), numbers.next()) else { continue };
            let side = width.max(height);
            if side > info.largest_side {
                info.largest_side = side;
                info.largest = (page.trim().parse().unwrap_or(0), width, height);
            }
        }
    }
    info.pages = pages?;
    Some(info)
}

/// Waits for `child` at most `timeout` (killed on drop otherwise); `slow` is the message then.
async fn finish(child: tokio::process::Child, timeout: Duration, slow: &str) -> Result<std::process::Output, PdfError> {
    tokio::time::timeout(timeout, child.wait_with_output()).await.map_err(|_| PdfError::refused(slow))?.map_err(PdfError::internal)
}

/// One rendered page: its image (PNG) and its text (empty when it has none, e.g. a scan).
pub struct RenderedPage {
    pub image: Vec<u8>,
    pub text: String,
}

/// Renders every page of `pdf` to PNG files in `work` and reads each page's text; returns the
/// pages in order.
pub(super) async fn render(renderer: &PdfRenderer, work: &Path, pdf: &[u8], max_pages: u32) -> Result<Vec<RenderedPage>, PdfError> {
    let internal = PdfError::internal;
    tokio::fs::create_dir_all(work).await.map_err(internal)?;
    let input = work.join("input.pdf");
    tokio::fs::write(&input, pdf).await.map_err(internal)?;
    let _permit = renderer.renders.acquire().await.map_err(|e| internal(std::io::Error::other(e)))?;

    // One page past the limit tells a too-long file from one exactly at the limit.
    let last = (max_pages + 1).to_string();
    let info_args = ["-f".as_ref(), "1".as_ref(), "-l".as_ref(), last.as_ref(), input.as_os_str()];
    let child = renderer.spawn(&renderer.info_program, &info_args)?;
    renderer.set_available(true);
    let output = finish(child, INFO_TIMEOUT, "The PDF took too long to read").await?;
    let info = output.status.success().then(|| parse_info(&String::from_utf8_lossy(&output.stdout))).flatten();
    let Some(info) = info else {
        let reason = String::from_utf8_lossy(&output.stderr);
        tracing::info!(reason = %reason.trim(), "PDF refused by pdfinfo");
        return Err(PdfError::refused("The PDF could not be read"));
    };
    if info.pages == 0 {
        return Err(PdfError::refused("The PDF has no pages"));
    }
    if info.pages > max_pages {
        return Err(PdfError::refused(format!("The PDF has more than {max_pages} pages")));
    }
    if info.largest_side > MAX_PAGE_POINTS {
        let (page, width, height) = info.largest;
        let message = format!("The PDF's pages are too large: at most {MAX_PAGE_POINTS} points a side (page {page} is {width} × {height})");
        return Err(PdfError::refused(message));
    }

    // Pages that would come out larger than the box at the usual resolution are fitted into it.
    let resolution = DPI.to_string();
    let side = MAX_RENDER_SIDE.to_string();
    let scale = if info.largest_side * DPI / 72.0 > f64::from(MAX_RENDER_SIDE) { ["-scale-to", &side] } else { ["-r", &resolution] };
    let output_prefix = work.join("page");
    let render_args =
        ["-png".as_ref(), scale[0].as_ref(), scale[1].as_ref(), "-l".as_ref(), last.as_ref(), input.as_os_str(), output_prefix.as_os_str()];
    let child = renderer.spawn(renderer.program(), &render_args)?;
    let output = finish(child, RENDER_TIMEOUT, "The PDF took too long to render").await?;
    if !output.status.success() {
        let reason = String::from_utf8_lossy(&output.stderr);
        tracing::info!(reason = %reason.trim(), "PDF refused by pdftoppm");
        return Err(PdfError::refused("The PDF could not be read"));
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
        return Err(PdfError::refused("The PDF has no pages"));
    }
    if files.len() > max_pages as usize {
        return Err(PdfError::refused(format!("The PDF has more than {max_pages} pages")));
    }
    files.sort();

    // The text of every page at once: pdftotext ends each page with a form feed.
    let text_args = ["-enc".as_ref(), "UTF-8".as_ref(), "-l".as_ref(), last.as_ref(), input.as_os_str(), "-".as_ref()];
    let child = renderer.spawn(&renderer.text_program, &text_args)?;
    let output = finish(child, RENDER_TIMEOUT, "The PDF took too long to read").await?;
    let texts = if output.status.success() {
        page_texts(&String::from_utf8_lossy(&output.stdout))
    } else {
        // The pages are rendered: they are kept, without text (as a scan would be).
        tracing::warn!(reason = %String::from_utf8_lossy(&output.stderr).trim(), "pdftotext could not read a rendered PDF");
        Vec::new()
    };

    let mut pages = Vec::with_capacity(files.len());
    for (index, (_, path)) in files.into_iter().enumerate() {
        let image = tokio::fs::read(path).await.map_err(internal)?;
        pages.push(RenderedPage { image, text: texts.get(index).cloned().unwrap_or_default() });
    }
    Ok(pages)
}

/// `pdftotext` output split into pages (at form feeds), each page's lines trimmed, runs of blank
/// lines made one, and at most `MAX_PAGE_TEXT_CHARS` characters kept.
fn page_texts(output: &str) -> Vec<String> {
    let mut pages: Vec<&str> = output.split('\u{c}').collect();
    // The form feed after the last page leaves an empty piece.
    if pages.last().is_some_and(|last| last.trim().is_empty()) {
        pages.pop();
    }
    pages.into_iter().map(page_text).collect()
}

fn page_text(page: &str) -> String {
    let mut text = String::new();
    let mut blank = false;
    for line in page.lines().map(str::trim) {
        if line.is_empty() {
            blank = !text.is_empty();
            continue;
        }
        if !text.is_empty() {
            text.push_str(if blank { "\n\n" } else { "\n" });
        }
        text.push_str(line);
        blank = false;
    }
    match text.char_indices().nth(MAX_PAGE_TEXT_CHARS) {
        Some((end, _)) => text[..end].to_owned(),
        None => text,
    }
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

    #[test]
    fn pdfinfo_gives_the_page_count_and_the_largest_page() {
        let output = "Producer:       x\nPages:          3\nPage    1 size: 612 x 792 pts (letter)\nPage    1 rot:  0\n\
                      Page    2 size: 14400 x 200.5 pts\nPage    3 size: 595.276 x 841.89 pts (A4)\n";
        let info = parse_info(output).unwrap();
        assert_eq!((info.pages, info.largest_side, info.largest), (3, 14400.0, (2, 14400.0, 200.5)));
        assert_eq!(parse_info("Producer: x\n"), None);
    }

    #[test]
    fn pdftotext_output_becomes_one_text_per_page() {
        let output = "  Copper outlook  \n\n\n\nPrices rose\n3%\n\u{c}\u{c}Page three\n\u{c}";
        assert_eq!(page_texts(output), vec!["Copper outlook\n\nPrices rose\n3%", "", "Page three"]);
        let long = "x".repeat(MAX_PAGE_TEXT_CHARS + 10);
        assert_eq!(page_texts(&long)[0].chars().count(), MAX_PAGE_TEXT_CHARS);
    }
}
