//! Who may read an upload file (`GET /uploads/{name}`). The class is recorded when something links
//! the file (migration 0025's triggers): public files go to anyone; an article's files and
//! unlinked ones go to staff (bearer token), and to a reader holding a signed link.
//!
//! An `<img>` cannot send the bearer token, so the article page hands a reader who may see the
//! article in full (the entitlement rule, `reading::entitlement`) links signed for them: an HMAC of
//! name, viewer and expiry. The expiry is rounded to a window, so a reader's links stay the same
//! for `WINDOW` and the browser keeps the images; the page itself is kept per article, unsigned,
//! and signed after it is read (one HMAC per image).

use std::borrow::Cow;

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use rand::RngCore;
use serde::Deserialize;
use sha2::Sha256;
use sqlx::PgPool;

use super::{is_upload_name, queries};
use crate::{
    auth::{Auth, session},
    error::Result,
    state::AppState,
};

/// Signed links are valid from `WINDOW` to twice that (seconds): the expiry is rounded up.
const WINDOW: i64 = 300;
/// Bytes of the HMAC kept in a link (128 bits).
const SIGNATURE_BYTES: usize = 16;
/// The link-signing key, read once.
#[derive(Default)]
pub struct UploadAccess {
    key: tokio::sync::OnceCell<Vec<u8>>,
}

impl std::fmt::Debug for UploadAccess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UploadAccess").finish_non_exhaustive()
    }
}

/// The query of a signed link: `?u=<viewer>&e=<expiry, unix seconds>&s=<signature>`.
#[derive(Debug, Default, Deserialize)]
pub struct SignedLink {
    u: Option<String>,
    e: Option<i64>,
    s: Option<String>,
}

/// How a file may be served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// To anyone, cached anywhere.
    Public,
    /// To this caller only, for that many seconds.
    Private(i64),
}

impl UploadAccess {
    /// The key links are signed with: made once per installation and kept in the database.
    pub async fn key(&self, pool: &PgPool) -> Result<&[u8]> {
        let key = self.key.get_or_try_init(|| stored_key(pool)).await?;
        Ok(key.as_slice())
    }

}

/// Whether the file `name` is public: known so (`kept`: once public, always), else asked.
async fn known_public(state: &AppState, name: &str) -> Result<bool> {
    if state.kept.public_uploads.find(name, ()).is_some() {
        return Ok(true);
    }
    let public = queries::is_public(&state.pool, name).await?;
    if public {
        state.kept.public_uploads.keep(name.to_owned(), (), std::sync::Arc::new(()));
    }
    Ok(public)
}

async fn stored_key(pool: &PgPool) -> Result<Vec<u8>> {
    let mut fresh = vec![0u8; 32];
    rand::thread_rng().fill_bytes(&mut fresh);
    Ok(queries::signing_key(pool, fresh).await?)
}

/// The expiry of links signed at `now`: the end of the next window.
fn expiry(now: DateTime<Utc>) -> i64 {
    (now.timestamp() / WINDOW + 2) * WINDOW
}

fn signature(key: &[u8], name: &str, viewer: &str, expiry: i64) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key");
    mac.update(format!("{name}\n{viewer}\n{expiry}").as_bytes());
    mac
}

/// `html` with every link to an upload signed for `viewer`; borrowed when it links none.
pub fn sign_links<'h>(html: &'h str, viewer: &str, key: &[u8], now: DateTime<Utc>) -> Cow<'h, str> {
    const PREFIX: &str = "/uploads/";
    if !html.contains(PREFIX) {
        return Cow::Borrowed(html);
    }
    let expiry = expiry(now);
    let mut signed = String::with_capacity(html.len() + 256);
    let mut rest = html;
    while let Some(at) = rest.find(PREFIX) {
        let (before, from) = rest.split_at(at + PREFIX.len());
        signed.push_str(before);
        let end = from.find('"').unwrap_or(from.len());
        let name = &from[..end];
        signed.push_str(name);
        if is_upload_name(name) {
            let mac = signature(key, name, viewer, expiry).finalize().into_bytes();
            let sig = URL_SAFE_NO_PAD.encode(&mac[..SIGNATURE_BYTES]);
            signed.push_str(&format!("?u={viewer}&amp;e={expiry}&amp;s={sig}"));
        }
        rest = &from[end..];
    }
    signed.push_str(rest);
    Cow::Owned(signed)
}

/// Whether `link` is a valid, unexpired signature of `name`; the seconds it has left.
fn signed_for(key: &[u8], name: &str, link: &SignedLink, now: DateTime<Utc>) -> Option<i64> {
    let (viewer, expiry, sig) = (link.u.as_deref()?, link.e?, link.s.as_deref()?);
    let left = expiry - now.timestamp();
    if left <= 0 || left > 2 * WINDOW {
        return None;
    }
    let sig = URL_SAFE_NO_PAD.decode(sig).ok()?;
    signature(key, name, viewer, expiry).verify_truncated_left(&sig).ok()?;
    (sig.len() == SIGNATURE_BYTES).then_some(left)
}

/// How `name` may be served to this caller; None: not to them (answered as a missing file, so
/// that a name is not confirmed to exist).
pub async fn grant(state: &AppState, name: &str, authorization: Option<&str>, link: &SignedLink) -> Result<Option<Grant>> {
    let access = &state.upload_access;
    if link.s.is_some() {
        let key = access.key(&state.pool).await?;
        if let Some(left) = signed_for(key, name, link, Utc::now()) {
            return Ok(Some(Grant::Private(left)));
        }
    }
    if known_public(state, name).await? {
        return Ok(Some(Grant::Public));
    }
    let staff = match session::authenticate(state, authorization).await? {
        Auth::Signed(viewer) => viewer.role.is_some_and(|role| role.is_staff()),
        _ => false,
    };
    Ok(staff.then_some(Grant::Private(WINDOW)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAME: &str = "0123456789abcdef0123456789abcdef.png";
    const KEY: &[u8] = b"a test key of thirty-two bytes!!";

    fn link_of(html: &str) -> SignedLink {
        let query = html.split_once('?').unwrap().1.split('"').next().unwrap().replace("&amp;", "&");
        let value = |key: &str| query.split('&').find_map(|pair| pair.strip_prefix(key)).map(str::to_owned);
        SignedLink { u: value("u="), e: value("e=").map(|e| e.parse().unwrap()), s: value("s=") }
    }

    #[test]
    fn a_signed_link_holds_for_its_name_until_it_expires() {
        let now = Utc::now();
        let html = format!(r#"<p><img src="/uploads/{NAME}" alt="">text /uploads/ "x"</p>"#);
        let signed = sign_links(&html, "5f9b2c3e1a2b3c4d5e6f7a8b", KEY, now);
        assert!(signed.starts_with(&format!(r#"<p><img src="/uploads/{NAME}?u=5f9b2c3e1a2b3c4d5e6f7a8b&amp;e="#)), "{signed}");
        assert!(signed.ends_with(r#"" alt="">text /uploads/ "x"</p>"#), "{signed}");
        let link = link_of(&signed);
        let left = signed_for(KEY, NAME, &link, now).unwrap();
        assert!((WINDOW..=2 * WINDOW).contains(&left), "{left}");
        assert_eq!(signed_for(KEY, "0123456789abcdef0123456789abcdee.png", &link, now), None);
        assert_eq!(signed_for(b"another key", NAME, &link, now), None);
        assert_eq!(signed_for(KEY, NAME, &link, now + chrono::Duration::seconds(2 * WINDOW + 1)), None);
        let other_viewer = SignedLink { u: Some("5f9b2c3e1a2b3c4d5e6f7a8c".to_owned()), ..link };
        assert_eq!(signed_for(KEY, NAME, &other_viewer, now), None);
    }

    #[test]
    fn a_body_without_uploads_is_not_copied() {
        assert!(matches!(sign_links("<p>plain</p>", "v", KEY, Utc::now()), Cow::Borrowed(_)));
    }
}
