//! The built-in provider's sign-in page: pick a ready user (one per role) or type an email, name,
//! company and scopes. Plain server-rendered HTML, every value escaped.

use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};

use super::AuthorizeParams;
use crate::{auth::scopes, config::Config};

pub struct ReadyUser {
    pub key: &'static str,
    pub label: &'static str,
    pub email: &'static str,
    pub name: &'static str,
    pub company: &'static str,
    pub scopes: &'static [&'static str],
    /// Company-directory user (subject carries the internal prefix).
    pub internal: bool,
}

pub const READY_USERS: &[ReadyUser] = &[
    ReadyUser { key: "admin", label: "Administrator", email: "alex.admin@insights.example", name: "Alex Admin", company: "Insights Research", scopes: &[scopes::ADMIN, scopes::INTELLIGENCE], internal: true },
    ReadyUser { key: "editor", label: "Editor", email: "erin.editor@insights.example", name: "Erin Editor", company: "Insights Research", scopes: &[scopes::EDITOR], internal: true },
    ReadyUser { key: "contributor", label: "Contributor", email: "chris.contributor@insights.example", name: "Chris Contributor", company: "Insights Research", scopes: &[scopes::CONTRIBUTOR], internal: true },
    ReadyUser { key: "subscriber", label: "Subscriber", email: "sam.subscriber@client.example", name: "Sam Subscriber", company: "Client Capital", scopes: &[scopes::READER], internal: false },
    ReadyUser { key: "trial", label: "Trial subscriber", email: "tara.trial@client.example", name: "Tara Trial", company: "Prospect Partners", scopes: &[scopes::TRIAL_READER], internal: false },
    ReadyUser { key: "firmadmin", label: "Firm administrator", email: "fiona.firmadmin@northbridge.example", name: "Fiona Firmadmin", company: "Northbridge Capital", scopes: &[scopes::READER], internal: false },
    ReadyUser { key: "none", label: "No Insights access", email: "nia.noaccess@client.example", name: "Nia Noaccess", company: "Elsewhere Ltd", scopes: &[], internal: false },
];

const STYLE: &str = "
body{font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,sans-serif;background:#f6f7f9;color:#1c2127;margin:0}
main{max-width:760px;margin:40px auto;padding:0 16px}
h1{font-size:22px;margin:0 0 4px} p.lead{color:#5f6b7c;margin:0 0 24px}
section{background:#fff;border:1px solid #dce0e5;border-radius:4px;padding:20px;margin-bottom:20px}
h2{font-size:16px;margin:0 0 12px}
ul{list-style:none;padding:0;margin:0} li{margin:0 0 8px}
button{font:inherit;cursor:pointer;border-radius:3px;border:1px solid #2d72d2;background:#2d72d2;color:#fff;padding:7px 14px}
button:focus-visible,input:focus-visible{outline:2px solid #8abbff;outline-offset:2px}
.user{display:flex;align-items:center;justify-content:space-between;gap:12px;border-bottom:1px solid #edeff2;padding-bottom:8px}
.who small{display:block;color:#5f6b7c}
label{display:block;margin:0 0 12px;font-weight:600} label small{font-weight:400;color:#5f6b7c}
input[type=text],input[type=email]{display:block;width:100%;box-sizing:border-box;margin-top:4px;padding:7px 8px;border:1px solid #c5cbd3;border-radius:3px;font:inherit}
.check{font-weight:400} .error{background:#fcebeb;border:1px solid #cd4246;color:#8e292c;padding:10px;border-radius:3px;margin-bottom:16px}
code{font-size:12px}";

fn hidden_fields(params: &AuthorizeParams) -> String {
    let fields = [
        ("response_type", &params.response_type),
        ("client_id", &params.client_id),
        ("redirect_uri", &params.redirect_uri),
        ("scope", &params.scope),
        ("state", &params.state),
        ("nonce", &params.nonce),
        ("code_challenge", &params.code_challenge),
        ("code_challenge_method", &params.code_challenge_method),
    ];
    fields
        .iter()
        .filter_map(|(name, value)| value.as_deref().map(|v| format!(r#"<input type="hidden" name="{name}" value="{}">"#, attr(v))))
        .collect()
}

pub fn authorize_page(config: &Config, params: &AuthorizeParams) -> String {
    render(config, params, None)
}

pub fn authorize_page_with_error(config: &Config, params: &AuthorizeParams, error: &str) -> String {
    render(config, params, Some(error))
}

fn render(config: &Config, params: &AuthorizeParams, error: Option<&str>) -> String {
    let hidden = hidden_fields(params);
    let users: String = READY_USERS
        .iter()
        .map(|user| {
            let scopes = if user.scopes.is_empty() { "no Insights scope".to_owned() } else { user.scopes.join(" ") };
            format!(
                r#"<li><form method="post" class="user">{hidden}<input type="hidden" name="ready_user" value="{key}">
<span class="who"><strong>{label}</strong> — {name}<small>{email} · <code>{scopes}</code></small></span>
<button type="submit">Sign in as {label}</button></form></li>"#,
                key = attr(user.key),
                label = text(user.label),
                name = text(user.name),
                email = text(user.email),
                scopes = text(&scopes),
            )
        })
        .collect();
    let error = error.map(|e| format!(r#"<div class="error" role="alert">{}</div>"#, text(e))).unwrap_or_default();
    let known_scopes = [scopes::ADMIN, scopes::EDITOR, scopes::CONTRIBUTOR, scopes::READER, scopes::TRIAL_READER, scopes::INTELLIGENCE].join(", ");
    format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in · Insights development identity provider</title><style>{STYLE}</style></head>
<body><main><h1>Sign in to Insights</h1>
<p class="lead">Development identity provider at <code>{issuer}</code>. Pick a ready user or describe one.</p>
{error}
<section aria-labelledby="ready"><h2 id="ready">Ready users</h2><ul>{users}</ul></section>
<section aria-labelledby="custom"><h2 id="custom">Another user</h2>
<form method="post">{hidden}
<label for="email">Email<input id="email" name="email" type="email" required autocomplete="email"></label>
<label for="name">Name<input id="name" name="name" type="text" autocomplete="name"></label>
<label for="company">Company<input id="company" name="company" type="text" autocomplete="organization"></label>
<label for="scopes">Scopes <small>space-separated: {known_scopes}</small><input id="scopes" name="scopes" type="text" value="{reader}"></label>
<label class="check"><input type="checkbox" name="internal" value="1"> Company-directory (internal) user</label>
<button type="submit">Sign in</button>
</form></section></main></body></html>"#,
        issuer = text(&config.issuer()),
        reader = attr(scopes::READER),
    )
}

pub fn error_page(message: &str) -> String {
    format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error · Insights</title><style>{STYLE}</style></head>
<body><main><h1>Sign-in error</h1><div class="error" role="alert">{}</div></main></body></html>"#,
        text(message)
    )
}
