//! Promotions (spec 2 'Promotional content', 'Promotion pages'): promotional content that article
//! sidebars and editor blocks show, where each leads (an external link or a promotion page with
//! 'Register interest'), its expiry, and how often it is seen and followed. Administrators manage
//! it; readers see only what has not expired.

mod graphql;
pub mod queries;
pub mod service;

pub use graphql::{PromotionalContentCard, PromotionsMutation, PromotionsQuery, embedded_cards};
