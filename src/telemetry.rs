//! Structured logging with `tracing`: JSON lines (with the current request's span fields, so every
//! line carries its request and session ids) or a readable format for a terminal.

use tracing_subscriber::{EnvFilter, fmt, prelude::*};

pub fn init(format: &str, filter: &str) {
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let registry = tracing_subscriber::registry().with(filter);
    let result = if format == "json" {
        registry.with(fmt::layer().json().with_current_span(true).with_span_list(false).with_writer(std::io::stderr)).try_init()
    } else {
        registry.with(fmt::layer().with_writer(std::io::stderr)).try_init()
    };
    // Already set (tests spawn several apps in one process): keep the first.
    let _ = result;
}
