//! The opaque cursor of `searchArticles`: the sort keys of the last row of a page.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cursor {
    /// The row's relevance (smaller is better; 0 without a query).
    #[serde(rename = "r")]
    pub relevance: f64,
    #[serde(rename = "d")]
    pub published: DateTime<Utc>,
    #[serde(rename = "p")]
    pub pinned: bool,
    #[serde(rename = "i")]
    pub id: String,
}

impl Cursor {
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(serde_json::to_vec(self).expect("a cursor serialises"))
    }

    /// BAD_USER_INPUT for anything that is not one of ours.
    pub fn decode(text: &str) -> Result<Cursor> {
        let invalid = || Error::field("after", "Invalid cursor");
        let bytes = URL_SAFE_NO_PAD.decode(text.trim()).map_err(|_| invalid())?;
        let cursor: Cursor = serde_json::from_slice(&bytes).map_err(|_| invalid())?;
        if !crate::ids::is_valid_id(&cursor.id) || !cursor.relevance.is_finite() {
            return Err(invalid());
        }
        Ok(cursor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_exactly_and_refuse_garbage() {
        let cursor = Cursor { relevance: -0.0607927_f32 as f64, published: Utc::now(), pinned: true, id: crate::ids::new_id() };
        assert_eq!(Cursor::decode(&cursor.encode()).unwrap(), cursor);
        assert!(Cursor::decode("not a cursor").is_err());
        assert!(Cursor::decode(&URL_SAFE_NO_PAD.encode(b"{\"r\":0,\"d\":\"2024-01-01T00:00:00Z\",\"p\":false,\"i\":\"x\"}")).is_err());
    }
}
