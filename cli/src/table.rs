//! Plain aligned text tables for the operator commands: one line per row, columns padded to their
//! widest cell, numbers right-aligned, the last column left ragged (it holds the long texts).

use chrono::{DateTime, Utc};

pub struct Table {
    headers: Vec<String>,
    right: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(headers: &[&str]) -> Table {
        Table { headers: headers.iter().map(|h| h.to_string()).collect(), right: vec![false; headers.len()], rows: Vec::new() }
    }

    /// Right-aligns the columns at these positions (counts).
    pub fn right(mut self, columns: &[usize]) -> Table {
        for &column in columns {
            self.right[column] = true;
        }
        self
    }

    pub fn row(&mut self, cells: Vec<String>) {
        debug_assert_eq!(cells.len(), self.headers.len());
        self.rows.push(cells.into_iter().map(|cell| one_line(&cell)).collect());
    }

    /// Prints the table indented by two spaces, columns two spaces apart.
    pub fn print(&self) {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        for row in std::iter::once(&self.headers).chain(&self.rows) {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(column, cell)| match self.right[column] {
                    true => format!("{cell:>width$}", width = widths[column]),
                    false => format!("{cell:<width$}", width = widths[column]),
                })
                .collect();
            println!("  {}", cells.join("  ").trim_end());
        }
    }
}

/// A cell is one line: newlines and runs of spaces become one space.
fn one_line(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A moment as the tables show it: `2026-05-04 09:30:12` (UTC).
pub fn moment(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%d %H:%M:%S").to_string()
}

/// How long ago (or, for a future moment, how far ahead) `at` is: "12 s ago", "in 4 min".
pub fn relative(at: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let seconds = (now - at).num_seconds();
    let span = span(seconds.unsigned_abs());
    if seconds >= 0 { format!("{span} ago") } else { format!("in {span}") }
}

fn span(seconds: u64) -> String {
    match seconds {
        0..120 => format!("{seconds} s"),
        120..7200 => format!("{} min", seconds / 60),
        7200..172_800 => format!("{} h", seconds / 3600),
        _ => format!("{} d", seconds / 86_400),
    }
}

/// `1 email`, `3 emails`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_moments_read_naturally() {
        let now = Utc::now();
        assert_eq!(relative(now - chrono::Duration::seconds(5), now), "5 s ago");
        assert_eq!(relative(now - chrono::Duration::minutes(30), now), "30 min ago");
        assert_eq!(relative(now - chrono::Duration::hours(5), now), "5 h ago");
        assert_eq!(relative(now - chrono::Duration::days(3), now), "3 d ago");
        assert_eq!(relative(now + chrono::Duration::seconds(90), now), "in 90 s");
    }

    #[test]
    fn cells_are_one_line() {
        assert_eq!(one_line("connection refused\n  retrying"), "connection refused retrying");
    }
}
