//! The CSV file staff upload to add subscribers in bulk (the web upload and `insights-cli import-subscribers`).
//!
//! The rule is deliberately simple so that any spreadsheet export works: the first value of each line, trimmed,
//! is an email address when it contains an '@' that is not its first character. Everything else on the line is
//! ignored, and every line that is left out is reported with its reason so staff can fix the file.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{Hash, Hasher};
use std::io::Read;

/// Spreadsheet programs (Excel above all) write it at the start of "CSV UTF-8" files.
pub(crate) use crate::csv_files::BOM;

/// One line of the file and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvLine {
    /// 1-based line (record) number in the file, counting a header row.
    pub line: u64,
    /// The first value, trimmed (may be empty).
    pub value: String,
    /// None: the value is an email address kept for the check; Some: why it was left out.
    pub refused: Option<LineRefusal>,
}

/// Why a line adds no subscriber, so the operator can fix the file rather than guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineRefusal {
    /// Blank line or empty first value.
    Empty,
    /// No '@', or '@' first.
    NotAnEmail,
    /// The same address (ignoring case) appeared on an earlier line.
    Duplicate { first_line: u64 },
}

impl LineRefusal {
    /// The reason as an operator reads it in an error report, e.g. "not an email address", "duplicate of line 3", "empty line".
    pub fn reason(&self) -> String {
        match self {
            LineRefusal::Empty => "empty line".to_owned(),
            LineRefusal::NotAnEmail => "not an email address".to_owned(),
            LineRefusal::Duplicate { first_line } => format!("duplicate of line {first_line}"),
        }
    }
}

/// Reads every line; an I/O error (or a file that is not text the csv crate can read) is returned.
///
/// The whole file is held in memory because the line numbers are worked out from the raw bytes: the csv
/// crate's own line count is wrong after blank lines and with CR or CRLF line endings.
pub fn read_lines(mut reader: impl Read) -> Result<Vec<CsvLine>, csv::Error> {
    let mut data = Vec::new();
    reader.read_to_end(&mut data)?;
    lines_of(&data)
}

/// The kept email addresses, in file order, without duplicates.
pub fn emails(lines: &[CsvLine]) -> Vec<String> {
    lines.iter().filter(|line| line.refused.is_none()).map(|line| line.value.clone()).collect()
}

/// Convenience for callers with the whole file as text (the web upload).
pub fn parse_emails(text: &str) -> Vec<String> {
    // Reading from memory has no I/O to fail, and byte records with flexible lengths have no other error,
    // so the empty fallback is never taken.
    lines_of(text.as_bytes()).map(|lines| emails(&lines)).unwrap_or_default()
}

fn lines_of(data: &[u8]) -> Result<Vec<CsvLine>, csv::Error> {
    // No headers: a header row is just a line that fails the '@' rule. Flexible: rows of any length.
    let mut csv = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(data);
    let mut record = csv::ByteRecord::new();
    let mut lines = Vec::new();
    let mut counter = LineCounter::default();
    loop {
        let scan_from = csv.position().byte();
        if !csv.read_byte_record(&mut record)? {
            break;
        }
        let line = counter.line_of_record(data, usize::try_from(scan_from).unwrap_or(data.len()));
        let mut first = record.get(0).unwrap_or_default();
        if lines.is_empty() {
            // The csv crate strips a BOM itself; this guards against a version or setup that does not.
            first = first.strip_prefix(BOM).unwrap_or(first);
        }
        let value = String::from_utf8_lossy(first).trim().to_owned();
        let refused = if value.is_empty() {
            Some(LineRefusal::Empty)
        } else if !value.contains('@') || value.starts_with('@') {
            Some(LineRefusal::NotAnEmail)
        } else {
            None
        };
        lines.push(CsvLine { line, value, refused });
    }
    refuse_duplicates(&mut lines);
    Ok(lines)
}

/// A second pass so the duplicate check can borrow the values instead of storing a lowercased copy of each.
fn refuse_duplicates(lines: &mut [CsvLine]) {
    let mut first_lines: HashMap<Folded<'_>, u64> = HashMap::with_capacity(lines.len());
    let mut duplicates = Vec::new();
    for (index, line) in lines.iter().enumerate().filter(|(_, line)| line.refused.is_none()) {
        match first_lines.entry(Folded(&line.value)) {
            Entry::Occupied(entry) => duplicates.push((index, *entry.get())),
            Entry::Vacant(entry) => {
                entry.insert(line.line);
            }
        }
    }
    drop(first_lines);
    for (index, first_line) in duplicates {
        lines[index].refused = Some(LineRefusal::Duplicate { first_line });
    }
}

/// An address that compares and hashes as its lowercase (char by char), without allocating the lowercase.
struct Folded<'a>(&'a str);

impl Folded<'_> {
    fn lowercase(&self) -> impl Iterator<Item = char> + '_ {
        self.0.chars().flat_map(char::to_lowercase)
    }
}

impl PartialEq for Folded<'_> {
    fn eq(&self, other: &Self) -> bool {
        if self.0.is_ascii() && other.0.is_ascii() { self.0.eq_ignore_ascii_case(other.0) } else { self.lowercase().eq(other.lowercase()) }
    }
}

impl Eq for Folded<'_> {}

impl Hash for Folded<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Equal values must make the same calls, so the buffer is flushed at points fixed by the lowercase text
        // alone; buffering keeps it to one hasher call for any ordinary address.
        let mut buffer = [0u8; 128];
        let mut len = 0;
        if self.0.is_ascii() {
            // The same bytes and flush points as the general loop below, without decoding chars.
            for &byte in self.0.as_bytes() {
                if len + 4 > buffer.len() {
                    state.write(&buffer[..len]);
                    len = 0;
                }
                buffer[len] = byte.to_ascii_lowercase();
                len += 1;
            }
        } else {
            for c in self.lowercase() {
                if len + 4 > buffer.len() {
                    state.write(&buffer[..len]);
                    len = 0;
                }
                len += c.encode_utf8(&mut buffer[len..]).len();
            }
        }
        state.write(&buffer[..len]);
        state.write_u8(0xff);
    }
}

/// Physical line numbers as a text editor shows them (a spreadsheet too, unless a quoted value spans lines),
/// counting LF, CRLF and lone CR alike.
///
/// The csv reader's position before a record is where it started scanning, which is before any blank lines
/// (and, with CRLF, before the LF of the previous line); the record itself starts at the first byte after them.
/// Shared by the CSV imports (subscribers here, clearing accounts in `billing::accounts`).
#[derive(Default)]
pub(crate) struct LineCounter {
    /// Bytes before this offset are already counted.
    counted_to: usize,
    /// Line breaks before `counted_to`.
    breaks: u64,
}

impl LineCounter {
    pub(crate) fn line_of_record(&mut self, data: &[u8], scan_from: usize) -> u64 {
        let mut start = scan_from.max(self.counted_to).min(data.len());
        if start == 0 && data.starts_with(BOM) {
            start = BOM.len();
        }
        while matches!(data.get(start), Some(b'\r' | b'\n')) {
            start += 1;
        }
        // A CRLF is one break. Neither end of the range sits on an LF, so no CRLF is split across two ranges.
        let range = &data[self.counted_to..start];
        let lf = range.iter().filter(|&&byte| byte == b'\n').count();
        let cr = range.iter().filter(|&&byte| byte == b'\r').count();
        let crlf = if cr == 0 { 0 } else { range.windows(2).filter(|pair| *pair == b"\r\n").count() };
        self.breaks += (lf + cr - crlf) as u64;
        self.counted_to = start;
        self.breaks + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    fn summary(data: &[u8]) -> Vec<(u64, String, Option<LineRefusal>)> {
        read_lines(data).unwrap().into_iter().map(|l| (l.line, l.value, l.refused)).collect()
    }

    fn kept(line: u64, value: &str) -> (u64, String, Option<LineRefusal>) {
        (line, value.to_owned(), None)
    }

    fn refused(line: u64, value: &str, why: LineRefusal) -> (u64, String, Option<LineRefusal>) {
        (line, value.to_owned(), Some(why))
    }

    #[test]
    fn quoted_first_field_keeps_its_comma_and_loses_its_quotes() {
        let lines = summary(b"\"Smith, J\",smith@example.com\n\"a@b.com\",\"Doe, Jane\"\n");
        assert_eq!(lines, vec![refused(1, "Smith, J", LineRefusal::NotAnEmail), kept(2, "a@b.com")]);
    }

    #[test]
    fn bom_header_and_crlf() {
        let lines = summary(b"\xEF\xBB\xBFemail,name\r\nann@example.com,Ann\r\nbob@example.com,Bob\r\n");
        assert_eq!(lines, vec![refused(1, "email", LineRefusal::NotAnEmail), kept(2, "ann@example.com"), kept(3, "bob@example.com")]);
    }

    #[test]
    fn bom_right_before_an_address_is_stripped() {
        assert_eq!(parse_emails("\u{feff}ann@example.com\n"), vec!["ann@example.com"]);
        assert_eq!(summary(b"\xEF\xBB\xBF\n\nann@example.com"), vec![kept(3, "ann@example.com")]);
    }

    #[test]
    fn cr_only_line_endings() {
        let lines = summary(b"Email address\rann@example.com\r\rbob@example.com\r");
        assert_eq!(
            lines,
            vec![refused(1, "Email address", LineRefusal::NotAnEmail), kept(2, "ann@example.com"), kept(4, "bob@example.com")]
        );
    }

    #[test]
    fn blank_lines_are_skipped_and_whitespace_or_comma_lines_are_empty() {
        let lines = summary(b"\n\nann@example.com\n\n   \n,,\n ,bob@example.com\n\n\r\n\ncat@example.com\n\n");
        assert_eq!(
            lines,
            vec![
                kept(3, "ann@example.com"),
                refused(5, "", LineRefusal::Empty),
                refused(6, "", LineRefusal::Empty),
                refused(7, "", LineRefusal::Empty),
                kept(11, "cat@example.com"),
            ]
        );
    }

    #[test]
    fn at_sign_first_is_refused() {
        assert_eq!(
            summary(b"@first.com\n@a@b.com\n"),
            vec![refused(1, "@first.com", LineRefusal::NotAnEmail), refused(2, "@a@b.com", LineRefusal::NotAnEmail),]
        );
    }

    #[test]
    fn no_at_sign_is_refused() {
        assert_eq!(
            summary(b"example.com\n  ann@example.com  \n"),
            vec![refused(1, "example.com", LineRefusal::NotAnEmail), kept(2, "ann@example.com"),]
        );
    }

    #[test]
    fn duplicates_ignore_case_and_keep_the_first_as_written() {
        let lines = summary(b"Ann@Example.com\nbob@example.com\nann@example.COM\nANN@EXAMPLE.COM\n");
        assert_eq!(
            lines,
            vec![
                kept(1, "Ann@Example.com"),
                kept(2, "bob@example.com"),
                refused(3, "ann@example.COM", LineRefusal::Duplicate { first_line: 1 }),
                refused(4, "ANN@EXAMPLE.COM", LineRefusal::Duplicate { first_line: 1 }),
            ]
        );
        assert_eq!(parse_emails("Ann@Example.com\nbob@example.com\nann@example.COM\n"), vec!["Ann@Example.com", "bob@example.com"]);
    }

    #[test]
    fn duplicates_ignore_case_beyond_ascii_and_in_long_addresses() {
        // U+212A KELVIN SIGN lowercases to an ASCII 'k', so these pairs mix the ASCII and the general paths;
        // the long pair crosses the hash buffer's flush points.
        let x = "x".repeat(300);
        let text = format!(
            "\u{c9}lise@example.com\n\u{e9}lise@EXAMPLE.com\n\u{212a}im@example.com\nkim@example.com\n\
             \u{212a}{x}@example.com\nK{}@example.com\n{x}@example.com\n{x}@example.org\n",
            x.to_uppercase()
        );
        let refusals: Vec<_> = read_lines(text.as_bytes()).unwrap().into_iter().map(|l| l.refused).collect();
        let duplicate_of = |first_line| Some(LineRefusal::Duplicate { first_line });
        assert_eq!(refusals, vec![None, duplicate_of(1), None, duplicate_of(3), None, duplicate_of(5), None, None]);
    }

    #[test]
    fn ragged_rows_and_single_columns() {
        let lines = summary(b"ann@example.com,Ann,Admin,extra\nbob@example.com\ncat@example.com,Cat\n,\n");
        assert_eq!(
            lines,
            vec![kept(1, "ann@example.com"), kept(2, "bob@example.com"), kept(3, "cat@example.com"), refused(4, "", LineRefusal::Empty)]
        );
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily() {
        let lines = summary(b"\xff\xfe@example.com,\xc3\nann@example.com\n\xc3(\n");
        assert_eq!(
            lines,
            vec![kept(1, "\u{fffd}\u{fffd}@example.com"), kept(2, "ann@example.com"), refused(3, "\u{fffd}(", LineRefusal::NotAnEmail)]
        );
    }

    #[test]
    fn a_hundred_thousand_rows() {
        let mut text = String::from("email,name\n");
        for i in 0..100_000 {
            write!(text, "user{i}@example.com,User {i}\r\n").unwrap();
        }
        let emails = parse_emails(&text);
        assert_eq!(emails.len(), 100_000);
        assert_eq!(emails[0], "user0@example.com");
        assert_eq!(emails[99_999], "user99999@example.com");
        let lines = read_lines(text.as_bytes()).unwrap();
        assert_eq!(lines.last().map(|l| l.line), Some(100_001));
    }

    #[test]
    fn emails_keep_file_order_and_agree_with_parse_emails() {
        let text = "email\nzed@example.com\nbad\nann@example.com\nZED@example.com\nmia@example.com\n";
        let from_lines = emails(&read_lines(text.as_bytes()).unwrap());
        assert_eq!(from_lines, vec!["zed@example.com", "ann@example.com", "mia@example.com"]);
        assert_eq!(parse_emails(text), from_lines);
    }

    #[test]
    fn line_numbers_are_physical_lines() {
        // A header on line 1, a quoted value running over two lines, CRLF and blank lines in between.
        let data = b"email\r\nann@example.com\r\n\r\n\"multi\nline\",x\r\nbob@example.com\r\n\r\n\r\nann@example.com\r\n";
        assert_eq!(
            summary(data),
            vec![
                refused(1, "email", LineRefusal::NotAnEmail),
                kept(2, "ann@example.com"),
                refused(4, "multi\nline", LineRefusal::NotAnEmail),
                kept(6, "bob@example.com"),
                refused(9, "ann@example.com", LineRefusal::Duplicate { first_line: 2 }),
            ]
        );
    }

    #[test]
    fn reasons_read_well() {
        assert_eq!(LineRefusal::Empty.reason(), "empty line");
        assert_eq!(LineRefusal::NotAnEmail.reason(), "not an email address");
        assert_eq!(LineRefusal::Duplicate { first_line: 3 }.reason(), "duplicate of line 3");
    }

    #[test]
    fn io_errors_are_returned() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk on fire"))
            }
        }
        assert!(read_lines(Broken).is_err());
    }

    #[test]
    fn empty_file_has_no_lines() {
        assert!(read_lines(&b""[..]).unwrap().is_empty());
        assert!(read_lines("\u{feff}\n\r\n".as_bytes()).unwrap().is_empty());
    }
}
