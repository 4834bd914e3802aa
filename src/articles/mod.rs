//! Articles: authoring, the lifecycle, the list and stats (spec 2). Built up by the article issue;
//! so far the HTML sanitiser that every stored article, template and page goes through.

pub mod sanitize;
