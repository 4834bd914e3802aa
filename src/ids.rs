//! Record ids: 24-character lowercase hex strings in the ObjectId layout (4 bytes of Unix
//! seconds, 5 random bytes, a 3-byte counter), so links carried over from the earlier system
//! keep their shape and the spec's "valid object id" check has a meaning.

use std::sync::atomic::{AtomicU32, Ordering};

use rand::Rng;

static COUNTER: std::sync::LazyLock<AtomicU32> =
    std::sync::LazyLock::new(|| AtomicU32::new(rand::thread_rng().r#gen::<u32>() & 0x00ff_ffff));
static PROCESS_RANDOM: std::sync::LazyLock<[u8; 5]> = std::sync::LazyLock::new(|| rand::thread_rng().r#gen());

/// A new id, unique across processes and ordered by creation second.
pub fn new_id() -> String {
    let seconds = chrono::Utc::now().timestamp() as u32;
    let count = COUNTER.fetch_add(1, Ordering::Relaxed) & 0x00ff_ffff;
    let mut bytes = [0u8; 12];
    bytes[..4].copy_from_slice(&seconds.to_be_bytes());
    bytes[4..9].copy_from_slice(&*PROCESS_RANDOM);
    bytes[9..].copy_from_slice(&count.to_be_bytes()[1..]);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `id` has the ObjectId form. Callers answer NOT_FOUND when it has not.
pub fn is_valid_id(id: &str) -> bool {
    id.len() == 24 && id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_ids_are_valid_and_distinct() {
        let a = new_id();
        let b = new_id();
        assert!(is_valid_id(&a), "{a}");
        assert_ne!(a, b);
    }

    #[test]
    fn rejects_ids_of_another_shape() {
        assert!(is_valid_id("5f9b2c3e1a2b3c4d5e6f7a8b"));
        for bad in ["", "5f9b2c3e1a2b3c4d5e6f7a8", "5F9B2C3E1A2B3C4D5E6F7A8B", "5f9b2c3e1a2b3c4d5e6f7a8g", "5f9b2c3e1a2b3c4d5e6f7a8b0"] {
            assert!(!is_valid_id(bad), "{bad}");
        }
    }
}
