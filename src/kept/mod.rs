//! What servers keep in memory, and under which database revision each kept value stays right.

pub mod map;
