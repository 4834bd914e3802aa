//! Parsed GraphQL documents, kept by their text. The web app sends the same few documents again
//! and again, and parsing one (async-graphql's pest grammar) costs several times more than copying
//! the parsed one: ~9 % of the server's CPU on the For You page before they were kept.

use std::sync::{Arc, Mutex};

use async_graphql::parser::{self, types::ExecutableDocument};

/// How many documents are kept (the web app sends about a hundred different ones).
const KEPT: usize = 512;
/// Longer documents are parsed every time, so the memory kept stays bounded (16 MB of text at most,
/// and the documents they parse to).
const LONGEST_KEPT: usize = 32 * 1024;

pub struct ParsedDocuments {
    kept: Mutex<lru::LruCache<String, Arc<ExecutableDocument>>>,
}

impl Default for ParsedDocuments {
    fn default() -> Self {
        ParsedDocuments { kept: Mutex::new(crate::kept::lru(KEPT)) }
    }
}

impl ParsedDocuments {
    /// The document `query` parses to: a copy of the kept one, else parsed (and kept).
    pub fn parse(&self, query: &str) -> parser::Result<ExecutableDocument> {
        let keep = query.len() <= LONGEST_KEPT;
        if keep && let Some(document) = self.kept.lock().expect("parsed documents").get(query).cloned() {
            return Ok(ExecutableDocument::clone(&document));
        }
        let document = parser::parse_query(query)?;
        if keep {
            self.kept.lock().expect("parsed documents").put(query.to_owned(), Arc::new(document.clone()));
        }
        Ok(document)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_document_is_the_one_its_text_parses_to() {
        let documents = ParsedDocuments::default();
        let query = "query Me($a: Int) { me { _id } config { stripePublishableKey } }";
        let first = documents.parse(query).unwrap();
        let again = documents.parse(query).unwrap();
        assert_eq!(format!("{again:?}"), format!("{first:?}"));
        assert_eq!(format!("{first:?}"), format!("{:?}", parser::parse_query(query).unwrap()));
        assert_eq!(documents.kept.lock().unwrap().len(), 1);
        let other = documents.parse("{ config { stripePublishableKey } }").unwrap();
        assert_ne!(format!("{other:?}"), format!("{first:?}"), "another text, another document");
    }

    #[test]
    fn what_does_not_parse_is_not_kept_and_long_documents_are_parsed_each_time() {
        let documents = ParsedDocuments::default();
        assert!(documents.parse("{ me { ").is_err());
        assert!(documents.parse("{ me { ").is_err(), "the error again, not a kept document");
        let long = format!("{{ me {{ _id }} }} # {}", "x".repeat(LONGEST_KEPT));
        documents.parse(&long).unwrap();
        assert_eq!(documents.kept.lock().unwrap().len(), 0);
    }
}
