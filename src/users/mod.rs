//! Users: the stored record of everyone who signed in, kept in step with their token's claims, and
//! the identity operations of the API (`me`, `updateUserFromToken`, `isUserProfileComplete`), and
//! the users administration (list, edit, the contributor photo).

pub mod kept;
mod graphql;
mod picture;
pub mod queries;
pub mod service;

pub use graphql::{UsersMutation, UsersQuery};
pub use picture::contributor_profile_picture;
pub use queries::{User, UserSummary};
