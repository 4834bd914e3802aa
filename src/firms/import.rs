//! `insights-cli firms import FILE.csv`: firms from a CSV file (name, domains, account number), in
//! one transaction. A header row is recognised by its first cell ("name"), and then names the
//! columns; without one the columns are name, domains, account number. A byte-order mark, CRLF
//! line ends and quoted cells are read as a spreadsheet writes them.
//!
//! A firm named in the file that exists (same name, ignoring case) gains the file's domains and,
//! when it has none, its account number: a second run of the same file changes nothing. A row the
//! rules refuse (no name, a public mail domain, a domain or account number another firm has, a
//! name twice in the file) is skipped and listed with its reason in `FILE.errors.csv`; readers at
//! a new domain join its firm, as when staff add one. The writes are set-based, in chunks so that a
//! progress bar can follow them; they commit together or not at all.

use std::{
    collections::{HashMap, HashSet},
    path::{Path, PathBuf},
};

use sqlx::PgPool;

use super::{domains, queries, service};
use crate::{
    error::Error,
    csv_files::{RefusedRow, error_report_path, write_error_report},
    subscriptions::import::operator_message,
};

/// Rows written per step.
pub const CHUNK: usize = 1000;

#[derive(Debug, Clone)]
pub struct FirmsImport {
    pub file: PathBuf,
    /// Check and report, then roll back.
    pub dry_run: bool,
    pub chunk_size: usize,
}

impl FirmsImport {
    pub fn new(file: impl Into<PathBuf>) -> FirmsImport {
        FirmsImport { file: file.into(), dry_run: false, chunk_size: CHUNK }
    }
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Rows read (the header and blank rows aside).
    pub rows: usize,
    pub added: usize,
    /// Existing firms given a domain or an account number.
    pub updated: usize,
    /// Existing firms the row adds nothing to.
    pub unchanged: usize,
    pub refused: usize,
    pub domains_added: usize,
    /// Readers who joined a firm by a new domain.
    pub readers_joined: u64,
}

#[derive(Debug, Clone)]
pub struct ImportReport {
    pub summary: Summary,
    pub refused: Vec<RefusedRow>,
    pub error_report: Option<PathBuf>,
    pub dry_run: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("cannot read {}: {source}", path.display())]
    Unreadable { path: PathBuf, source: csv::Error },
    #[error("cannot write the error report {}: {source}", path.display())]
    Report { path: PathBuf, source: csv::Error },
    #[error("{}", operator_message(.0))]
    Failed(Error),
}

impl From<sqlx::Error> for ImportError {
    fn from(error: sqlx::Error) -> Self {
        ImportError::Failed(Error::Database(error))
    }
}

/// A row of the file.
#[derive(Debug, Clone)]
struct Row {
    line: u64,
    name: String,
    domains: Vec<String>,
    account_number: Option<String>,
    /// The row as written, for the report.
    value: String,
}

/// Reads the file's rows (blank ones skipped), and where the columns are.
fn read_rows(path: &Path) -> Result<Vec<Row>, ImportError> {
    let unreadable = |source: csv::Error| ImportError::Unreadable { path: path.to_owned(), source };
    let bytes = std::fs::read(path).map_err(|e| unreadable(e.into()))?;
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes);
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(bytes);
    let mut columns = [0usize, 1, 2];
    let mut lines = Lines { bytes, offset: 0, line: 1 };
    let mut rows = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let record = record.map_err(unreadable)?;
        // The file's own line, from the record's byte offset (the csv crate's line count is off
        // with CRLF ends and blank lines).
        let line = record.position().map_or(index as u64 + 1, |p| lines.at(p.byte()));
        let cells: Vec<&str> = record.iter().map(str::trim).collect();
        if cells.iter().all(|c| c.is_empty()) {
            continue;
        }
        if index == 0 && cells[0].eq_ignore_ascii_case("name") {
            let find = |names: &[&str], default: usize| {
                cells.iter().position(|c| names.iter().any(|n| c.eq_ignore_ascii_case(n))).unwrap_or(default)
            };
            columns = [0, find(&["domains", "domain"], 1), find(&["account number", "account_number", "accountnumber", "account"], 2)];
            continue;
        }
        let cell = |i: usize| cells.get(columns[i]).copied().unwrap_or_default();
        rows.push(Row {
            line,
            name: cell(0).to_owned(),
            domains: domains::split(&[cell(1).to_owned()]),
            account_number: Some(cell(2).to_owned()).filter(|a| !a.is_empty()),
            value: cells.join(","),
        });
    }
    Ok(rows)
}

/// Lines of a file by byte offset, counted forward as records are read (a line ends with LF,
/// CRLF or a lone CR).
struct Lines<'a> {
    bytes: &'a [u8],
    offset: usize,
    line: u64,
}

impl Lines<'_> {
    /// The 1-based line of the record read at `offset` (offsets only grow). The csv crate puts a
    /// record's position before the line ends (and blank lines) that precede it.
    fn at(&mut self, offset: u64) -> u64 {
        let mut end = (offset as usize).min(self.bytes.len());
        while end < self.bytes.len() && matches!(self.bytes[end], b'\r' | b'\n') {
            end += 1;
        }
        for i in self.offset..end {
            let b = self.bytes[i];
            if b == b'\n' || (b == b'\r' && self.bytes.get(i + 1) != Some(&b'\n')) {
                self.line += 1;
            }
        }
        self.offset = end.max(self.offset);
        self.line
    }
}

/// Why a row's own cells are refused, if they are.
fn refusal(row: &Row) -> Option<String> {
    if row.name.is_empty() {
        return Some("no name".into());
    }
    if row.name.chars().count() > service::NAME_MAX {
        return Some(format!("the name is longer than {} characters", service::NAME_MAX));
    }
    if row.account_number.as_ref().is_some_and(|a| a.chars().count() > service::ACCOUNT_NUMBER_MAX) {
        return Some(format!("the account number is longer than {} characters", service::ACCOUNT_NUMBER_MAX));
    }
    if row.domains.len() > domains::MAX_DOMAINS {
        return Some(format!("more than {} domains", domains::MAX_DOMAINS));
    }
    let refused: Vec<String> = row.domains.iter().filter_map(|d| domains::refusal(d)).collect();
    (!refused.is_empty()).then(|| refused.join("; "))
}

/// Imports the firms of `request.file`; `progress(done, total)` follows the rows.
pub async fn import_firms(
    pool: &PgPool,
    request: &FirmsImport,
    progress: &(dyn Fn(u64, u64) + Send + Sync),
) -> Result<ImportReport, ImportError> {
    let rows = read_rows(&request.file)?;
    let total = rows.len() as u64;
    progress(0, total);
    let mut summary = Summary { rows: rows.len(), ..Summary::default() };
    let mut refused: Vec<RefusedRow> = Vec::new();
    let refuse = |refused: &mut Vec<RefusedRow>, row: &Row, reason: String| {
        refused.push(RefusedRow { line: row.line, value: row.value.clone(), reason });
    };

    let mut tx = pool.begin().await?;
    // What the database has of the file's names, domains and account numbers, in three statements.
    let names: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
    let all_domains: Vec<String> = rows.iter().flat_map(|r| r.domains.iter().cloned()).collect();
    let accounts: Vec<String> = rows.iter().filter_map(|r| r.account_number.clone()).collect();
    let existing = queries::firms_named(&mut *tx, &names).await?;
    let by_name: HashMap<String, &queries::FirmKey> = existing.iter().map(|f| (f.name.to_lowercase(), f)).collect();
    let mut domain_owner: HashMap<String, String> = queries::domain_owners(&mut *tx, &all_domains).await?.into_iter().collect();
    let mut account_owner: HashMap<String, String> = queries::account_owners(&mut *tx, &accounts).await?.into_iter().collect();

    // Each row decided in file order: a domain or account number an earlier row took is taken.
    let mut seen_names: HashMap<String, u64> = HashMap::new();
    let mut new_firms = queries::NewFirms::default();
    let mut accounts_set: Vec<(String, String)> = Vec::new();
    let mut new_domains: Vec<(String, String)> = Vec::new();
    let mut touched: HashSet<String> = HashSet::new();
    for row in &rows {
        if let Some(reason) = refusal(row) {
            refuse(&mut refused, row, reason);
            continue;
        }
        let key = row.name.to_lowercase();
        if let Some(first) = seen_names.get(&key) {
            refuse(&mut refused, row, format!("the firm is on line {first} already"));
            continue;
        }
        seen_names.insert(key.clone(), row.line);
        let current = by_name.get(&key);
        let firm_id = current.map_or_else(crate::ids::new_id, |f| f.firm_id.clone());
        let taken = row.domains.iter().find_map(|d| domain_owner.get(d).filter(|owner| **owner != firm_id).map(|_| d.clone()));
        if let Some(domain) = taken {
            refuse(&mut refused, row, format!("{domain} is a domain of another firm"));
            continue;
        }
        if let Some(account) = &row.account_number
            && account_owner.get(account).is_some_and(|owner| *owner != firm_id)
        {
            refuse(&mut refused, row, format!("another firm has the account number {account}"));
            continue;
        }
        let added_domains: Vec<String> = row.domains.iter().filter(|d| !domain_owner.contains_key(*d)).cloned().collect();
        for domain in &added_domains {
            domain_owner.insert(domain.clone(), firm_id.clone());
            new_domains.push((domain.clone(), firm_id.clone()));
        }
        summary.domains_added += added_domains.len();
        match current {
            None => {
                if let Some(account) = &row.account_number {
                    account_owner.insert(account.clone(), firm_id.clone());
                }
                new_firms.push(&firm_id, &row.name, row.account_number.as_deref());
                summary.added += 1;
                touched.insert(firm_id);
            }
            Some(firm) => {
                let account = row.account_number.clone().filter(|_| firm.account_number.is_none());
                if let Some(account) = &account {
                    account_owner.insert(account.clone(), firm_id.clone());
                    accounts_set.push((firm_id.clone(), account.clone()));
                }
                if account.is_some() || !added_domains.is_empty() {
                    summary.updated += 1;
                    touched.insert(firm_id);
                } else {
                    summary.unchanged += 1;
                }
            }
        }
    }
    summary.refused = refused.len();
    let decided = total.saturating_sub((new_firms.len() + new_domains.len()) as u64).min(total);
    progress(decided, total);

    // The writes, a chunk at a time.
    let chunk = request.chunk_size.max(1);
    let mut done = decided;
    for part in new_firms.chunks(chunk) {
        queries::insert_firms(&mut tx, &part).await?;
        done = (done + part.len() as u64).min(total);
        progress(done, total);
    }
    queries::set_missing_account_numbers(&mut tx, &accounts_set).await?;
    for part in new_domains.chunks(chunk) {
        queries::insert_domains(&mut tx, part).await?;
    }
    let touched: Vec<String> = touched.into_iter().collect();
    summary.readers_joined = queries::join_firms_by_domains(&mut tx, &touched).await?;
    progress(total, total);

    refused.sort_by_key(|row| row.line);
    let error_report = write_error_report(&request.file, "row", &refused)
        .map_err(|source| ImportError::Report { path: error_report_path(&request.file), source })?;
    if request.dry_run {
        tx.rollback().await?;
    } else {
        tx.commit().await?;
    }
    Ok(ImportReport { summary, refused, error_report, dry_run: request.dry_run })
}

/// The refused rows beside the file (an earlier run's report is removed when there are none).
#[cfg(test)]
mod tests {
    use super::*;

    fn rows_of(text: &[u8]) -> Vec<Row> {
        let path = std::env::temp_dir().join(format!("firms-{}.csv", crate::ids::new_id()));
        std::fs::write(&path, text).unwrap();
        let rows = read_rows(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        rows
    }

    #[test]
    fn a_header_names_the_columns_and_a_bom_crlf_and_quotes_are_read() {
        let rows = rows_of(b"\xef\xbb\xbfName,Account number,Domains\r\n\"Bank, Ltd\",ACC-1,\"bank.example; bank.co.uk\"\r\n\r\nFund,,fund.example\r\n");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].name, "Bank, Ltd");
        assert_eq!(rows[0].domains, ["bank.example", "bank.co.uk"]);
        assert_eq!(rows[0].account_number.as_deref(), Some("ACC-1"));
        assert_eq!((rows[1].line, rows[1].account_number.clone()), (4, None));
    }

    #[test]
    fn without_a_header_the_columns_are_name_domains_account() {
        let rows = rows_of(b"Bank,bank.example,ACC-1\n");
        assert_eq!((rows[0].name.as_str(), rows[0].domains.len(), rows[0].account_number.as_deref()), ("Bank", 1, Some("ACC-1")));
        assert!(refusal(&Row { name: String::new(), ..rows[0].clone() }).is_some());
        assert!(refusal(&Row { domains: vec!["gmail.com".into()], ..rows[0].clone() }).unwrap().contains("public mail service"));
    }
}
