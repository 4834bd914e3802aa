//! Shapes shared by the admin lists: page parameters (the spec's page sizes), a page of items with
//! the total, sort direction, and the result of a delete.

use async_graphql::{Enum, ID, InputObject, OutputType, SimpleObject};

use crate::error::{Error, Result};

/// The page sizes the admin lists offer (spec 1 §9).
pub const PAGE_SIZES: &[i32] = &[15, 30, 50, 100, 200];
pub const DEFAULT_PAGE_SIZE: i32 = 15;

#[derive(InputObject, Clone, Copy)]
pub struct PageParams {
    /// 1-based page number.
    #[graphql(default = 1)]
    pub page: i32,
    /// One of 15, 30, 50, 100, 200.
    #[graphql(default = 15)]
    pub page_size: i32,
}

impl Default for PageParams {
    fn default() -> Self {
        PageParams { page: 1, page_size: DEFAULT_PAGE_SIZE }
    }
}

impl PageParams {
    /// LIMIT and OFFSET for the database; a page size outside the list is BAD_USER_INPUT.
    pub fn limit_offset(&self) -> Result<(i64, i64)> {
        if !PAGE_SIZES.contains(&self.page_size) {
            return Err(Error::field("pageSize", "Page size must be one of 15, 30, 50, 100, 200"));
        }
        if self.page < 1 {
            return Err(Error::field("page", "Minimum value is 1"));
        }
        let limit = i64::from(self.page_size);
        Ok((limit, (i64::from(self.page) - 1) * limit))
    }
}

/// A LIMIT and OFFSET given directly (lists whose API takes them rather than a page number).
pub fn checked_limit_offset(limit: i32, offset: i32) -> Result<(i64, i64)> {
    if !(1..=PAGE_SIZES[PAGE_SIZES.len() - 1]).contains(&limit) {
        return Err(Error::field("limit", "Limit must be between 1 and 200"));
    }
    if offset < 0 {
        return Err(Error::field("offset", "Minimum value is 0"));
    }
    Ok((i64::from(limit), i64::from(offset)))
}

/// The total of a filtered list when a page already tells it: a short page that is not past the
/// end. Otherwise the caller counts.
pub fn total_from_page(rows: usize, limit: i64, offset: i64) -> Option<i64> {
    let rows = rows as i64;
    (rows < limit && (rows > 0 || offset == 0)).then_some(offset + rows)
}

/// A LIKE pattern matching `search` anywhere in a lower-cased text; none for a blank search.
pub fn contains_pattern(search: Option<&str>) -> Option<String> {
    let search = search?.trim().to_lowercase();
    if search.is_empty() {
        return None;
    }
    let escaped = search.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    Some(format!("%{escaped}%"))
}

/// A page of a list and the total of the whole (filtered) list.
#[derive(SimpleObject)]
#[graphql(concrete(name = "TagPage", params(crate::taxonomy::TagObject)))]
#[graphql(concrete(name = "FollowerPage", params(crate::taxonomy::Follower)))]
#[graphql(concrete(name = "ChannelPage", params(crate::channels::ChannelObject)))]
pub struct Page<T: OutputType> {
    pub items: Vec<T>,
    pub total: i64,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Default)]
#[graphql(rename_items = "PascalCase")]
pub enum SortDirection {
    #[default]
    Asc,
    Desc,
}

/// What a delete removed.
#[derive(SimpleObject)]
pub struct DeleteResult {
    #[graphql(name = "_id")]
    pub id: ID,
    pub name: String,
}
