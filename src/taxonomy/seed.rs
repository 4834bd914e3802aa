//! `insights-cli seed taxonomy FILE`: upserts a topic tree and tags from a CSV file.
//!
//! Columns: `type` (topic or tag), `path` (a topic's names from the root, joined by " > "; a tag's
//! name), `description`, and for topics `sector`, `locked`, `premium` (true/false, empty = false).
//! Every row is checked before anything is written, and the whole file is applied in one
//! transaction: a bad row is reported with its line number and nothing is written. Running the same
//! file twice changes nothing the second time.

use std::collections::HashMap;

use anyhow::Context;
use serde::Deserialize;
use sqlx::PgPool;

use super::{
    model::{CATEGORY_NAME_MAX, DESCRIPTION_MAX, MAX_LEVEL, TAG_NAME_MAX},
    queries::{self, CategoryValues},
};
use crate::ids;

pub const PATH_SEPARATOR: &str = " > ";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeedRow {
    Topic { line: u64, path: Vec<String>, description: String, sector: bool, locked: bool, premium: bool },
    Tag { line: u64, name: String, description: String },
}

impl SeedRow {
    pub fn line(&self) -> u64 {
        match self {
            SeedRow::Topic { line, .. } | SeedRow::Tag { line, .. } => *line,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub line: u64,
    pub message: String,
}

impl std::fmt::Display for RowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

#[derive(Debug, Deserialize)]
struct CsvRow {
    #[serde(rename = "type")]
    kind: String,
    path: String,
    description: String,
    #[serde(default)]
    sector: String,
    #[serde(default)]
    locked: String,
    #[serde(default)]
    premium: String,
}

fn flag(value: &str) -> Result<bool, String> {
    match value.trim().to_lowercase().as_str() {
        "" | "false" | "no" | "0" => Ok(false),
        "true" | "yes" | "1" => Ok(true),
        other => Err(format!("'{other}' is not true or false")),
    }
}

fn check_text(what: &str, value: &str, max: usize) -> Result<String, String> {
    let value = value.trim();
    if value.is_empty() {
        Err(format!("{what} is required"))
    } else if value.chars().count() > max {
        Err(format!("{what} is longer than {max} characters"))
    } else {
        Ok(value.to_owned())
    }
}

fn parse_row(line: u64, row: CsvRow) -> Result<SeedRow, String> {
    let description = check_text("description", &row.description, DESCRIPTION_MAX)?;
    match row.kind.trim().to_lowercase().as_str() {
        "topic" => {
            let path = row.path.split(PATH_SEPARATOR.trim()).map(|name| check_text("a topic name", name, CATEGORY_NAME_MAX)).collect::<Result<Vec<_>, _>>()?;
            if path.len() > MAX_LEVEL as usize {
                return Err(format!("topics nest at most {MAX_LEVEL} levels deep"));
            }
            let sector = flag(&row.sector)?;
            if sector && path.len() > 1 {
                return Err("only a root topic can be a sector".to_owned());
            }
            Ok(SeedRow::Topic { line, path, description, sector, locked: flag(&row.locked)?, premium: flag(&row.premium)? })
        }
        "tag" => Ok(SeedRow::Tag { line, name: check_text("a tag name", &row.path, TAG_NAME_MAX)?, description }),
        other => Err(format!("type must be topic or tag, not '{other}'")),
    }
}

fn key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The 1-based line where the record starting at byte `offset` really begins: the csv reader
/// counts a comment or blank line before a record as the record's start.
fn record_line(text: &str, offset: usize) -> u64 {
    let mut line = text[..offset.min(text.len())].matches('\n').count() as u64 + 1;
    for rest in text[offset.min(text.len())..].lines() {
        let trimmed = rest.trim();
        if !trimmed.is_empty() && !trimmed.starts_with('#') {
            break;
        }
        line += 1;
    }
    line
}

/// Reads and checks every row; all the errors, with line numbers, or the rows.
pub fn parse(mut reader: impl std::io::Read) -> Result<Vec<SeedRow>, Vec<RowError>> {
    let mut text = String::new();
    if let Err(error) = reader.read_to_string(&mut text) {
        return Err(vec![RowError { line: 0, message: format!("the file is not UTF-8 text: {error}") }]);
    }
    let mut csv = csv::ReaderBuilder::new().trim(csv::Trim::All).comment(Some(b'#')).flexible(true).from_reader(text.as_bytes());
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    let headers = match csv.headers() {
        Ok(headers) => headers.clone(),
        Err(error) => return Err(vec![RowError { line: 1, message: error.to_string() }]),
    };
    let mut record = csv::StringRecord::new();
    loop {
        match csv.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {
                let line = record.position().map(|p| record_line(&text, p.byte() as usize)).unwrap_or(0);
                // Tag rows may stop after the description: the topic-only columns are empty.
                while record.len() < headers.len() {
                    record.push_field("");
                }
                match record.deserialize::<CsvRow>(Some(&headers)).map_err(|e| e.to_string()).and_then(|row| parse_row(line, row)) {
                    Ok(row) => rows.push(row),
                    Err(message) => errors.push(RowError { line, message }),
                }
            }
            Err(error) => {
                let line = error.position().map(|p| p.line()).unwrap_or(0);
                errors.push(RowError { line, message: error.to_string() });
                if !matches!(error.kind(), csv::ErrorKind::Utf8 { .. } | csv::ErrorKind::UnequalLengths { .. }) {
                    break;
                }
            }
        }
    }
    // The same topic or tag twice is a mistake in the file.
    let mut seen: HashMap<String, u64> = HashMap::new();
    for row in &rows {
        let id = match row {
            SeedRow::Topic { path, .. } => format!("topic:{}", path.iter().map(|n| key(n)).collect::<Vec<_>>().join(PATH_SEPARATOR)),
            SeedRow::Tag { name, .. } => format!("tag:{}", key(name)),
        };
        if let Some(first) = seen.insert(id, row.line()) {
            errors.push(RowError { line: row.line(), message: format!("repeats line {first}") });
        }
    }
    if errors.is_empty() { Ok(rows) } else { Err(errors) }
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub topics_added: u64,
    pub topics_updated: u64,
    pub topics_unchanged: u64,
    pub tags_added: u64,
    pub tags_updated: u64,
    pub tags_unchanged: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum SeedError {
    #[error("{} bad row(s)", .0.len())]
    Rows(Vec<RowError>),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// Applies the rows in one transaction; `progress` is told after each row.
pub async fn apply(pool: &PgPool, mut rows: Vec<SeedRow>, progress: &(dyn Fn(u64) + Sync)) -> Result<Summary, SeedError> {
    // Parents before children, file order otherwise.
    rows.sort_by_key(|row| match row {
        SeedRow::Topic { path, .. } => path.len(),
        SeedRow::Tag { .. } => MAX_LEVEL as usize + 1,
    });
    let mut tx = pool.begin().await.context("begin")?;
    queries::lock_tree(&mut tx).await.context("lock the topic tree")?;
    let stored = queries::all_categories(&mut tx).await.context("read topics")?;
    // (parent id, lower-cased name) → stored topic; the same key the database keeps unique.
    let mut topics: HashMap<(Option<String>, String), queries::StoredCategory> =
        stored.into_iter().map(|c| ((c.parent_id.clone(), key(&c.name)), c)).collect();
    let mut tags: HashMap<String, queries::StoredTag> =
        queries::all_tags(&mut tx).await.context("read tags")?.into_iter().map(|t| (key(&t.name), t)).collect();
    // Topic path (lower-cased) → id, filled as parents are written.
    let mut ids_by_path: HashMap<Vec<String>, String> = HashMap::new();
    let mut summary = Summary::default();
    let mut errors = Vec::new();

    for (done, row) in rows.iter().enumerate() {
        match row {
            SeedRow::Topic { line, path, description, sector, locked, premium } => {
                let name = path.last().expect("a path has a name");
                let parent_id = if path.len() == 1 {
                    None
                } else {
                    let parent_path: Vec<String> = path[..path.len() - 1].iter().map(|n| key(n)).collect();
                    match resolve(&parent_path, &topics, &mut ids_by_path) {
                        Some(id) => Some(id),
                        None => {
                            errors.push(RowError { line: *line, message: format!("parent topic '{}' is not in the file or the database", path[..path.len() - 1].join(PATH_SEPARATOR)) });
                            continue;
                        }
                    }
                };
                let slot = (parent_id.clone(), key(name));
                match topics.get(&slot) {
                    Some(existing)
                        if existing.description == *description
                            && existing.is_featured == *sector
                            && existing.is_locked == *locked
                            && existing.is_premium == *premium =>
                    {
                        summary.topics_unchanged += 1;
                    }
                    Some(existing) => {
                        let values = CategoryValues {
                            name: &existing.name,
                            description,
                            parent_id: parent_id.as_deref(),
                            is_featured: *sector,
                            small_image: existing.small_image.as_deref(),
                            large_image: existing.large_image.as_deref(),
                            promotional_content_id: existing.promotional_content_id.as_deref(),
                            is_locked: *locked,
                            is_premium: *premium,
                        };
                        queries::update_category(&mut tx, &existing.category_id, existing.version, &values).await.context("update a topic")?;
                        summary.topics_updated += 1;
                    }
                    None => {
                        let id = ids::new_id();
                        let values = CategoryValues {
                            name,
                            description,
                            parent_id: parent_id.as_deref(),
                            is_featured: *sector,
                            small_image: None,
                            large_image: None,
                            promotional_content_id: None,
                            is_locked: *locked,
                            is_premium: *premium,
                        };
                        queries::insert_category(&mut tx, &id, &values).await.with_context(|| format!("line {line}: add topic"))?;
                        topics.insert(slot, queries::StoredCategory {
                            category_id: id,
                            name: name.clone(),
                            parent_id,
                            description: description.clone(),
                            is_featured: *sector,
                            small_image: None,
                            large_image: None,
                            promotional_content_id: None,
                            is_locked: *locked,
                            is_premium: *premium,
                            version: 1,
                        });
                        summary.topics_added += 1;
                    }
                }
            }
            SeedRow::Tag { line, name, description } => match tags.get(&key(name)) {
                Some(existing) if existing.description == *description => summary.tags_unchanged += 1,
                Some(existing) => {
                    queries::update_tag(&mut tx, &existing.tag_id, &existing.name, description).await.context("update a tag")?;
                    summary.tags_updated += 1;
                }
                None => {
                    let id = ids::new_id();
                    queries::insert_tag(&mut tx, &id, name, description).await.with_context(|| format!("line {line}: add tag"))?;
                    tags.insert(key(name), queries::StoredTag { tag_id: id, name: name.clone(), description: description.clone(), version: 1 });
                    summary.tags_added += 1;
                }
            },
        }
        progress(done as u64 + 1);
    }
    if !errors.is_empty() {
        errors.sort_by_key(|e| e.line);
        // Dropping the transaction rolls everything back.
        return Err(SeedError::Rows(errors));
    }
    tx.commit().await.context("commit")?;
    Ok(summary)
}

/// The id of the topic at `path` (lower-cased names from the root), from what is stored or written.
fn resolve(
    path: &[String],
    topics: &HashMap<(Option<String>, String), queries::StoredCategory>,
    cache: &mut HashMap<Vec<String>, String>,
) -> Option<String> {
    if let Some(id) = cache.get(path) {
        return Some(id.clone());
    }
    let mut parent: Option<String> = None;
    for name in path {
        let found = topics.get(&(parent.clone(), name.clone()))?;
        parent = Some(found.category_id.clone());
    }
    cache.insert(path.to_vec(), parent.clone()?);
    parent
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_topics_and_tags_with_line_numbers() {
        let csv = "type,path,description,sector,locked,premium\n\
                   topic,Equities,Listed equity research,true,,\n\
                   # a comment line\n\
                   topic,Equities > Europe,European equities,,,yes\n\
                   tag,ESG,Environmental and social\n";
        let rows = parse(csv.as_bytes()).unwrap();
        assert_eq!(rows.len(), 3);
        assert!(matches!(&rows[1], SeedRow::Topic { line: 4, path, premium: true, .. } if path == &["Equities", "Europe"]), "{rows:?}");
        assert!(matches!(&rows[2], SeedRow::Tag { line: 5, .. }));
    }

    #[test]
    fn reports_every_bad_row_with_its_line() {
        let csv = "type,path,description,sector,locked,premium\n\
                   topic,Equities,,true,,\n\
                   topic,Equities > Europe,Europe,true,,\n\
                   widget,Thing,A thing,,,\n\
                   topic,A > B > C > D > E > F,Too deep,,,\n\
                   tag,ESG,One\n\
                   tag,esg,Two\n";
        let errors = parse(csv.as_bytes()).unwrap_err();
        let lines: Vec<u64> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![2, 3, 4, 5, 7], "{errors:?}");
        assert!(errors[0].message.contains("description is required"));
        assert!(errors[1].message.contains("sector"));
        assert!(errors[4].message.contains("repeats line 6"));
    }
}
