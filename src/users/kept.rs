//! Signed-in users kept in memory between their requests, so that resolving a bearer token does not
//! read the `users` row every time (it was half the cost of a small query).
//!
//! Kept true across servers by PostgreSQL: a trigger on `users` (migration 0016) sends the subject
//! of every updated or deleted user on the `insights_user_changed` channel, and each server's
//! listener drops its copy. While the listener is not connected nothing is served from memory (a
//! change could be missed), and everything is dropped when it (re)connects. A read that started
//! before a drop is not kept (the generation check), so a late read cannot put back a stale copy.
//! Entries also expire after `ttl`, a bound should anything else go wrong.

use std::{
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use sqlx::{PgPool, postgres::PgListener};

use super::User;

/// The channel migration 0016's trigger notifies; the payload is a subject, or `*` for "all".
pub const CHANNEL: &str = "insights_user_changed";
const CAPACITY: usize = 50_000;

pub struct KeptUsers {
    ttl: Duration,
    entries: Mutex<lru::LruCache<String, (Arc<User>, Instant)>>,
    /// Bumped by every drop: a read that began under another generation is not kept.
    generation: AtomicU64,
    /// The change listener is connected (until then, and after a disconnect, memory is not used).
    listening: AtomicBool,
}

impl KeptUsers {
    /// Users kept for `ttl`; a zero `ttl` keeps none.
    pub fn new(ttl: Duration) -> KeptUsers {
        KeptUsers {
            ttl,
            entries: Mutex::new(crate::kept::lru(CAPACITY)),
            generation: AtomicU64::new(0),
            listening: AtomicBool::new(false),
        }
    }

    fn enabled(&self) -> bool {
        !self.ttl.is_zero() && self.listening.load(Ordering::Acquire)
    }

    /// The kept user of `subject`, if fresh.
    pub fn get(&self, subject: &str) -> Option<Arc<User>> {
        if !self.enabled() {
            return None;
        }
        let mut entries = self.entries.lock().expect("kept users lock");
        let fresh = entries.get(subject).map(|(user, at)| (at.elapsed() < self.ttl).then(|| user.clone()));
        if matches!(fresh, Some(None)) {
            entries.pop(subject);
        }
        fresh.flatten()
    }

    /// The generation to pass to `put` for a read that starts now.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Keeps `user`, read from the database since `generation`, unless something was dropped since.
    pub fn put(&self, user: Arc<User>, generation: u64) {
        if !self.enabled() {
            return;
        }
        let mut entries = self.entries.lock().expect("kept users lock");
        // Checked under the lock `forget` and `clear` take: no drop can slip between check and insert.
        if self.generation.load(Ordering::Acquire) == generation {
            entries.put(user.subject.clone(), (user, Instant::now()));
        }
    }

    pub fn forget(&self, subject: &str) {
        let mut entries = self.entries.lock().expect("kept users lock");
        self.generation.fetch_add(1, Ordering::AcqRel);
        entries.pop(subject);
    }

    pub fn clear(&self) {
        let mut entries = self.entries.lock().expect("kept users lock");
        self.generation.fetch_add(1, Ordering::AcqRel);
        entries.clear();
    }

    /// Listens for user changes until the process ends, reconnecting after a lost connection.
    pub fn listen(self: &Arc<Self>, pool: PgPool) {
        if self.ttl.is_zero() {
            return;
        }
        let cache = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                let reason = match PgListener::connect_with(&pool).await {
                    Ok(listener) => {
                        let Some(cache) = cache.upgrade() else { return };
                        cache.follow(listener).await
                    }
                    Err(error) => error.to_string(),
                };
                if cache.strong_count() == 0 {
                    return;
                }
                tracing::warn!(%reason, "user change feed lost; users are read from the database until it is back");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }

    /// Serves users from memory while `listener` delivers the changes; returns why it stopped.
    async fn follow(&self, mut listener: PgListener) -> String {
        if let Err(error) = listener.listen(CHANNEL).await {
            return error.to_string();
        }
        self.clear();
        self.listening.store(true, Ordering::Release);
        let reason = loop {
            match listener.try_recv().await {
                Ok(Some(notification)) if notification.payload() == "*" => self.clear(),
                Ok(Some(notification)) => self.forget(notification.payload()),
                // The connection dropped: notifications may have been missed.
                Ok(None) => break "connection lost".to_owned(),
                Err(error) => break error.to_string(),
            }
        };
        self.listening.store(false, Ordering::Release);
        self.clear();
        reason
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(subject: &str) -> Arc<User> {
        Arc::new(User {
            user_id: crate::ids::new_id(),
            subject: subject.to_owned(),
            email: format!("{subject}@example.com"),
            name: subject.to_owned(),
            first_name: None,
            last_name: None,
            company: None,
            phone: None,
            position: None,
            scopes: Vec::new(),
            is_internal: false,
            display_avatar: false,
            tableau_access: false,
            first_login: chrono::Utc::now(),
            last_login: None,
            version: 1,
            profile_picture: None,
            stats: None,
        })
    }

    fn listening(ttl: Duration) -> KeptUsers {
        let cache = KeptUsers::new(ttl);
        cache.listening.store(true, Ordering::Release);
        cache
    }

    #[test]
    fn a_read_that_began_before_a_change_is_not_kept() {
        let cache = listening(Duration::from_secs(60));
        let before = cache.generation();
        cache.forget("ann");
        cache.put(user("ann"), before);
        assert!(cache.get("ann").is_none());
        cache.put(user("ann"), cache.generation());
        assert_eq!(cache.get("ann").unwrap().subject, "ann");
        cache.forget("ann");
        assert!(cache.get("ann").is_none());
    }

    #[test]
    fn nothing_is_served_without_the_change_feed_or_after_the_ttl() {
        let cache = KeptUsers::new(Duration::from_secs(60));
        cache.put(user("bob"), cache.generation());
        assert!(cache.get("bob").is_none(), "not listening: not kept");
        let cache = listening(Duration::from_millis(20));
        cache.put(user("bob"), cache.generation());
        assert!(cache.get("bob").is_some());
        std::thread::sleep(Duration::from_millis(30));
        assert!(cache.get("bob").is_none(), "expired");
        let off = listening(Duration::ZERO);
        off.put(user("bob"), off.generation());
        assert!(off.get("bob").is_none(), "a zero ttl turns it off");
    }
}
