//! `KeptValues`: values kept in memory by key, each under the revision it was read at.

use std::{
    borrow::Borrow,
    collections::HashMap,
    hash::Hash,
    sync::{Arc, Mutex},
};

/// Values kept by key, each under the revision it was read at (an article's card revision, a
/// reader's subscriptions' revision, the content revision; a tuple for a value that depends on
/// two, compared in order; `()` for a value that never goes stale): found only at that revision,
/// and a slower read of an older revision never replaces a newer one. Bounded by a weight (a
/// count, or a size in bytes): the least recently used go first.
pub struct KeptValues<K, V: ?Sized, R = i64> {
    entries: Mutex<Entries<K, V, R>>,
    weigh: fn(&V) -> usize,
    budget: usize,
    /// Set for `single_flight`: one read at a time, and concurrent misses wait for it.
    reading: Option<tokio::sync::Mutex<()>>,
}

struct Entries<K, V: ?Sized, R> {
    values: lru::LruCache<K, (R, Arc<V>)>,
    weight: usize,
}

impl<K: Hash + Eq + Clone, V: ?Sized, R: PartialOrd + Copy> KeptValues<K, V, R> {
    /// At most `capacity` values.
    pub fn new(capacity: usize) -> Self {
        Self::weighed(capacity, |_| 1)
    }

    /// Values whose weights add up to at most `budget`.
    pub fn weighed(budget: usize, weigh: fn(&V) -> usize) -> Self {
        let entries = Mutex::new(Entries { values: lru::LruCache::unbounded(), weight: 0 });
        KeptValues { entries, weigh, budget, reading: None }
    }

    /// Reads one at a time: a miss waits for the read under way and then finds its value, rather
    /// than repeating it. For values that are costly to compute and asked for by every request
    /// at once (the topic list after an edit); it serialises reads of different keys too.
    pub fn single_flight(mut self) -> Self {
        self.reading = Some(tokio::sync::Mutex::new(()));
        self
    }

    pub fn find<Q>(&self, key: &Q, revision: R) -> Option<Arc<V>>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        match self.entries.lock().expect("kept values lock").values.get(key) {
            Some((kept, value)) if *kept == revision => Some(value.clone()),
            _ => None,
        }
    }

    pub fn keep(&self, key: K, revision: R, value: Arc<V>) {
        let weight = (self.weigh)(&value);
        if weight > self.budget {
            return;
        }
        let mut entries = self.entries.lock().expect("kept values lock");
        if entries.values.peek(&key).is_some_and(|(kept, _)| *kept > revision) {
            return;
        }
        if let Some((_, old)) = entries.values.put(key, (revision, value)) {
            entries.weight -= (self.weigh)(&old);
        }
        entries.weight += weight;
        while entries.weight > self.budget {
            let Some((_, (_, gone))) = entries.values.pop_lru() else { break };
            entries.weight -= (self.weigh)(&gone);
        }
    }

    /// The value kept at `revision`, if it `holds` (a check of its own, such as the clock), else
    /// what `read` reads, kept. `read` runs after `revision` was read, so what it keeps is at least
    /// as new as its revision: a newer value is found no more once the revision moves past it.
    pub async fn find_or_read<E>(
        &self,
        key: K,
        revision: R,
        holds: impl Fn(&V) -> bool,
        read: impl Future<Output = Result<Arc<V>, E>>,
    ) -> Result<Arc<V>, E> {
        if let Some(kept) = self.find(&key, revision).filter(|kept| holds(kept)) {
            return Ok(kept);
        }
        let _reading = match &self.reading {
            Some(reading) => {
                let guard = reading.lock().await;
                if let Some(kept) = self.find(&key, revision).filter(|kept| holds(kept)) {
                    return Ok(kept);
                }
                Some(guard)
            }
            None => None,
        };
        let value = read.await?;
        self.keep(key, revision, value.clone());
        Ok(value)
    }

    /// The values of `wanted` (keys, each with the revision it is wanted at): those kept at it
    /// from memory, the others read in one call and kept. `read_missing` gets the missing keys
    /// and answers each value it found with the revision it read it at, which may be newer than
    /// the one wanted (a change in between): kept at its own, and answered as what the caller
    /// would have got a moment later.
    pub async fn find_all_or_read<E>(
        &self,
        wanted: impl IntoIterator<Item = (K, R)>,
        read_missing: impl AsyncFnOnce(Vec<K>) -> Result<Vec<(K, R, Arc<V>)>, E>,
    ) -> Result<HashMap<K, Arc<V>>, E> {
        let mut found = HashMap::new();
        let mut missing = Vec::new();
        for (key, revision) in wanted {
            match self.find(&key, revision) {
                Some(value) => {
                    found.insert(key, value);
                }
                None => missing.push((key, revision)),
            }
        }
        if missing.is_empty() {
            return Ok(found);
        }
        for (key, revision, value) in read_missing(missing.into_iter().map(|(key, _)| key).collect()).await? {
            self.keep(key.clone(), revision, value.clone());
            found.insert(key, value);
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::KeptValues;
    use std::sync::Arc;

    #[test]
    fn a_value_is_found_only_at_its_revision() {
        let kept = KeptValues::new(10);
        kept.keep("a".to_owned(), 1, Arc::new("First"));
        kept.keep("b".to_owned(), 7, Arc::new("Other"));
        assert_eq!(kept.find("a", 1).as_deref(), Some(&"First"));
        assert!(kept.find("b", 8).is_none());
        assert!(kept.find("c", 1).is_none());
    }

    #[test]
    fn an_older_read_does_not_replace_a_newer_value() {
        let kept = KeptValues::new(10);
        kept.keep("a".to_owned(), 5, Arc::new("New"));
        kept.keep("a".to_owned(), 4, Arc::new("Old"));
        assert_eq!(kept.find("a", 5).as_deref(), Some(&"New"));
        assert!(kept.find("a", 4).is_none());
    }

    #[test]
    fn the_least_recently_used_go_when_the_weights_pass_the_budget() {
        let kept = KeptValues::weighed(10, |value: &str| value.len());
        let keep = |key: &str, revision, value: &str| kept.keep(key.to_owned(), revision, Arc::from(value));
        keep("a", 1, "aaaa");
        keep("b", 1, "bbbb");
        assert!(kept.find("a", 1).is_some(), "a is now the most recently used");
        keep("c", 1, "cccc");
        assert!(kept.find("b", 1).is_none(), "b went to make room");
        assert!(kept.find("a", 1).is_some() && kept.find("c", 1).is_some());
        keep("a", 2, "a");
        keep("d", 1, "dddd");
        assert!(kept.find("a", 2).is_some() && kept.find("c", 1).is_some() && kept.find("d", 1).is_some(), "1 + 4 + 4 fit");
        keep("e", 1, "eeeeeeeeeee");
        assert!(kept.find("e", 1).is_none(), "heavier than the whole budget: never kept");
    }

    #[test]
    fn two_revisions_are_compared_in_order() {
        let kept = KeptValues::new(10);
        kept.keep("a".to_owned(), (5, 2), Arc::new("New"));
        kept.keep("a".to_owned(), (4, 9), Arc::new("Old"));
        assert_eq!(kept.find("a", (5, 2)).as_deref(), Some(&"New"));
        assert!(kept.find("a", (5, 3)).is_none(), "the second revision moved");
    }

    #[tokio::test]
    async fn a_batch_reads_only_what_is_not_kept_at_its_revision() {
        let kept: KeptValues<String, String> = KeptValues::new(10);
        kept.keep("a".to_owned(), 1, Arc::new("a at 1".to_owned()));
        kept.keep("b".to_owned(), 1, Arc::new("b at 1".to_owned()));
        let wanted = [("a".to_owned(), 1), ("b".to_owned(), 2), ("c".to_owned(), 3)];
        let found = kept
            .find_all_or_read(wanted, async |missing: Vec<String>| {
                assert_eq!(missing, ["b", "c"], "a is kept at 1");
                // c was edited again between the list and this read: kept at 4, and answered.
                Ok::<_, ()>(vec![("b".to_owned(), 2, Arc::new("b at 2".to_owned())), ("c".to_owned(), 4, Arc::new("c at 4".to_owned()))])
            })
            .await
            .unwrap();
        let mut found: Vec<(String, String)> = found.into_iter().map(|(key, value)| (key, value.to_string())).collect();
        found.sort();
        let expected = [("a", "a at 1"), ("b", "b at 2"), ("c", "c at 4")].map(|(key, value)| (key.to_owned(), value.to_owned()));
        assert_eq!(found, expected);
        assert_eq!(kept.find("c", 4).as_deref().map(String::as_str), Some("c at 4"));
        assert!(kept.find("c", 3).is_none());
    }

    #[tokio::test]
    async fn with_single_flight_concurrent_misses_read_once() {
        let kept: Arc<KeptValues<(), usize>> = Arc::new(KeptValues::new(1).single_flight());
        let reads = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let ask = || {
            let (kept, reads) = (kept.clone(), reads.clone());
            tokio::spawn(async move {
                let read = async {
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    Ok::<_, ()>(Arc::new(reads.fetch_add(1, std::sync::atomic::Ordering::SeqCst)))
                };
                *kept.find_or_read((), 1, |_| true, read).await.unwrap()
            })
        };
        let (first, second) = tokio::join!(ask(), ask());
        assert_eq!((first.unwrap(), second.unwrap()), (0, 0), "the second waited and found the first's value");
        assert_eq!(reads.load(std::sync::atomic::Ordering::SeqCst), 1);
    }
}
