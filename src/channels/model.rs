//! Channel kinds and states as the API and the database name them.

use async_graphql::Enum;

#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[graphql(rename_items = "camelCase")]
pub enum ChannelType {
    Premium,
    FreeOpen,
    FreeClosed,
}

impl ChannelType {
    pub fn as_str(self) -> &'static str {
        match self {
            ChannelType::Premium => "premium",
            ChannelType::FreeOpen => "freeOpen",
            ChannelType::FreeClosed => "freeClosed",
        }
    }

    pub fn parse(value: &str) -> ChannelType {
        match value {
            "premium" => ChannelType::Premium,
            "freeOpen" => ChannelType::FreeOpen,
            _ => ChannelType::FreeClosed,
        }
    }
}

/// Who owns a channel (and so publishes its articles).
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[graphql(name = "ChannelOwnerType", rename_items = "camelCase")]
pub enum OwnerType {
    Desk,
    Contributor,
}

impl OwnerType {
    pub fn as_str(self) -> &'static str {
        match self {
            OwnerType::Desk => "desk",
            OwnerType::Contributor => "contributor",
        }
    }

    pub fn parse(value: &str) -> OwnerType {
        match value {
            "desk" => OwnerType::Desk,
            _ => OwnerType::Contributor,
        }
    }
}

#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[graphql(rename_items = "camelCase")]
pub enum ChannelState {
    Active,
    Archived,
}

impl ChannelState {
    pub fn parse(value: &str) -> ChannelState {
        match value {
            "archived" => ChannelState::Archived,
            _ => ChannelState::Active,
        }
    }
}
