//! Placeholder: the HTML sanitiser (being written).
