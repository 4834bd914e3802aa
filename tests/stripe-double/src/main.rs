//! `stripe-double [--port N] [--webhook-url URL] [--webhook-secret whsec_…]`: the double as a
//! process, for `make run` and the browser tests.

use clap::Parser;
use stripe_double::{Options, StripeDouble};

#[derive(Parser)]
#[command(name = "stripe-double", about = "A stateful Stripe test double")]
struct Args {
    /// Loopback port (0 = a free one).
    #[arg(long, default_value_t = 0, env = "STRIPE_DOUBLE_PORT")]
    port: u16,
    /// Where to POST events.
    #[arg(long, env = "STRIPE_DOUBLE_WEBHOOK_URL")]
    webhook_url: Option<String>,
    /// The endpoint's signing secret (whsec_…).
    #[arg(long, env = "STRIPE_DOUBLE_WEBHOOK_SECRET")]
    webhook_secret: Option<String>,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::from_default_env()).with_writer(std::io::stderr).init();
    let args = Args::parse();
    let options = Options { port: args.port, webhook_url: args.webhook_url, webhook_secret: args.webhook_secret, ..Options::default() };
    let double = StripeDouble::start_with(options).await?;
    println!("stripe-double listening on {}", double.base_url());
    shutdown_signal().await;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
