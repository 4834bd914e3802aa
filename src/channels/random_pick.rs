//! A few channels of a list picked at random (For You shows 3 premium and 3 free, spec 3 §2), on
//! the server so that a page asks for the 6 cards it shows rather than every channel.

use async_graphql::InputObject;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// The most channels one pick returns.
const MOST: i32 = 25;

/// Pick `count` channels at random by `seed`: the same seed picks the same channels again, so a
/// page keeps its picks while it refetches.
#[derive(InputObject, Clone, Copy)]
pub struct RandomPick {
    /// 1 to 25.
    pub count: i32,
    /// Any number; a page view uses one.
    pub seed: f64,
}

impl RandomPick {
    /// Up to `count` of `items` in a random order given by the seed, those the caller does not
    /// `hold` first. Each item's place comes from its own id, so one channel more or less in the
    /// list does not reshuffle the others.
    pub fn pick<T>(self, items: Vec<T>, id: impl Fn(&T) -> &str, holds: impl Fn(&T) -> bool) -> Result<Vec<T>> {
        if !(1..=MOST).contains(&self.count) {
            return Err(Error::field("count", "Count must be between 1 and 25"));
        }
        let mut keyed: Vec<(bool, u64, T)> = items.into_iter().map(|item| (holds(&item), key(self.seed, id(&item)), item)).collect();
        keyed.sort_unstable_by_key(|(held, key, _)| (*held, *key));
        Ok(keyed.into_iter().take(self.count as usize).map(|(_, _, item)| item).collect())
    }
}

/// The item's place for a seed: stable across servers and releases (unlike std's hasher).
fn key(seed: f64, id: &str) -> u64 {
    let digest = Sha256::new().chain_update(seed.to_bits().to_le_bytes()).chain_update(id).finalize();
    u64::from_le_bytes(digest[..8].try_into().expect("a SHA-256 digest has 32 bytes"))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    fn ids(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("channel-{i}")).collect()
    }

    fn pick(count: i32, seed: f64, items: Vec<String>, held: &[&str]) -> Vec<String> {
        RandomPick { count, seed }.pick(items, |s| s.as_str(), |s| held.contains(&s.as_str())).unwrap()
    }

    #[test]
    fn the_same_seed_picks_the_same_channels_and_another_seed_others() {
        assert_eq!(pick(3, 0.25, ids(50), &[]), pick(3, 0.25, ids(50), &[]));
        let picks: HashSet<Vec<String>> = (0..20).map(|i| pick(3, f64::from(i) / 20.0, ids(50), &[])).collect();
        assert!(picks.len() > 15, "20 seeds gave only {} different picks", picks.len());
    }

    #[test]
    fn every_channel_comes_up_over_many_seeds() {
        let seen: HashSet<String> = (0..400).flat_map(|i| pick(3, f64::from(i) / 400.0, ids(50), &[])).collect();
        assert_eq!(seen.len(), 50);
    }

    #[test]
    fn a_channel_more_in_the_list_does_not_reshuffle_the_others() {
        let before = pick(20, 0.5, ids(20), &[]);
        let after: Vec<String> = pick(21, 0.5, ids(21), &[]).into_iter().filter(|id| id != "channel-21").collect();
        assert_eq!(before, after);
    }

    #[test]
    fn channels_the_caller_holds_come_last() {
        let held = ["channel-1", "channel-2", "channel-3", "channel-4"];
        let picked = pick(3, 0.75, ids(5), &held);
        assert_eq!(picked[0], "channel-5");
        assert!(picked[1..].iter().all(|id| held.contains(&id.as_str())));
        assert_eq!(pick(5, 0.1, ids(2), &[]).len(), 2);
    }

    #[test]
    fn a_count_out_of_range_is_refused() {
        for count in [0, -1, 26] {
            let refused = RandomPick { count, seed: 0.5 }.pick(ids(3), |s| s.as_str(), |_| false);
            assert!(refused.is_err(), "count {count}");
        }
    }
}
