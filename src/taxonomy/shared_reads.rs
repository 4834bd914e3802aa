//! Responses of shared topic reads (`categoriesAsTree`, `categories`, `rootCategories` without
//! viewer-specific fields or counts) are the same for every signed-in reader until the topics
//! change. They are kept serialised at the topics' revision (migration 0003; `kept`): executing a
//! 5,000-topic tree costs tens of milliseconds, reusing it a lookup. The access gate runs before
//! the lookup, so a kept response never reaches a caller who may not read it.

use async_graphql::parser::types::{ExecutableDocument, OperationType, Selection, SelectionSet};

/// Root fields whose answer is the same for every caller allowed to ask.
const SHARED_ROOT_FIELDS: &[&str] = &["categoriesAsTree", "categories", "rootCategories", "__typename"];
/// Fields that differ per caller, and counts (which move with every article link, follow and view,
/// not with the topics' revision): an operation selecting one is never shared.
const UNSHARED_FIELDS: &[&str] = &["isFollowing", "articleCount", "subscribersCount", "contributorsCount", "views"];

/// Whether the operation `operation_name` of `document` is a shared topic read.
pub fn is_shared_read(document: &ExecutableDocument, operation_name: Option<&str>) -> bool {
    let Some(operation) = crate::graphql::access::selected_operation(document, operation_name) else {
        return false;
    };
    if operation.ty != OperationType::Query {
        return false;
    }
    let root = &operation.selection_set.node;
    root_fields_shared(document, root, 0) && !selects_unshared_field(document, root, 0)
}

fn root_fields_shared(document: &ExecutableDocument, set: &SelectionSet, depth: usize) -> bool {
    depth <= 16
        && set.items.iter().all(|selection| match &selection.node {
            Selection::Field(field) => SHARED_ROOT_FIELDS.contains(&field.node.name.node.as_str()),
            Selection::FragmentSpread(spread) => document
                .fragments
                .get(&spread.node.fragment_name.node)
                .is_some_and(|f| root_fields_shared(document, &f.node.selection_set.node, depth + 1)),
            Selection::InlineFragment(inline) => root_fields_shared(document, &inline.node.selection_set.node, depth + 1),
        })
}

fn selects_unshared_field(document: &ExecutableDocument, set: &SelectionSet, depth: usize) -> bool {
    // Too deep to be a real query: treat as viewer-specific, i.e. never shared.
    if depth > 64 {
        return true;
    }
    set.items.iter().any(|selection| match &selection.node {
        Selection::Field(field) => {
            UNSHARED_FIELDS.contains(&field.node.name.node.as_str())
                || selects_unshared_field(document, &field.node.selection_set.node, depth + 1)
        }
        Selection::FragmentSpread(spread) => document
            .fragments
            .get(&spread.node.fragment_name.node)
            .is_none_or(|f| selects_unshared_field(document, &f.node.selection_set.node, depth + 1)),
        Selection::InlineFragment(inline) => selects_unshared_field(document, &inline.node.selection_set.node, depth + 1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(query: &str, operation: Option<&str>) -> bool {
        is_shared_read(&async_graphql::parser::parse_query(query).unwrap(), operation)
    }

    #[test]
    fn only_viewer_independent_topic_reads_are_shared() {
        assert!(shared("{ categoriesAsTree { _id name children { _id } } }", None));
        assert!(shared("query T { categories { _id } rootCategories { name } }", Some("T")));
        assert!(shared("query { ...F } fragment F on Query { categoriesAsTree { _id } }", None));
        assert!(!shared("{ categoriesAsTree { _id isFollowing } }", None));
        assert!(!shared("{ categories { _id views } }", None));
        assert!(!shared("{ categoriesAsTree { _id children { articleCount } } }", None));
        assert!(!shared("{ rootCategories { ...C } } fragment C on Category { subscribersCount }", None));
        assert!(!shared("{ categoriesAsTree { _id children { ...C } } } fragment C on Category { isFollowing }", None));
        assert!(!shared("{ categoriesAsTree { _id } me { _id } }", None));
        assert!(!shared("{ tags { total } }", None));
        assert!(!shared("mutation { followEntity(item: {entityId: \"x\", entityType: Category, isAdd: true}) { isFollowing } }", None));
        assert!(!shared("query A { categories { _id } } query B { me { _id } }", None));
    }
}
