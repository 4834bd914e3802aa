//! Users: the stored record of everyone who signed in, kept in step with their token's claims, and
//! the identity operations of the API (`me`, `updateUserFromToken`, `isUserProfileComplete`).

mod graphql;
pub mod queries;

pub use graphql::{UsersMutation, UsersQuery};
pub use queries::User;
