//! Stripe's form encoding: `a[b][0][c]=v`, `expand[]=x`, decoded into a JSON tree so handlers can
//! read nested parameters the way Stripe documents them. Both `[]` and `[N]` make arrays
//! (Stripe's own libraries send `[0]`, serde_qs as used by async-stripe sends `[0]` percent-encoded).

use serde_json::{Map, Value};

use crate::error::ApiError;

/// The decoded parameters of one request (body for POST, query string for GET/DELETE).
#[derive(Debug, Clone, Default)]
pub struct Params(pub Value);

impl Params {
    pub fn parse(encoded: &str) -> Params {
        let mut root = Value::Object(Map::new());
        for (key, value) in form_urlencoded::parse(encoded.as_bytes()) {
            let path = split_key(&key);
            insert(&mut root, &path, Value::String(value.into_owned()));
        }
        Params(arrays(root))
    }

    /// A value at a dotted path, e.g. `"address.city"` or `"items.0.price"`.
    pub fn get(&self, path: &str) -> Option<&Value> {
        let mut at = &self.0;
        for part in path.split('.') {
            at = match at {
                Value::Object(map) => map.get(part)?,
                Value::Array(items) => items.get(part.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(at)
    }

    pub fn str(&self, path: &str) -> Option<&str> {
        self.get(path).and_then(Value::as_str)
    }

    pub fn required(&self, path: &str) -> Result<&str, ApiError> {
        match self.str(path) {
            Some(value) if !value.is_empty() => Ok(value),
            Some(_) => Err(ApiError::invalid(
                "parameter_invalid_empty",
                path,
                format!(
                    "You passed an empty string for '{}'. We assume empty values are an attempt to unset a parameter; however '{}' cannot be unset. You should remove '{}' from your request or supply a non-empty value.",
                    stripe_name(path),
                    stripe_name(path),
                    stripe_name(path)
                ),
            )),
            None => Err(ApiError::missing(path)),
        }
    }

    pub fn int(&self, path: &str) -> Result<Option<i64>, ApiError> {
        match self.str(path) {
            None => Ok(None),
            Some(text) => text
                .parse::<i64>()
                .map(Some)
                .map_err(|_| ApiError::invalid("parameter_invalid_integer", path, format!("Invalid integer: {text}"))),
        }
    }

    pub fn bool(&self, path: &str) -> Result<Option<bool>, ApiError> {
        match self.str(path) {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(text) => Err(ApiError::invalid("parameter_invalid_boolean", path, format!("Invalid boolean: {text}"))),
        }
    }

    /// `metadata[...]` as a JSON object of strings (empty values delete keys, as in Stripe).
    pub fn metadata(&self) -> Option<Map<String, Value>> {
        self.get("metadata").and_then(Value::as_object).cloned()
    }

    /// The `expand[]` list.
    pub fn expand(&self) -> Vec<String> {
        match self.get("expand") {
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
            Some(Value::String(one)) => vec![one.clone()],
            _ => Vec::new(),
        }
    }
}

/// `items.0.price` → `items[0][price]`, the name Stripe uses in its messages.
pub fn stripe_name(path: &str) -> String {
    let mut parts = path.split('.');
    let mut name = parts.next().unwrap_or_default().to_owned();
    for part in parts {
        name.push('[');
        name.push_str(part);
        name.push(']');
    }
    name
}

fn split_key(key: &str) -> Vec<String> {
    let (head, rest) = match key.find('[') {
        Some(at) => (&key[..at], &key[at..]),
        None => return vec![key.to_owned()],
    };
    let mut path = vec![head.to_owned()];
    for part in rest.split('[').skip(1) {
        path.push(part.trim_end_matches(']').to_owned());
    }
    path
}

fn insert(node: &mut Value, path: &[String], value: Value) {
    let Some((first, rest)) = path.split_first() else { return };
    let Value::Object(map) = node else { return };
    // `[]` appends: give it the next free index.
    let key = if first.is_empty() { map.len().to_string() } else { first.clone() };
    if rest.is_empty() {
        map.insert(key, value);
    } else {
        let child = map.entry(key).or_insert_with(|| Value::Object(Map::new()));
        if !child.is_object() {
            *child = Value::Object(Map::new());
        }
        insert(child, rest, value);
    }
}

/// Objects whose keys are all indices become arrays, ordered by index.
fn arrays(node: Value) -> Value {
    match node {
        Value::Object(map) => {
            let all_indices = !map.is_empty() && map.keys().all(|key| key.parse::<usize>().is_ok());
            if all_indices {
                let mut items: Vec<(usize, Value)> =
                    map.into_iter().map(|(key, value)| (key.parse::<usize>().unwrap_or_default(), arrays(value))).collect();
                items.sort_by_key(|(index, _)| *index);
                Value::Array(items.into_iter().map(|(_, value)| value).collect())
            } else {
                Value::Object(map.into_iter().map(|(key, value)| (key, arrays(value))).collect())
            }
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_bracket_notation_into_a_tree() {
        let params = Params::parse(
            "customer=cus_1&items[0][price]=price_1&expand[]=latest_invoice&expand[]=latest_invoice.confirmation_secret&metadata[a]=1&expand%5B2%5D=x",
        );
        assert_eq!(params.str("customer"), Some("cus_1"));
        assert_eq!(params.str("items.0.price"), Some("price_1"));
        assert_eq!(params.expand(), vec!["latest_invoice", "latest_invoice.confirmation_secret", "x"]);
        assert_eq!(params.str("metadata.a"), Some("1"));
        assert_eq!(stripe_name("items.0.price"), "items[0][price]");
    }
}
