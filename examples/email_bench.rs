//! The email benchmark's worker (scripts/bench/email.sh): fans out one article notification
//! request to its channel's subscribers (`email::notifications::fan_out`, what the
//! NotifyArticleSubscribers job runs), then delivers the outbox (`email::delivery::deliver_due`,
//! what the DeliverEmails job runs) to an in-process SMTP sink that only counts, as a registered
//! worker process with INSIGHTS_SMTP_CONCURRENCY connections. Prints the time of each, the
//! delivery rate, and this process's peak resident memory.
//!
//!   cargo run --release --example email_bench -- [--request-id ID [--no-delivery]]   (settings from the environment)

#[path = "../tests/support/smtp_sink.rs"]
#[allow(dead_code)] // The benchmark only counts.
mod smtp_sink;

use std::time::{Duration, Instant};

use anyhow::Context;
use chrono::Utc;
use clap::Parser;
use insights::{
    AppState, Config, db,
    email::{delivery, notifications},
    workers,
};
use tokio_util::sync::CancellationToken;

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    config: Config,
    /// The `article_notification_request` to fan out; without it, only the outbox is delivered.
    #[arg(long)]
    request_id: Option<i64>,
    /// Stop after the fan-out (the outbox is left pending).
    #[arg(long)]
    no_delivery: bool,
    /// Stop delivering after this many seconds (what is left stays pending); the rate is what was
    /// sent by then.
    #[arg(long)]
    max_seconds: Option<u64>,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = Args::parse();
    let at_start = memory("VmRSS");
    let sink = smtp_sink::SmtpSink::start(false).await.context("start the SMTP sink")?;
    args.config.email.smtp_url = Some(sink.url().parse().expect("any string is a secret"));
    let pool = db::connect(&args.config.database_url, args.config.db_max_connections).await?;
    let state = AppState::new(pool.clone(), args.config, insights_jobs::queue());

    let mut fan_out_seconds = 0.0;
    if let Some(request_id) = args.request_id {
        let started = Instant::now();
        let done = notifications::fan_out(&pool, state.jobs.as_ref(), request_id, Utc::now()).await.context("fan out")?;
        fan_out_seconds = started.elapsed().as_secs_f64();
        anyhow::ensure!(!done.skipped, "request {request_id} was already processed");
        println!(
            "fan-out: {} emails and {} digest entries written in {fan_out_seconds:.2} s; peak resident memory so far {} MB",
            done.emails,
            done.digest_entries,
            memory("VmHWM") / 1024
        );
    }
    if args.no_delivery {
        println!("figures: fan_out_s={fan_out_seconds:.2} peak_mb={}", memory("VmHWM") / 1024);
        return Ok(());
    }

    let mailer = delivery::Mailer::from_config(&state.config.email)?;
    let heartbeat = Duration::from_secs(state.config.jobs.worker_heartbeat_secs);
    let worker = workers::register(&pool, heartbeat).await.context("register the worker")?;
    let beats = tokio::spawn({
        let pool = pool.clone();
        async move {
            let mut ticks = tokio::time::interval(heartbeat);
            loop {
                ticks.tick().await;
                let _ = workers::beat(&pool, worker).await;
            }
        }
    });
    let progress = tokio::spawn({
        let sink = sink.clone();
        async move {
            let started = Instant::now();
            loop {
                tokio::time::sleep(Duration::from_secs(10)).await;
                eprintln!("  … {} emails received by the sink after {:.0} s", sink.count(), started.elapsed().as_secs_f64());
            }
        }
    });
    let stop = CancellationToken::new();
    if let Some(seconds) = args.max_seconds {
        let stop = stop.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(seconds)).await;
            stop.cancel();
        });
    }
    let started = Instant::now();
    let delivered = delivery::deliver_due(&state, &mailer, worker, Utc::now(), &stop).await.context("deliver")?;
    let delivery_seconds = started.elapsed().as_secs_f64();
    progress.abort();
    beats.abort();
    workers::stopped(&pool, worker).await?;
    let rate = delivered.sent as f64 / delivery_seconds.max(1e-9);
    println!(
        "delivery: {} sent, {} retrying, {} failed in {delivery_seconds:.2} s ({rate:.0} emails/s) over {} SMTP connections; the sink received {}{}",
        delivered.sent,
        delivered.retrying,
        delivered.failed,
        state.config.email.smtp_concurrency,
        sink.count(),
        if stop.is_cancelled() { " (stopped at --max-seconds; the rest is pending)" } else { "" }
    );
    let peak = memory("VmHWM") / 1024;
    println!("memory: peak resident {peak} MB (VmHWM; {} MB at start)", at_start / 1024);
    // For the script's summary.
    println!(
        "figures: fan_out_s={fan_out_seconds:.2} sent={} delivery_s={delivery_seconds:.2} rate={rate:.0} peak_mb={peak} concurrency={}",
        delivered.sent, state.config.email.smtp_concurrency
    );
    Ok(())
}

/// A `/proc/self/status` figure in kB (`VmHWM`: peak resident set; `VmRSS`: now); 0 elsewhere.
fn memory(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status.lines().find(|line| line.starts_with(field)).and_then(|line| line.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}
