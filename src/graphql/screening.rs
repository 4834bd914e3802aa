//! What a parsed document is refused for before validation or the access walk expand it: a
//! fragment that spreads itself, nesting deeper than validation allows, and more fields or
//! fragment spreads than a bound once its fragments are expanded (`__typename` included). Fragments
//! spreading each other four times over grow as 4^n in a few hundred bytes, and validation expands
//! every spread; here each fragment is measured once, bottom-up, so the cost is linear in the
//! document. Also refused: the NUL character in any text, which PostgreSQL cannot store.

use std::collections::HashMap;

use async_graphql::{
    ErrorExtensions, Name, Pos, Positioned, ServerError, Value, Variables,
    parser::types::{Directive, ExecutableDocument, Selection, SelectionSet},
};

use super::VALIDATION_FAILED;
use crate::{error::Error, validation::NUL_MESSAGE};

/// Selection sets nested in one another, through fragments too: validation's
/// `limit_recursive_depth`, the depth the access walk sees at most.
pub const NESTING_MAX: usize = 64;
/// Longest query text. The web app's longest is 1.6 KB, and it sends what can be long (an
/// article's HTML, a CSV) as variables; so parsing, which costs far more than reading the body,
/// stays short for every caller.
pub const QUERY_TEXT_MAX: usize = 64 * 1024;

/// Fragment spreads once expanded, over the whole document (a chain of 64 fragments, the deepest
/// validation allows, is 2,080). The web app's most is 8 (For You).
pub const SPREADS_MAX: usize = 5000;

/// What a selection set amounts to once its fragments are expanded.
#[derive(Clone, Copy, Default)]
struct Expanded {
    fields: usize,
    spreads: usize,
    /// Selection sets nested below it.
    depth: usize,
}

impl Expanded {
    /// Adds a nested selection set's size, and the field or spread that holds it.
    fn add(&mut self, inner: Expanded, fields: usize, spreads: usize) {
        self.fields = self.fields.saturating_add(inner.fields).saturating_add(fields);
        self.spreads = self.spreads.saturating_add(inner.spreads).saturating_add(spreads);
        self.depth = self.depth.max(inner.depth + 1);
    }
}

enum Measure {
    Measuring,
    Measured(Expanded),
}

struct Measurer<'a> {
    document: &'a ExecutableDocument,
    fragments: HashMap<&'a Name, Measure>,
}

impl<'a> Measurer<'a> {
    /// `set`'s expanded size; `nesting` is how deep it sits, so that the walk stays within
    /// `NESTING_MAX` whatever the document.
    fn selection_set(&mut self, set: &'a SelectionSet, nesting: usize) -> Result<Expanded, String> {
        if nesting > NESTING_MAX {
            return Err(format!("The query is nested too deep: at most {NESTING_MAX} levels, fragments included"));
        }
        let mut size = Expanded::default();
        for selection in &set.items {
            match &selection.node {
                Selection::Field(field) if field.node.selection_set.node.items.is_empty() => size.fields = size.fields.saturating_add(1),
                Selection::Field(field) => size.add(self.selection_set(&field.node.selection_set.node, nesting + 1)?, 1, 0),
                Selection::InlineFragment(inline) => size.add(self.selection_set(&inline.node.selection_set.node, nesting + 1)?, 0, 0),
                Selection::FragmentSpread(spread) => {
                    let inner = self.fragment(&spread.node.fragment_name.node, nesting + 1)?;
                    size.add(inner, 0, 1);
                }
            }
        }
        Ok(size)
    }

    /// A fragment's expanded size, measured the first time it is spread. An unknown fragment counts
    /// for nothing here: validation names it.
    fn fragment(&mut self, name: &'a Name, nesting: usize) -> Result<Expanded, String> {
        match self.fragments.get(name) {
            Some(Measure::Measured(size)) if nesting + size.depth > NESTING_MAX => {
                Err(format!("The query is nested too deep: at most {NESTING_MAX} levels, fragments included"))
            }
            Some(Measure::Measured(size)) => Ok(*size),
            Some(Measure::Measuring) => Err(format!("Cannot spread fragment \"{name}\" within itself")),
            None => {
                let Some(fragment) = self.document.fragments.get(name) else {
                    return Ok(Expanded::default());
                };
                self.fragments.insert(name, Measure::Measuring);
                let size = self.selection_set(&fragment.node.selection_set.node, nesting)?;
                self.fragments.insert(name, Measure::Measured(size));
                Ok(size)
            }
        }
    }
}

/// Refuses a query text too long to parse.
pub fn check_length(query: &str) -> Result<(), ServerError> {
    if query.len() <= QUERY_TEXT_MAX {
        return Ok(());
    }
    Err(refused(format!("The query text is longer than {} KB: send long values as variables", QUERY_TEXT_MAX / 1024)))
}

/// Refuses a document over the bounds, before anything else walks it. Every operation and every
/// fragment definition counts, since validation expands each.
pub fn check_size(document: &ExecutableDocument, fields_max: usize) -> Result<(), ServerError> {
    let mut measurer = Measurer { document, fragments: HashMap::new() };
    let mut total = Expanded::default();
    for (_, operation) in document.operations.iter() {
        total.add(measurer.selection_set(&operation.node.selection_set.node, 0).map_err(refused)?, 0, 0);
    }
    for name in document.fragments.keys() {
        total.add(measurer.fragment(name, 0).map_err(refused)?, 0, 0);
    }
    if total.spreads > SPREADS_MAX {
        return Err(refused(format!("The query spreads fragments {} times once they are expanded: at most {SPREADS_MAX}", total.spreads)));
    }
    if total.fields > fields_max {
        return Err(refused(format!(
            "The query selects {} fields once its fragments are expanded (__typename included): at most {fields_max}",
            total.fields
        )));
    }
    Ok(())
}

fn refused(message: String) -> ServerError {
    let mut error = ServerError::new(message, None);
    error.extensions.get_or_insert_with(Default::default).set("code", VALIDATION_FAILED);
    error
}

/// BAD_USER_INPUT naming the variable or argument whose text holds a NUL character, if any.
pub fn check_text(document: &ExecutableDocument, variables: &Variables) -> Result<(), ServerError> {
    let refused = |name: &str| {
        let mut error = Error::field(name, NUL_MESSAGE).extend().into_server_error(Pos::default());
        error.locations.clear();
        error
    };
    if let Some((name, _)) = variables.iter().find(|(_, value)| holds_nul(value)) {
        return Err(refused(name));
    }
    let mut sets: Vec<&SelectionSet> = document.operations.iter().map(|(_, operation)| &operation.node.selection_set.node).collect();
    for (_, operation) in document.operations.iter() {
        for variable in &operation.node.variable_definitions {
            if variable.node.default_value.as_ref().is_some_and(|value| holds_nul(&value.node)) {
                return Err(refused(&variable.node.name.node));
            }
        }
        if let Some(name) = nul_argument(&operation.node.directives) {
            return Err(refused(name));
        }
    }
    sets.extend(document.fragments.values().map(|fragment| &fragment.node.selection_set.node));
    // Each definition's own selections, not expanded: every literal is read once.
    while let Some(set) = sets.pop() {
        for selection in &set.items {
            if let Some(name) = nul_argument(selection.node.directives()) {
                return Err(refused(name));
            }
            match &selection.node {
                Selection::Field(field) => {
                    if let Some((name, _)) = field.node.arguments.iter().find(|(_, value)| literal!(value).is_some_and(|v| holds_nul(&v))) {
                        return Err(refused(&name.node));
                    }
                    sets.push(&field.node.selection_set.node);
                }
                Selection::InlineFragment(inline) => sets.push(&inline.node.selection_set.node),
                Selection::FragmentSpread(_) => {}
            }
        }
    }
    Ok(())
}

/// A literal of the document as a value, its variables read as null (they are checked by
/// themselves). A macro: the parser's value type is not exported under a name.
macro_rules! literal {
    ($value:expr) => {
        $value.node.clone().into_const_with(|_| Ok::<_, std::convert::Infallible>(Value::Null)).ok()
    };
}
use literal;

fn nul_argument(directives: &[Positioned<Directive>]) -> Option<&str> {
    directives
        .iter()
        .flat_map(|directive| &directive.node.arguments)
        .find(|(_, value)| literal!(value).is_some_and(|v| holds_nul(&v)))
        .map(|(name, _)| name.node.as_str())
}

fn holds_nul(value: &Value) -> bool {
    match value {
        Value::String(text) => text.contains('\0'),
        Value::List(items) => items.iter().any(holds_nul),
        Value::Object(fields) => fields.values().any(holds_nul),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(query: &str) -> Result<(), String> {
        check_size(&async_graphql::parser::parse_query(query).unwrap(), 2000).map_err(|error| error.message)
    }

    fn fan_out(levels: usize) -> String {
        let mut document = String::from("query { ...F0 }");
        for level in 0..levels {
            document.push_str(&format!(" fragment F{level} on Query {{{} }}", format!(" ...F{}", level + 1).repeat(4)));
        }
        document + &format!(" fragment F{levels} on Query {{ __typename }}")
    }

    #[test]
    fn fragments_are_measured_expanded_and_typename_counts() {
        assert_eq!(size("{ me { _id } }"), Ok(()));
        assert_eq!(size(&format!("{{ {} }}", "__typename ".repeat(2000))), Ok(()));
        assert!(size(&format!("{{ {} }}", "__typename ".repeat(2001))).unwrap_err().contains("2001 fields"));
        // 4^4 = 256 fields, counted for the operation and for each definition (F0: 256, F1: 64…).
        assert!(size(&fan_out(4)).is_ok());
        assert!(size(&fan_out(5)).unwrap_err().contains("fields once its fragments are expanded"));
        let started = std::time::Instant::now();
        assert!(size(&fan_out(40)).unwrap_err().contains("spreads fragments"), "no overflow either");
        assert!(started.elapsed() < std::time::Duration::from_millis(50));
    }

    #[test]
    fn long_query_texts_are_refused_unparsed() {
        assert!(check_length(&" ".repeat(QUERY_TEXT_MAX)).is_ok());
        assert!(check_length(&" ".repeat(QUERY_TEXT_MAX + 1)).unwrap_err().message.contains("64 KB"));
    }

    #[test]
    fn cycles_and_nesting_beyond_validation_are_refused() {
        assert!(size("{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }").unwrap_err().contains("within itself"));
        assert!(size("{ ...A } fragment A on Query { ... on Query { ...A } }").unwrap_err().contains("within itself"));
        let chain = |n: usize| {
            let mut document = String::from("{ ...F0 }");
            for level in 0..n {
                document.push_str(&format!(" fragment F{level} on Query {{ ...F{} }}", level + 1));
            }
            document + &format!(" fragment F{n} on Query {{ __typename }}")
        };
        assert_eq!(size(&chain(NESTING_MAX - 1)), Ok(()));
        assert!(size(&chain(NESTING_MAX)).unwrap_err().contains("nested too deep"));
        assert!(size(&chain(100_000)).unwrap_err().contains("nested too deep"), "a long chain is not walked to its end");
        assert_eq!(size("{ ...Missing }"), Ok(()), "validation names unknown fragments");
    }

    #[test]
    fn nul_characters_are_refused_naming_the_variable_or_argument() {
        let field = |query: &str, variables: serde_json::Value| {
            let document = async_graphql::parser::parse_query(query).unwrap();
            check_text(&document, &Variables::from_json(variables)).err().map(|error| {
                let extensions = error.extensions.unwrap();
                let Some(Value::Object(fields)) = extensions.get("fields") else { panic!("fields") };
                fields.keys().next().unwrap().to_string()
            })
        };
        assert_eq!(field("query($q: String) { search(q: $q) }", serde_json::json!({ "q": "copper" })), None);
        assert_eq!(field("query($q: String) { search(q: $q) }", serde_json::json!({ "q": "cop\u{0}per" })).as_deref(), Some("q"));
        let nested = serde_json::json!({ "item": { "tags": ["a", "b\u{0}"] } });
        assert_eq!(field("mutation($item: TagInput) { addTag(item: $item) }", nested).as_deref(), Some("item"));
        assert_eq!(field(r#"mutation { addTag(item: {name: "a\u0000"}) { _id } }"#, serde_json::json!({})).as_deref(), Some("item"));
        assert_eq!(field(r#"{ ...F } fragment F on Query { search(text: "\u0000") }"#, serde_json::json!({})).as_deref(), Some("text"));
        assert_eq!(field(r#"query($q: String = "\u0000") { search(q: $q) }"#, serde_json::json!({})).as_deref(), Some("q"));
    }
}
