//! Deny by default, once per request and before anything executes: only the public fields answer
//! anonymous callers; only the identity fields answer callers without an Insights role; and a
//! reader whose trial has expired gets TRIAL_EXPIRED everywhere else. Resolvers then check their
//! own roles and per-record rules. (An async-graphql extension would run for every field of the
//! response; this reads the operation's root fields once.)

use std::collections::HashSet;

use async_graphql::{
    ErrorExtensions, Pos, Request, ServerError,
    parser::types::{DocumentOperations, ExecutableDocument, OperationDefinition, OperationType, Selection},
};

use super::{documents::ParsedDocuments, screening};
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

/// The root field names the request's operation selects (through fragments too). Each fragment is
/// read once, however often it is spread and however deep: nothing it selects escapes the check.
pub fn root_fields<'a>(document: &'a ExecutableDocument, operation_name: Option<&str>) -> Vec<&'a str> {
    let Some(operation) = selected_operation(document, operation_name) else {
        return Vec::new();
    };
    let mut fields = Vec::new();
    let mut read = HashSet::new();
    let mut sets = vec![&operation.selection_set.node];
    while let Some(set) = sets.pop() {
        for selection in &set.items {
            match &selection.node {
                Selection::Field(field) => fields.push(field.node.name.node.as_str()),
                Selection::FragmentSpread(spread) => {
                    let name = &spread.node.fragment_name.node;
                    if let Some(fragment) = document.fragments.get(name)
                        && read.insert(name)
                    {
                        sets.push(&fragment.node.selection_set.node);
                    }
                }
                Selection::InlineFragment(inline) => sets.push(&inline.node.selection_set.node),
            }
        }
    }
    fields
}

/// The outcome of reading a request before executing it.
pub enum Checked {
    /// It does not parse: the syntax error.
    Unparsable(ServerError),
    /// It may run; here is its parsed document.
    Allowed(Box<ExecutableDocument>),
    /// It is refused with this error.
    Refused(ServerError),
}

/// Parses the request and refuses it when it is over the document bounds (`screening`), when the
/// caller may not call one of its root fields, or when its text holds NUL; else its document.
pub fn check(request: &Request, auth: &Auth, documents: &ParsedDocuments, fields_max: usize) -> Checked {
    if let Err(error) = screening::check_length(&request.query) {
        return Checked::Refused(error);
    }
    let document = match documents.parse(&request.query) {
        Ok(document) => document,
        Err(error) => return Checked::Unparsable(error.into()),
    };
    if let Err(error) = screening::check_size(&document, fields_max) {
        return Checked::Refused(error);
    }
    // A personal access token reads; it changes nothing.
    let read_only = matches!(auth, Auth::Signed(viewer) if viewer.access_token.is_some())
        && selected_operation(&document, request.operation_name.as_deref()).is_some_and(|operation| operation.ty != OperationType::Query);
    for field in root_fields(&document, request.operation_name.as_deref()) {
        if let Some(error) = refusal(auth, field).or_else(|| read_only.then_some(Error::Forbidden)) {
            let mut server_error = error.extend().into_server_error(Pos::default());
            server_error.locations.clear();
            server_error.path = vec![async_graphql::PathSegment::Field(field.to_owned())];
            return Checked::Refused(server_error);
        }
    }
    if let Err(error) = screening::check_text(&document, &request.variables) {
        return Checked::Refused(error);
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
        Auth::Signed(Box::new(Viewer { identity, user, role, trial, trial_minutes_left: 0, access_token: None }))
    }

    fn code(auth: &Auth, field: &str) -> Option<&'static str> {
        refusal(auth, field).map(|e| e.code())
    }

    fn refused_code(auth: &Auth, query: &str, operation: Option<&str>) -> Option<String> {
        let mut request = Request::new(query);
        if let Some(name) = operation {
            request = request.operation_name(name);
        }
        match check(&request, auth, &ParsedDocuments::default(), 2000) {
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
        // However deep the fragments nest: validation allows 64 levels.
        let mut deep = String::from("query { config { version } ...F0 }");
        for level in 0..30 {
            deep.push_str(&format!(" fragment F{level} on Query {{ config {{ version }} ... on Query {{ ...F{} }} }}", level + 1));
        }
        deep.push_str(" fragment F30 on Query { tags { total } }");
        assert_eq!(refused_code(&expired, &deep, None).as_deref(), Some("TRIAL_EXPIRED"));
        assert_eq!(
            refused_code(&Auth::Anonymous, "mutation { addTag(item: {name: \"x\", description: \"y\"}) { _id } }", None).as_deref(),
            Some("UNAUTHENTICATED")
        );
    }
}
