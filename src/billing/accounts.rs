//! Clearing accounts (spec 3 §3 Billing account): the firm's accounts a reader may charge a
//! premium channel to. Administrators add and remove them on the user's edit screen; operators
//! import them from CSV (`insights-cli billing-accounts import`).

use std::io::Read;

use sqlx::{PgConnection, PgExecutor, PgPool};

use super::queries;
use crate::{
    error::{Error, FieldErrors, REQUIRED_MESSAGE, Result},
    subscriptions::csv_emails::{BOM, LineCounter},
    validation::max_length_message,
};

pub const ACCOUNT_NUMBER_MAX: usize = 64;
pub const NAME_MAX: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillingAccount {
    pub account_id: i64,
    pub user_id: String,
    pub account_number: String,
    pub name: Option<String>,
}

/// A user's accounts whose number or name contains `filter` (case-insensitive), by number.
pub async fn of_user(db: impl PgExecutor<'_>, user_id: &str, filter: Option<&str>) -> sqlx::Result<Vec<BillingAccount>> {
    let filter = filter.map(str::trim).filter(|f| !f.is_empty()).map(|f| format!("%{}%", f.replace(['%', '_', '\\'], "")));
    queries::billing_accounts(db, user_id, filter.as_deref()).await
}

/// Checks an account number and name as typed; returns them trimmed.
pub fn validate(account_number: &str, name: Option<&str>) -> Result<(String, Option<String>)> {
    let mut fields = FieldErrors::new();
    let number = account_number.trim();
    if number.is_empty() {
        fields.insert("accountNumber".into(), REQUIRED_MESSAGE.into());
    } else if number.chars().count() > ACCOUNT_NUMBER_MAX {
        fields.insert("accountNumber".into(), max_length_message(ACCOUNT_NUMBER_MAX));
    }
    let name = name.map(str::trim).filter(|n| !n.is_empty());
    if name.is_some_and(|n| n.chars().count() > NAME_MAX) {
        fields.insert("name".into(), max_length_message(NAME_MAX));
    }
    if !fields.is_empty() {
        return Err(Error::invalid(fields));
    }
    Ok((number.to_owned(), name.map(str::to_owned)))
}

/// Adds an account to a user (the same number again updates its name).
pub async fn add(pool: &PgPool, user_id: &str, account_number: &str, name: Option<&str>) -> Result<BillingAccount> {
    let (number, name) = validate(account_number, name)?;
    if !queries::user_exists(pool, user_id).await? {
        return Err(Error::NotFound("User"));
    }
    Ok(queries::upsert_billing_account(pool, user_id, &number, name.as_deref()).await?)
}

/// Removes an account; subscriptions already charged to it keep their account number.
pub async fn remove(pool: &PgPool, account_id: i64) -> Result<()> {
    let removed = queries::delete_billing_account(pool, account_id).await?;
    if removed == 0 { Err(Error::NotFound("Billing account")) } else { Ok(()) }
}

/// One row of an import: the user's email, the account number and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportRow {
    pub email: String,
    pub account_number: String,
    pub name: Option<String>,
}

/// What an import did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Imported {
    /// Accounts added.
    pub added: u64,
    /// Accounts already there whose name changed (the same name again is not an update).
    pub updated: u64,
    /// Rows naming no Insights user, by email (lowercase).
    pub unknown_users: Vec<String>,
}

/// Adds (or renames) accounts for users found by email (ignoring case), in one transaction. A
/// second run of the same rows adds and updates nothing.
pub async fn import(pool: &PgPool, rows: &[ImportRow]) -> Result<Imported> {
    let mut tx = pool.begin().await?;
    let imported = import_in(&mut tx, rows).await?;
    tx.commit().await?;
    Ok(imported)
}

/// [`import`] in the caller's transaction (`insights-cli billing-accounts import --dry-run` rolls it
/// back). When the same user and number come twice, the later row's name wins.
pub async fn import_in(conn: &mut PgConnection, rows: &[ImportRow]) -> Result<Imported> {
    let emails: Vec<String> = rows.iter().map(|r| r.email.trim().to_lowercase()).collect();
    let numbers: Vec<&str> = rows.iter().map(|r| r.account_number.trim()).collect();
    let names: Vec<Option<&str>> = rows.iter().map(|r| r.name.as_deref().map(str::trim).filter(|n| !n.is_empty())).collect();
    let unknown_users = queries::unknown_user_emails(conn, &emails).await?;
    // Per account written, whether it was added rather than renamed.
    let written = queries::import_billing_accounts(conn, &emails, &numbers, &names).await?;
    let added = written.iter().filter(|&&added| added).count() as u64;
    Ok(Imported { added, updated: written.len() as u64 - added, unknown_users })
}

/// The users with this email (ignoring case), each with their accounts by number; empty: no such user.
/// Several users may share an address (different sign-in providers): each is listed.
pub async fn of_email(pool: &PgPool, email: &str) -> sqlx::Result<Vec<(UserRef, Vec<BillingAccount>)>> {
    let users = queries::users_of_email(pool, email.trim()).await?;
    let mut listed = Vec::with_capacity(users.len());
    for user in users {
        let accounts = of_user(pool, &user.user_id, None).await?;
        listed.push((user, accounts));
    }
    Ok(listed)
}

/// A user as `of_email` names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRef {
    pub user_id: String,
    pub email: String,
    pub name: String,
}

/// A line of an import file, read and checked: a row to import, or why it is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportLine {
    /// 1-based line in the file where the row starts (a header counts).
    pub line: u64,
    pub row: ImportRow,
    /// Some: the row is left out, and why ("no email", "account number longer than 64 characters", …).
    pub refused: Option<String>,
}

/// An import file as read: whether its first row was a header, and its other non-blank rows.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ImportFile {
    pub header: bool,
    pub lines: Vec<ImportLine>,
}

impl ImportFile {
    /// The rows to import (those not refused).
    pub fn rows(&self) -> Vec<ImportRow> {
        self.lines.iter().filter(|l| l.refused.is_none()).map(|l| l.row.clone()).collect()
    }

    pub fn refused(&self) -> impl Iterator<Item = &ImportLine> {
        self.lines.iter().filter(|l| l.refused.is_some())
    }
}

/// Reads an import file: CSV with the columns email, account number, name (name optional). A
/// first row with no '@' that mentions "mail" is a header, and its column names
/// (email / account number / name, in any order) place the columns. A UTF-8 byte order mark,
/// CRLF line ends, quoted values and blank lines are accepted; values are trimmed.
pub fn read_import(mut reader: impl Read) -> std::result::Result<ImportFile, csv::Error> {
    let mut data = Vec::new();
    reader.read_to_end(&mut data)?;
    let mut csv = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(data.as_slice());
    let mut record = csv::ByteRecord::new();
    let mut file = ImportFile::default();
    let mut columns = Columns { email: 0, number: 1, name: Some(2) };
    let mut first = true;
    let mut lines = LineCounter::default();
    loop {
        let scan_from = csv.position().byte();
        if !csv.read_byte_record(&mut record)? {
            break;
        }
        let line = lines.line_of_record(&data, usize::try_from(scan_from).unwrap_or(data.len()));
        let cells: Vec<std::result::Result<String, ()>> = record
            .iter()
            .enumerate()
            .map(|(i, cell)| {
                let cell = if first && i == 0 { cell.strip_prefix(BOM).unwrap_or(cell) } else { cell };
                std::str::from_utf8(cell).map(|c| c.trim().to_owned()).map_err(|_| ())
            })
            .collect();
        if cells.iter().all(|c| c.as_ref().is_ok_and(|c| c.is_empty())) {
            continue; // a blank line, or only separators
        }
        if std::mem::take(&mut first) {
            let texts: Vec<&str> = cells.iter().map(|c| c.as_deref().unwrap_or("")).collect();
            if let Some(header) = Columns::of_header(&texts) {
                columns = header;
                file.header = true;
                continue;
            }
        }
        let cell = |i: Option<usize>| i.and_then(|i| cells.get(i)).cloned().unwrap_or(Ok(String::new()));
        let (email, number, name) = (cell(Some(columns.email)), cell(Some(columns.number)), cell(columns.name));
        let refused = if email.is_err() || number.is_err() || name.is_err() { Some("not UTF-8 text".to_owned()) } else { None };
        let (email, account_number, name) = (email.unwrap_or_default(), number.unwrap_or_default(), name.unwrap_or_default());
        let refused = refused.or_else(|| refusal(&email, &account_number, &name));
        let name = (!name.is_empty()).then_some(name);
        file.lines.push(ImportLine { line, row: ImportRow { email, account_number, name }, refused });
    }
    Ok(file)
}

/// Why a row cannot be imported, if it cannot.
fn refusal(email: &str, number: &str, name: &str) -> Option<String> {
    if email.is_empty() {
        Some("no email".to_owned())
    } else if !email.contains('@') || email.starts_with('@') {
        Some("not an email address".to_owned())
    } else if number.is_empty() {
        Some("no account number".to_owned())
    } else if number.chars().count() > ACCOUNT_NUMBER_MAX {
        Some(format!("account number longer than {ACCOUNT_NUMBER_MAX} characters"))
    } else if name.chars().count() > NAME_MAX {
        Some(format!("name longer than {NAME_MAX} characters"))
    } else {
        None
    }
}

/// Where the values are in a row.
struct Columns {
    email: usize,
    number: usize,
    name: Option<usize>,
}

impl Columns {
    /// The columns named by a header row, or None when the row is data.
    fn of_header(cells: &[&str]) -> Option<Columns> {
        let lower: Vec<String> = cells.iter().map(|c| c.to_lowercase()).collect();
        if lower.iter().any(|c| c.contains('@')) || !lower.iter().any(|c| c.contains("mail")) {
            return None;
        }
        let find = |matches: &dyn Fn(&str) -> bool| lower.iter().position(|c| matches(c));
        let email = find(&|c| c.contains("mail"))?;
        let number = find(&|c| !c.contains("mail") && (c.contains("number") || c.contains("no") || c == "account" || c == "id"));
        let name = find(&|c| !c.contains("mail") && c.contains("name"));
        match number {
            Some(number) if Some(number) != name => Some(Columns { email, number, name }),
            // Names the header did not make clear: the columns in their documented order.
            _ => Some(Columns { email: 0, number: 1, name: Some(2) }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> ImportFile {
        read_import(text.as_bytes()).unwrap()
    }

    fn row(email: &str, number: &str, name: Option<&str>) -> ImportRow {
        ImportRow { email: email.into(), account_number: number.into(), name: name.map(Into::into) }
    }

    #[test]
    fn a_header_is_detected_and_its_columns_placed() {
        let file = read("\u{feff}Name,E-mail,Account number\r\n\r\n\"Acme, Ltd\",ann@client.example,ACC-1\r\n");
        assert!(file.header);
        assert_eq!(file.lines.len(), 1);
        assert_eq!(file.lines[0].line, 3);
        assert_eq!(file.lines[0].row, row("ann@client.example", "ACC-1", Some("Acme, Ltd")));
    }

    #[test]
    fn without_a_header_the_columns_are_email_number_name() {
        let file = read("\u{feff}ann@client.example, ACC-1 \nbob@client.example,ACC-2,Bob's account\n,,\n");
        assert!(!file.header);
        assert_eq!(file.rows(), vec![row("ann@client.example", "ACC-1", None), row("bob@client.example", "ACC-2", Some("Bob's account"))]);
    }

    #[test]
    fn bad_rows_are_refused_with_their_reason() {
        let long = "9".repeat(ACCOUNT_NUMBER_MAX + 1);
        let file = read(&format!("email,account,name\n,ACC-1\nann@client.example,\nann@client.example,{long}\nnot-an-email,ACC-2\n"));
        let reasons: Vec<(u64, &str)> = file.refused().map(|l| (l.line, l.refused.as_deref().unwrap())).collect();
        assert_eq!(
            reasons,
            vec![(2, "no email"), (3, "no account number"), (4, "account number longer than 64 characters"), (5, "not an email address")]
        );
        assert!(file.rows().is_empty());
    }
}
