//! The CSV files the product writes: cells a spreadsheet shows as text, downloads streamed to the
//! client a chunk at a time, and the error report an import leaves beside its file.

use std::{
    borrow::Cow,
    future::Future,
    path::{Path, PathBuf},
};

use axum::{
    body::Body,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use tokio::sync::mpsc::Sender;

/// UTF-8's byte-order mark: spreadsheets read a file starting with it as UTF-8.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Bytes gathered before a chunk of a download is sent.
const CHUNK: usize = 64 * 1024;

/// A cell a spreadsheet would read as a formula (starting with =, +, -, @, a tab or a carriage
/// return) gets a leading apostrophe, so it shows as the text it is and opening the file never
/// runs what someone smuggled into it.
pub fn spreadsheet_safe(cell: &str) -> Cow<'_, str> {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) { Cow::Owned(format!("'{cell}")) } else { Cow::Borrowed(cell) }
}

type Chunks = Sender<Result<Bytes, std::io::Error>>;

/// The rows of a download on their way: each record is escaped and buffered, and sent once a
/// chunk is full.
pub struct CsvDownload {
    csv: csv::Writer<Vec<u8>>,
    sender: Chunks,
}

fn chunk_writer(start: &[u8]) -> csv::Writer<Vec<u8>> {
    let mut buffer = Vec::with_capacity(CHUNK + 8 * 1024);
    buffer.extend_from_slice(start);
    csv::Writer::from_writer(buffer)
}

impl CsvDownload {
    /// Writes one record; false when the client went away (the producer stops).
    pub async fn write<I, S>(&mut self, record: I) -> anyhow::Result<bool>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.csv.write_record(record.into_iter().map(|cell| spreadsheet_safe(cell.as_ref()).into_owned()))?;
        if self.csv.get_ref().len() < CHUNK {
            return Ok(true);
        }
        let full = std::mem::replace(&mut self.csv, chunk_writer(b""));
        Ok(self.sender.send(Ok(full.into_inner().map_err(|e| e.into_error())?.into())).await.is_ok())
    }

    async fn finish(self) -> anyhow::Result<()> {
        let _ = self.sender.send(Ok(self.csv.into_inner().map_err(|e| e.into_error())?.into())).await;
        Ok(())
    }
}

/// A CSV download named `file_name`: UTF-8 with a byte-order mark, `header` first, then what
/// `produce` writes, streamed from a task of its own so that a large export holds one chunk in
/// memory. A failure ends the body with an error, so the client sees a broken download rather
/// than a short file; `what` names the export in the log.
pub fn download<F, Fut>(file_name: &str, header: &'static [&'static str], what: &'static str, produce: F) -> anyhow::Result<Response>
where
    F: FnOnce(CsvDownload) -> Fut + Send + 'static,
    Fut: Future<Output = anyhow::Result<CsvDownload>> + Send + 'static,
{
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))?;
    let (sender, receiver) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(4);
    tokio::spawn(async move {
        let failed = sender.clone();
        let mut csv = chunk_writer(BOM);
        let written = match csv.write_record(header) {
            Ok(()) => match produce(CsvDownload { csv, sender }).await {
                Ok(download) => download.finish().await,
                Err(error) => Err(error),
            },
            Err(error) => Err(error.into()),
        };
        if let Err(error) = written {
            tracing::error!(%error, export = what, "a CSV export failed");
            let _ = failed.send(Err(std::io::Error::other("the export could not be completed"))).await;
        }
    });
    let body = Body::from_stream(futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|chunk| (chunk, receiver))
    }));
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    headers.insert(header::CONTENT_DISPOSITION, disposition);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// A line of an imported file that changed nothing, as the error report lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusedRow {
    pub line: u64,
    pub value: String,
    pub reason: String,
}

/// Where the error report of `file` goes: `people.csv` → `people.errors.csv`.
pub fn error_report_path(file: &Path) -> PathBuf {
    file.with_extension("errors.csv")
}

/// Writes the refused rows beside `file` (columns line, `value_header`, reason; cells escaped),
/// or removes an earlier report when there are none. Returns where it went.
pub fn write_error_report(file: &Path, value_header: &str, rows: &[RefusedRow]) -> Result<Option<PathBuf>, csv::Error> {
    let path = error_report_path(file);
    if rows.is_empty() {
        return match std::fs::remove_file(&path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error.into()),
            _ => Ok(None),
        };
    }
    let mut writer = csv::Writer::from_path(&path)?;
    writer.write_record(["line", value_header, "reason"])?;
    for row in rows {
        let line = row.line.to_string();
        writer.write_record([line.as_str(), &spreadsheet_safe(&row.value), &spreadsheet_safe(&row.reason)])?;
    }
    writer.flush()?;
    Ok(Some(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_become_text_and_others_are_kept() {
        for (cell, expected) in [
            ("=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"),
            ("+1", "'+1"),
            ("-2", "'-2"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\t=1", "'\t=1"),
            ("\r=1", "'\r=1"),
            ("Acme", "Acme"),
            ("a=b", "a=b"),
            ("", ""),
        ] {
            assert_eq!(spreadsheet_safe(cell), expected, "{cell:?}");
        }
    }

    #[test]
    fn the_error_report_escapes_cells_and_goes_when_nothing_is_refused() {
        let file = std::env::temp_dir().join(format!("report-{}.csv", crate::ids::new_id()));
        let rows = [RefusedRow { line: 3, value: "=cmd()".into(), reason: "-bad".into() }];
        let path = write_error_report(&file, "row", &rows).unwrap().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "line,row,reason\n3,'=cmd(),'-bad\n");
        assert_eq!(write_error_report(&file, "row", &[]).unwrap(), None);
        assert!(!path.exists());
    }
}
