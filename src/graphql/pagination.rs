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

/// A page of a list and the total of the whole (filtered) list.
#[derive(SimpleObject)]
#[graphql(concrete(name = "TagPage", params(crate::taxonomy::TagObject)))]
#[graphql(concrete(name = "FollowerPage", params(crate::taxonomy::Follower)))]
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
