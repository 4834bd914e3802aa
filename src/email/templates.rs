//! Renders an email from its kind's one template and the layout every email shares.
//!
//! A kind's template (`templates/{kind}.j2`) fills the blocks `subject`, `heading`, `reason`,
//! `body_html` and `body_text`. It is loaded twice, HTML-escaped for the HTML part and not for the
//! subject and the text part, and the blocks go into `layout.html` and `layout.txt`: the firm's
//! name and the channel at the top, the footer with why the reader gets it and the unsubscribe
//! link. Rendering is a pure function of the stored data, so a retried email says the same.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use minijinja::{AutoEscape, Environment, State, Value, context};

use super::Kind;

/// What an email says, ready to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub subject: String,
    pub html: String,
    pub text: String,
}

/// What every email's layout shows besides its kind's data.
pub struct Frame<'a> {
    pub firm: &'a str,
    pub public_url: &'a str,
    pub recipient_name: Option<&'a str>,
    pub unsubscribe_url: Option<&'a str>,
}

macro_rules! kind_templates {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("templates/", $name, ".j2")))),*]
    };
}

/// Every kind's template, by the kind's stored name.
const KIND_TEMPLATES: &[(&str, &str)] = kind_templates![
    "articlePublished",
    "digest",
    "welcome",
    "trialApproved",
    "trialRejected",
    "accessApproved",
    "accessRejected",
    "trialEnding",
    "trialEnded",
    "subscriptionCanceled",
    "channelInterest",
    "articleInterest",
    "paymentFailed",
    "invoiceRequested",
    "promotionInterest",
    "firmInvitation",
    "firmUsage",
];

static ENVIRONMENT: LazyLock<Environment<'static>> = LazyLock::new(|| {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|name| if name.ends_with(".html") { AutoEscape::Html } else { AutoEscape::None });
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.add_filter("day", day);
    env.add_function("button", button);
    for (name, source) in KIND_TEMPLATES {
        env.add_template_owned(format!("{name}.html"), *source).expect("email template parses");
        env.add_template_owned(format!("{name}.txt"), *source).expect("email template parses");
    }
    env.add_template("layout.html", include_str!("templates/layout.html")).expect("email layout parses");
    env.add_template("layout.txt", include_str!("templates/layout.txt")).expect("email layout parses");
    env
});

/// Renders an email of `kind` from its data (an object; merged over the frame's values).
pub fn render(kind: Kind, data: &serde_json::Value, frame: &Frame<'_>) -> Result<Rendered, minijinja::Error> {
    let text_ctx = context! {
        ..Value::from_serialize(data),
        ..context! {
            firm => frame.firm,
            publicUrl => frame.public_url,
            recipientName => frame.recipient_name,
            unsubscribeUrl => frame.unsubscribe_url,
        }
    };
    // In the HTML part the links go into attributes as they are: escaped for an attribute once,
    // not entity-encoded slash by slash by the auto-escaping.
    let html_ctx = context! {
        publicUrl => attribute(frame.public_url),
        unsubscribeUrl => frame.unsubscribe_url.map(attribute),
        ..text_ctx.clone()
    };
    let [subject, heading, reason, text_body] =
        blocks(&format!("{}.txt", kind.as_str()), &text_ctx, ["subject", "heading", "reason", "body_text"])?;
    let [html_heading, html_reason, html_body] = blocks(&format!("{}.html", kind.as_str()), &html_ctx, ["heading", "reason", "body_html"])?;
    let subject = one_line(&subject);

    let html = ENVIRONMENT.get_template("layout.html")?.render(context! {
        subject => &subject,
        heading => Value::from_safe_string(html_heading.trim().to_owned()),
        reason => Value::from_safe_string(html_reason.trim().to_owned()),
        body => Value::from_safe_string(html_body),
        ..html_ctx
    })?;
    let text = ENVIRONMENT.get_template("layout.txt")?.render(context! {
        heading => heading.trim(),
        reason => reason.trim(),
        body => text_body.trim(),
        ..text_ctx
    })?;
    Ok(Rendered { subject, html, text: text.trim().to_owned() + "\n" })
}

/// A trusted URL (from the configuration or signed by us) ready for an HTML attribute.
fn attribute(url: &str) -> Value {
    Value::from_safe_string(html_escape::encode_double_quoted_attribute(url).into_owned())
}

/// Renders the named blocks of one template.
fn blocks<const N: usize>(template: &str, ctx: &Value, names: [&str; N]) -> Result<[String; N], minijinja::Error> {
    let mut captured = ENVIRONMENT.get_template(template)?.render_captured(ctx)?;
    captured.with_state_mut(|state| {
        let mut rendered: [String; N] = std::array::from_fn(|_| String::new());
        for (slot, name) in rendered.iter_mut().zip(names) {
            *slot = state.render_block(name)?;
        }
        Ok(rendered)
    })
}

/// A subject is one line, whatever the data holds.
fn one_line(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `{{ endsAt | day }}`: an RFC 3339 moment as "24 November 2026" (UTC).
fn day(value: String) -> Result<String, minijinja::Error> {
    let at = DateTime::parse_from_rfc3339(&value)
        .map_err(|e| minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, format!("not a moment: {value}: {e}")))?;
    Ok(at.with_timezone(&Utc).format("%-d %B %Y").to_string())
}

/// `{{ button(path, label) }}`: the call to action, a link to `path` under the public URL.
fn button(state: &State, path: String, label: String) -> Value {
    // `publicUrl` is already escaped for an attribute in the HTML part.
    let public_url = state.lookup("publicUrl").map(|v| v.to_string()).unwrap_or_default();
    let href = format!("{public_url}{}", html_escape::encode_double_quoted_attribute(&path));
    let label = html_escape::encode_text(&label).into_owned();
    Value::from_safe_string(format!(
        r#"<table role="presentation" cellpadding="0" cellspacing="0" style="margin:24px 0"><tr><td style="background:#2d72d2;border-radius:4px"><a href="{href}" style="display:inline-block;padding:12px 20px;color:#ffffff;font-weight:600;text-decoration:none">{label}</a></td></tr></table>"#
    ))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const FRAME: Frame<'static> = Frame {
        firm: "Acme Research",
        public_url: "https://insights.example",
        recipient_name: Some("Ann <Lee>"),
        unsubscribe_url: Some("https://insights.example/insights/unsubscribe?data=t0k"),
    };

    fn sample(_kind: Kind) -> serde_json::Value {
        let item = json!({ "articleId": "a1", "title": "Oil & gas", "summary": "Prices <rise>", "channelId": "c1",
                           "channelName": "Energy", "fullVersion": false });
        json!({
            "articleId": "a1", "title": "Oil & gas <outlook>", "summary": "Prices <rise>", "channelId": "c1",
            "channelName": "Energy & Power", "fullVersion": true, "isUpdate": false, "publishDate": "2026-11-24T09:00:00Z",
            "endsAt": "2026-12-08T23:59:59Z", "readerName": "Ann Lee", "readerCompany": "Lee & Co", "readerEmail": "ann@lee.example",
            "contentName": "Energy week", "pageName": "Energy landing", "promotionalContentId": "p1",
            "frequency": "daily", "items": [item.clone(), item],
        })
    }

    #[test]
    fn every_kind_renders_a_subject_both_parts_and_the_footer() {
        for kind in Kind::ALL {
            let email = render(kind, &sample(kind), &FRAME).unwrap_or_else(|e| panic!("{kind:?}: {e:#}"));
            assert!(!email.subject.is_empty() && !email.subject.contains('\n'), "{kind:?} subject {:?}", email.subject);
            assert!(email.html.starts_with("<!doctype html>"), "{kind:?}");
            assert!(email.html.contains("Acme Research") && email.text.starts_with("Acme Research"), "{kind:?}");
            assert!(email.html.contains("https://insights.example/insights/"), "{kind:?} has a link");
            assert!(email.text.contains("https://insights.example/insights/"), "{kind:?} has a link in text");
            assert!(email.text.contains("Unsubscribe: https://insights.example/insights/unsubscribe?data=t0k"), "{kind:?}");
            assert!(email.html.contains("You receive this email because"), "{kind:?}");
            assert!(!email.html.contains("{{") && !email.text.contains("{%"), "{kind:?}");
        }
    }

    #[test]
    fn html_is_escaped_and_text_is_not() {
        let email = render(Kind::ArticlePublished, &sample(Kind::ArticlePublished), &FRAME).unwrap();
        assert_eq!(email.subject, "Oil & gas <outlook>");
        assert!(email.html.contains("Oil &amp; gas &lt;outlook&gt;"));
        assert!(email.html.contains("Dear Ann &lt;Lee&gt;,"));
        assert!(!email.html.contains("<outlook>") && !email.html.contains("<rise>"));
        assert!(email.text.contains("Prices <rise>") && email.text.contains("Dear Ann <Lee>,"));
        assert!(email.html.contains(r#"href="https://insights.example/insights/browse/article/a1""#));
        assert!(email.html.contains(r#"href="https://insights.example/insights/unsubscribe?data=t0k""#));
        assert!(!email.html.contains("&#x2f;"), "links are not entity-encoded");
        assert!(email.text.contains("Read the article: https://insights.example/insights/browse/article/a1"));
    }

    #[test]
    fn an_article_the_reader_may_not_read_invites_instead_of_linking() {
        let mut data = sample(Kind::ArticlePublished);
        data["fullVersion"] = json!(false);
        data["isUpdate"] = json!(true);
        let email = render(Kind::ArticlePublished, &data, &FRAME).unwrap();
        assert_eq!(email.subject, "Updated: Oil & gas <outlook>");
        assert!(email.text.contains("This article was updated"));
        assert!(!email.text.contains("Read the article"));
        assert!(email.text.contains("Get full access: https://insights.example/insights/subscribe/channel/c1"));
    }

    #[test]
    fn a_firms_subscription_emails_speak_to_its_administrators() {
        for kind in [Kind::Welcome, Kind::TrialEnding, Kind::TrialEnded, Kind::SubscriptionCanceled] {
            let mut data = sample(kind);
            data["firmName"] = json!("Fjord & Co");
            data["seats"] = json!(20);
            let email = render(kind, &data, &FRAME).unwrap();
            assert!(email.subject.starts_with("Fjord & Co's"), "{kind:?}: {}", email.subject);
            assert!(email.text.contains("/insights/my-firm") && email.html.contains("Fjord &amp; Co"), "{kind:?}");
            assert!(!email.text.contains("Buy"), "{kind:?}: a firm's administrator is not asked to buy for themself");
        }
        let welcome = render(Kind::Welcome, &{ let mut d = sample(Kind::Welcome); d["firmName"] = json!("Fjord"); d["seats"] = json!(20); d }, &FRAME).unwrap();
        assert!(welcome.text.contains("with 20 seats"), "{}", welcome.text);
    }

    #[test]
    fn dates_read_as_days() {
        let email = render(Kind::TrialApproved, &sample(Kind::TrialApproved), &FRAME).unwrap();
        assert!(email.text.contains("runs until 8 December 2026"), "{}", email.text);
        let digest = render(Kind::Digest, &sample(Kind::Digest), &FRAME).unwrap();
        assert_eq!(digest.subject, "Your daily digest: 2 new articles");
    }

    #[test]
    fn each_welcome_has_its_own_words_and_one_bought_is_not_given() {
        let mut subjects = std::collections::HashSet::new();
        for welcome in ["paid", "granted", "bulk", "trial"] {
            let mut data = sample(Kind::Welcome);
            data["welcome"] = json!(welcome);
            let email = render(Kind::Welcome, &data, &FRAME).unwrap();
            assert!(subjects.insert(email.subject.clone()), "{welcome}: {}", email.subject);
            assert!(email.text.contains("Energy & Power"), "{welcome}");
            assert_eq!(email.text.contains("given"), matches!(welcome, "granted" | "trial"), "{welcome}: {}", email.text);
        }
        // Emails written before the wordings were told apart read as a subscription staff gave.
        let old = render(Kind::Welcome, &sample(Kind::Welcome), &FRAME).unwrap();
        assert_eq!(old.subject, "You now have access to Energy & Power");
    }

    #[test]
    fn service_emails_have_no_unsubscribe_link() {
        let frame = Frame { unsubscribe_url: None, recipient_name: None, ..FRAME };
        let email = render(Kind::TrialRejected, &sample(Kind::TrialRejected), &frame).unwrap();
        assert!(!email.text.contains("Unsubscribe") && !email.html.contains("Unsubscribe"));
        assert!(!email.text.contains("Dear"));
    }
}
