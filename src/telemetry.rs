//! Structured logging with `tracing`: JSON lines (with the current request's span fields, so every
//! line carries its request and session ids) or a readable format for a terminal.
//!
//! With `INSIGHTS_OTLP_ENDPOINT`, the same spans are also exported as OpenTelemetry traces over
//! OTLP/HTTP: the `request` span of every HTTP request (`http::request_ids`, with its request and
//! session ids), the `job` span of every job run (job id and kind), the spans inside them, and
//! one client span per SQL statement run inside them, made from sqlx's statement events
//! (`SqlSpans`). Without it no exporter or layer exists, so tracing costs what logging costs.

use std::{
    sync::OnceLock,
    time::{Duration, SystemTime},
};

use anyhow::Context as _;
use opentelemetry::{
    KeyValue,
    trace::{Span as _, SpanKind, TraceContextExt as _, Tracer as _, TracerProvider as _},
};
use opentelemetry_otlp::{Protocol, WithExportConfig as _};
use opentelemetry_sdk::{
    Resource,
    trace::{Sampler, SdkTracer, SdkTracerProvider},
};
use tracing::{Dispatch, Event, Level, Subscriber, dispatcher::WeakDispatch, field::Field};
use tracing_subscriber::{
    EnvFilter, Layer, Registry,
    filter::Targets,
    fmt,
    layer::{Context, SubscriberExt as _},
    registry::LookupSpan,
    util::SubscriberInitExt as _,
};

use crate::config::TelemetryConfig;

/// What is exported as traces, whatever the log filter says: our spans and events at info and
/// above; SQL statements become `SqlSpans` instead of events; apalis' polling stays out.
const TRACE_FILTER: &str = "info,sqlx=warn,sqlx::query=off,apalis=warn";

/// Logging only (tools, tests).
pub fn init(format: &str, filter: &str) {
    // Already set (tests spawn several apps in one process): keep the first.
    let _ = dispatch(format, filter, None).try_init();
}

/// Logging, and trace export when `INSIGHTS_OTLP_ENDPOINT` is set (`serve`, `worker`). Keep the
/// returned `Traces` until the process ends: its `shutdown` (or drop) sends the spans still held.
pub fn init_with_traces(format: &str, filter: &str, config: &TelemetryConfig) -> Traces {
    let traces = match Traces::start(config) {
        Ok(traces) => traces,
        Err(error) => {
            init(format, filter);
            tracing::error!(error = format!("{error:#}"), "traces are not exported");
            return Traces { provider: None };
        }
    };
    let _ = dispatch(format, filter, traces.provider.as_ref()).try_init();
    if let Some(endpoint) = &config.otlp_endpoint {
        tracing::info!(endpoint, sample_ratio = config.otlp_sample_ratio, "exporting traces over OTLP");
    }
    traces
}

/// The subscriber of `init_with_traces`, not installed: tests run it with `tracing::dispatcher::set_default`.
pub fn dispatch_with_traces(format: &str, filter: &str, config: &TelemetryConfig) -> anyhow::Result<(Dispatch, Traces)> {
    let traces = Traces::start(config)?;
    Ok((dispatch(format, filter, traces.provider.as_ref()), traces))
}

fn dispatch(format: &str, filter: &str, traces: Option<&SdkTracerProvider>) -> Dispatch {
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new("info"));
    // The log filter is the log layer's own, so the trace layers can see what logs leave out.
    let logs: Box<dyn Layer<Registry> + Send + Sync> = if format == "json" {
        fmt::layer().json().with_current_span(true).with_span_list(false).with_writer(std::io::stderr).with_filter(filter).boxed()
    } else {
        fmt::layer().with_writer(std::io::stderr).with_filter(filter).boxed()
    };
    let registry = tracing_subscriber::registry().with(logs);
    let Some(provider) = traces else { return Dispatch::new(registry) };
    let tracer = provider.tracer("insights");
    let spans = tracing_opentelemetry::layer().with_tracer(tracer.clone()).with_filter(EnvFilter::new(TRACE_FILTER));
    // Spans at info for the parents; sqlx's statement events at any level.
    let sql = SqlSpans { tracer, dispatch: OnceLock::new() }
        .with_filter(Targets::new().with_default(Level::INFO).with_target("sqlx::query", Level::TRACE));
    Dispatch::new(registry.with(spans).with(sql))
}

/// The trace pipeline, when configured: a batch exporter on its own thread.
pub struct Traces {
    provider: Option<SdkTracerProvider>,
}

impl Traces {
    fn start(config: &TelemetryConfig) -> anyhow::Result<Traces> {
        let Some(endpoint) = config.otlp_endpoint.as_deref().filter(|e| !e.trim().is_empty()) else {
            return Ok(Traces { provider: None });
        };
        let endpoint = endpoint.trim().trim_end_matches('/');
        let url = if endpoint.ends_with("/v1/traces") { endpoint.to_owned() } else { format!("{endpoint}/v1/traces") };
        // reqwest 0.13 is built without a TLS provider of its own (see the chat's client).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(url.clone())
            .with_timeout(Duration::from_secs(10))
            .build()
            .with_context(|| format!("build the OTLP exporter for {url}"))?;
        let resource = Resource::builder()
            .with_service_name("insights")
            .with_attribute(KeyValue::new("service.version", crate::config::build_version()))
            .build();
        let ratio = config.otlp_sample_ratio.clamp(0.0, 1.0);
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(resource)
            .with_sampler(Sampler::ParentBased(Box::new(Sampler::TraceIdRatioBased(ratio))))
            .build();
        Ok(Traces { provider: Some(provider) })
    }

    /// Sends the finished spans held so far (blocks until the collector answered or timed out).
    pub fn flush(&self) {
        if let Some(provider) = &self.provider
            && let Err(error) = provider.force_flush()
        {
            tracing::warn!(%error, "traces not sent");
        }
    }

    /// Sends the spans still held and stops the exporter.
    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(provider) = self.provider.take()
            && let Err(error) = provider.shutdown()
        {
            tracing::warn!(%error, "traces not sent at shutdown");
        }
    }
}

impl Drop for Traces {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Turns each sqlx statement event (target `sqlx::query`, with the statement, its row counts and
/// its elapsed time) inside an exported span into a client span of that span, dated from the
/// event's elapsed time. Statements outside any request or job (polls, heartbeats) are left out.
struct SqlSpans {
    tracer: SdkTracer,
    /// The subscriber this layer is part of, to read the parent's OpenTelemetry context.
    dispatch: OnceLock<WeakDispatch>,
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for SqlSpans {
    fn on_register_dispatch(&self, dispatch: &Dispatch) {
        let _ = self.dispatch.set(dispatch.downgrade());
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        if event.metadata().target() != "sqlx::query" {
            return;
        }
        let Some(parent) = ctx.event_span(event) else { return };
        let Some(dispatch) = self.dispatch.get().and_then(WeakDispatch::upgrade) else { return };
        let Some(parent_cx) = tracing_opentelemetry::get_otel_context(&parent.id(), &dispatch) else { return };
        if !parent_cx.span().span_context().is_sampled() {
            return;
        }
        let mut fields = SqlFields::default();
        event.record(&mut fields);
        let end = SystemTime::now();
        let start = end.checked_sub(Duration::from_secs_f64(fields.elapsed_secs.max(0.0))).unwrap_or(end);
        let statement = if fields.statement.trim().is_empty() { fields.summary.clone() } else { fields.statement.trim().to_owned() };
        let name = fields.summary.trim_end_matches(" …").to_owned();
        let mut span = self
            .tracer
            .span_builder(if name.is_empty() { "sql".to_owned() } else { name })
            .with_kind(SpanKind::Client)
            .with_start_time(start)
            .with_attributes([
                KeyValue::new("db.system.name", "postgresql"),
                KeyValue::new("db.query.text", statement),
                KeyValue::new("db.response.returned_rows", fields.rows_returned as i64),
                KeyValue::new("db.response.affected_rows", fields.rows_affected as i64),
            ])
            .start_with_context(&self.tracer, &parent_cx);
        span.end_with_timestamp(end);
    }
}

/// The fields of a sqlx statement event.
#[derive(Default)]
struct SqlFields {
    summary: String,
    statement: String,
    rows_returned: u64,
    rows_affected: u64,
    elapsed_secs: f64,
}

impl tracing::field::Visit for SqlFields {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "summary" => self.summary = value.to_owned(),
            "db.statement" => self.statement = value.to_owned(),
            _ => {}
        }
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        match field.name() {
            "rows_returned" => self.rows_returned = value,
            "rows_affected" => self.rows_affected = value,
            _ => {}
        }
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        if field.name() == "elapsed_secs" {
            self.elapsed_secs = value;
        }
    }

    fn record_debug(&mut self, _: &Field, _: &dyn std::fmt::Debug) {}
}
