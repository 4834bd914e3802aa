//! Deny by default, once per request and before anything executes: only the public fields answer
//! anonymous callers; only the identity fields answer callers without an Insights role; and a
//! reader whose trial has expired gets TRIAL_EXPIRED everywhere else. Resolvers then check their
//! own roles and per-record rules. (An async-graphql extension would run for every field of the
//! response; this reads the operation's root fields once.)

use async_graphql::{
    ErrorExtensions, Pos, Request, ServerError,
    parser::types::{DocumentOperations, ExecutableDocument, OperationDefinition, Selection, SelectionSet},
};

use super::documents::ParsedDocuments;
use crate::{
    auth::{Auth, TrialState},
    error::Error,
};

/// Fields anyone may call: the client needs its configuration before sign-in.
const PUBLIC_FIELDS: &[&str] = &["config", "__typename", "__schema", "__type"];
/// Fields any signed-in caller may call, so the app can tell them why they can go no further.
const IDENTITY_FIELDS: &[&str] = &["me", "updateUserFromToken", "isUserProfileComplete"];

/// The refusal for a root field, if any.
pub(crate) fn refusal(auth: &Auth, field: &str) -> Option<Error> {
    if PUBLIC_FIELDS.contains(&field) {
        return None;
    }
    let viewer = match auth {
        Auth::Signed(viewer) => viewer,
        Auth::Anonymous | Auth::Invalid => return Some(Error::Unauthenticated),
    };
    if IDENTITY_FIELDS.contains(&field) {
        return None;
    }
    if viewer.role.is_none() {
        return Some(Error::Forbidden);
    }
    if viewer.trial == TrialState::TrialExpired {
        return Some(Error::TrialExpired);
    }
    None
}

/// The operation a request runs, chosen as execution chooses it: the one it names, else the
/// document's only one (a named operation alone in its document is one of "several" to the
/// parser). None when there is no such operation: execution refuses the request.
pub fn selected_operation<'a>(document: &'a ExecutableDocument, operation_name: Option<&str>) -> Option<&'a OperationDefinition> {
    let operation = match (&document.operations, operation_name) {
        (DocumentOperations::Single(operation), None) => operation,
        (DocumentOperations::Multiple(operations), Some(name)) => operations.get(name)?,
        (DocumentOperations::Multiple(operations), None) if operations.len() == 1 => operations.values().next()?,
        _ => return None,
    };
    Some(&operation.node)
}

/// The root field names the request's operation selects (through fragments too).
fn root_fields<'a>(document: &'a ExecutableDocument, operation_name: Option<&str>) -> Vec<&'a str> {
    let Some(operation) = selected_operation(document, operation_name) else {
        return Vec::new();
    };
    let mut fields = Vec::new();
    collect(document, &operation.selection_set.node, &mut fields, 0);
    fields
}

fn collect<'a>(document: &'a ExecutableDocument, set: &'a SelectionSet, fields: &mut Vec<&'a str>, depth: usize) {
    // Fragment cycles are a validation error; the bound keeps this walk finite before validation.
    if depth > 16 {
        return;
    }
    for selection in &set.items {
        match &selection.node {
            Selection::Field(field) => fields.push(field.node.name.node.as_str()),
            Selection::FragmentSpread(spread) => {
                if let Some(fragment) = document.fragments.get(&spread.node.fragment_name.node) {
                    collect(document, &fragment.node.selection_set.node, fields, depth + 1);
                }
            }
            Selection::InlineFragment(inline) => collect(document, &inline.node.selection_set.node, fields, depth + 1),
        }
    }
}

/// The outcome of reading a request before executing it.
pub enum Checked {
    /// It does not parse: execution will report the syntax error.
    Unparsable,
    /// It may run; here is its parsed document.
    Allowed(Box<ExecutableDocument>),
    /// It is refused with this error.
    Refused(ServerError),
}

pub fn check(request: &Request, auth: &Auth, documents: &ParsedDocuments) -> Checked {
    let Ok(document) = documents.parse(&request.query) else { return Checked::Unparsable };
    for field in root_fields(&document, request.operation_name.as_deref()) {
        if let Some(error) = refusal(auth, field) {
            let mut server_error = error.extend().into_server_error(Pos::default());
            server_error.locations.clear();
            server_error.path = vec![async_graphql::PathSegment::Field(field.to_owned())];
            return Checked::Refused(server_error);
        }
    }
    Checked::Allowed(Box::new(document))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        auth::{Identity, Role, Viewer},
        users::User,
    };

    fn signed(role: Option<Role>, trial: TrialState) -> Auth {
        let identity = Identity {
            subject: "dev|1".into(),
            email: "a@b.c".into(),
            name: "A".into(),
            first_name: None,
            last_name: None,
            company: None,
            phone: None,
            scopes: vec![],
        };
        let user = User {
            user_id: crate::ids::new_id(),
            subject: "dev|1".into(),
            email: "a@b.c".into(),
            name: "A".into(),
            first_name: None,
            last_name: None,
            company: None,
            phone: None,
            position: None,
            scopes: vec![],
            is_internal: false,
            display_avatar: false,
            tableau_access: false,
            first_login: chrono::Utc::now(),
            last_login: None,
            version: 1,
            profile_picture: None,
            stats: None,
        };
        Auth::Signed(Box::new(Viewer { identity, user, role, trial, trial_minutes_left: 0 }))
    }

    fn code(auth: &Auth, field: &str) -> Option<&'static str> {
        refusal(auth, field).map(|e| e.code())
    }

    fn refused_code(auth: &Auth, query: &str, operation: Option<&str>) -> Option<String> {
        let mut request = Request::new(query);
        if let Some(name) = operation {
            request = request.operation_name(name);
        }
        match check(&request, auth, &ParsedDocuments::default()) {
            Checked::Refused(error) => Some(error.extensions.unwrap().get("code").unwrap().to_string().trim_matches('"').to_owned()),
            _ => None,
        }
    }

    #[test]
    fn anonymous_callers_reach_only_public_fields() {
        assert_eq!(code(&Auth::Anonymous, "config"), None);
        assert_eq!(code(&Auth::Anonymous, "__schema"), None);
        assert_eq!(code(&Auth::Anonymous, "me"), Some("UNAUTHENTICATED"));
        assert_eq!(code(&Auth::Invalid, "categoriesAsTree"), Some("UNAUTHENTICATED"));
    }

    #[test]
    fn callers_without_a_role_reach_only_identity_fields() {
        let outsider = signed(None, TrialState::NoTrial);
        assert_eq!(code(&outsider, "me"), None);
        assert_eq!(code(&outsider, "updateUserFromToken"), None);
        assert_eq!(code(&outsider, "categoriesAsTree"), Some("FORBIDDEN"));
    }

    #[test]
    fn an_expired_trial_reaches_only_identity_and_public_fields() {
        let expired = signed(Some(Role::Subscriber), TrialState::TrialExpired);
        assert_eq!(code(&expired, "searchArticles"), Some("TRIAL_EXPIRED"));
        assert_eq!(code(&expired, "categoriesAsTree"), Some("TRIAL_EXPIRED"));
        assert_eq!(code(&expired, "me"), None);
        assert_eq!(code(&expired, "isUserProfileComplete"), None);
        assert_eq!(code(&expired, "config"), None);
        assert!(refusal(&expired, "anything").unwrap().message().contains("Trial period has expired"));

        let running = signed(Some(Role::Subscriber), TrialState::TrialContinues);
        assert_eq!(code(&running, "searchArticles"), None);
    }

    #[test]
    fn root_fields_behind_fragments_and_named_operations_are_checked() {
        let expired = signed(Some(Role::Subscriber), TrialState::TrialExpired);
        assert_eq!(refused_code(&expired, "{ me { _id } }", None), None);
        assert_eq!(refused_code(&expired, "{ me { _id } tags { total } }", None).as_deref(), Some("TRIAL_EXPIRED"));
        assert_eq!(refused_code(&expired, "query { ...F } fragment F on Query { tags { total } }", None).as_deref(), Some("TRIAL_EXPIRED"));
        assert_eq!(refused_code(&expired, "query { ... on Query { tags { total } } }", None).as_deref(), Some("TRIAL_EXPIRED"));
        // A named operation sent without its name is still the one that runs.
        assert_eq!(refused_code(&expired, "query Tags { tags { total } }", None).as_deref(), Some("TRIAL_EXPIRED"));
        assert_eq!(refused_code(&expired, "query Tags { tags { total } }", Some("Tags")).as_deref(), Some("TRIAL_EXPIRED"));
        let two = "query A { me { _id } } query B { tags { total } }";
        assert_eq!(refused_code(&expired, two, Some("A")), None);
        assert_eq!(refused_code(&expired, two, Some("B")).as_deref(), Some("TRIAL_EXPIRED"));
        assert_eq!(
            refused_code(&Auth::Anonymous, "mutation { addTag(item: {name: \"x\", description: \"y\"}) { _id } }", None).as_deref(),
            Some("UNAUTHENTICATED")
        );
    }
}
