//! Taxonomy records and the validation of what clients send (spec 1 §5).

/// The tree is at most this deep (spec 1 §3: "nested up to 5 levels").
pub const MAX_LEVEL: i32 = 5;
pub const CATEGORY_NAME_MAX: usize = 100;
pub const TAG_NAME_MAX: usize = 50;
pub const DESCRIPTION_MAX: usize = 500;

/// A topic as lists show it: its own fields and its level.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Category {
    pub category_id: String,
    pub name: String,
    pub description: String,
    pub parent_id: Option<String>,
    pub is_featured: bool,
    pub small_image: Option<String>,
    pub large_image: Option<String>,
    pub promotional_content_id: Option<String>,
    pub promotional_content_name: Option<String>,
    pub promotional_content_link: Option<String>,
    pub promotional_content_article_image: Option<String>,
    pub is_locked: bool,
    pub is_premium: bool,
    pub version: i32,
    pub level: i32,
}

/// What a topic gathers: its articles, followers, the distinct contributors of its articles, and
/// the views of its articles. A topic without a row of counts has none of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct TopicCounts {
    pub article_count: i64,
    pub subscribers_count: i64,
    pub contributors_count: i64,
    pub views: i64,
}

#[derive(Debug, Clone)]
pub struct Tag {
    pub tag_id: String,
    pub name: String,
    pub description: String,
    pub version: i32,
    pub article_count: i64,
    pub views: i64,
}
