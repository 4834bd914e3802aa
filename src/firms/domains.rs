//! A firm's email domains: what a domain may be (a dotted host name, not a public mail service
//! from the shipped list), written as the database keeps them (lower case, no `@`).

use std::{collections::HashSet, sync::LazyLock};

/// Public mail services (seeds/public_email_domains.txt): no firm may claim them.
static PUBLIC: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("../../seeds/public_email_domains.txt")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
});

pub const INVALID: &str = "Enter domains such as example.com, separated by commas";
pub const MAX_DOMAINS: usize = 50;

/// Why a domain cannot be a firm's, if it cannot.
pub fn refusal(domain: &str) -> Option<String> {
    if is_public(domain) {
        return Some(format!("{domain} is a public mail service: it cannot identify a firm"));
    }
    (!is_host_name(domain)).then(|| format!("{domain} is not a domain name"))
}

pub fn is_public(domain: &str) -> bool {
    PUBLIC.contains(domain)
}

/// The domain as stored: trimmed, lower case, without a leading `@`.
pub fn normalise(value: &str) -> String {
    value.trim().trim_start_matches('@').trim_end_matches('.').to_ascii_lowercase()
}

/// The domain of an email address, as stored.
pub fn of_email(email: &str) -> Option<String> {
    email.rsplit_once('@').map(|(_, domain)| normalise(domain)).filter(|d| !d.is_empty())
}

/// Two or more labels of letters, digits and inner hyphens (the check of `firm_domain`).
fn is_host_name(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    domain.len() <= 253
        && labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// Domains from a list as typed (commas, semicolons, spaces or new lines between them),
/// normalised, in order, each once.
pub fn split(values: &[String]) -> Vec<String> {
    let mut seen = HashSet::new();
    values
        .iter()
        .flat_map(|value| value.split([',', ';', ' ', '\n', '\t']))
        .map(normalise)
        .filter(|domain| !domain.is_empty() && seen.insert(domain.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_mail_services_and_non_domains_are_refused() {
        assert!(refusal("gmail.com").is_some_and(|m| m.contains("public mail service")));
        assert!(refusal("outlook.com").is_some());
        assert!(refusal("yahoo.com").is_some());
        assert!(refusal("localhost").is_some_and(|m| m.contains("not a domain")));
        assert!(refusal("bad_domain.com").is_some());
        assert!(refusal("-bank.com").is_some());
        assert_eq!(refusal("bank.example"), None);
        assert_eq!(refusal("research.bank-group.co.uk"), None);
    }

    #[test]
    fn lists_are_split_and_normalised_once_each() {
        let typed = vec!["@Bank.com, bank.co.uk; bank.com".to_owned(), "  fund.example.\n".to_owned()];
        assert_eq!(split(&typed), ["bank.com", "bank.co.uk", "fund.example"]);
        assert_eq!(of_email("Ann@Bank.COM").as_deref(), Some("bank.com"));
        assert_eq!(of_email("no-at-sign"), None);
    }
}
