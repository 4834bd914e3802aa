//! `serve` with the built-in development provider (no `INSIGHTS_AUTH_ISSUER`): it warns at start-up
//! that anyone can sign in as anyone, and refuses a listen address other than loopback unless
//! `INSIGHTS_DEV_SIGN_IN=true`. The check comes before the database: these runs point at a port
//! nothing listens on, so a run that passes the check stops at connecting.

#[allow(dead_code)]
mod command;

use std::time::{Duration, Instant};

const WARNING: &str = "the built-in development sign-in is on";
const REFUSAL: &str = "refusing to serve the built-in development sign-in";

/// `serve` with only `env` (and a database no server answers on); returns its output.
async fn serve(env: &[(&str, &str)]) -> (bool, String) {
    let run = command::run(&["serve", "--no-worker"], |command| {
        command.env_clear().env("DATABASE_URL", "postgres://insights@127.0.0.1:1/insights").envs(env.iter().copied());
    })
    .await;
    (run.output.status.success(), format!("{}{}", run.stdout, run.stderr))
}

#[tokio::test]
async fn the_built_in_provider_warns_and_is_refused_on_a_public_address_unless_asked_for() {
    let started = Instant::now();
    let (ok, output) = serve(&[("INSIGHTS_LISTEN", "0.0.0.0:0")]).await;
    assert!(!ok, "{output}");
    assert!(output.contains(WARNING) && output.contains(REFUSAL) && output.contains("INSIGHTS_DEV_SIGN_IN=true"), "{output}");
    assert!(started.elapsed() < Duration::from_secs(10), "refused at once");

    // On loopback, or with the setting: warned, then on to the database (which is not there).
    for env in [&[("INSIGHTS_LISTEN", "127.0.0.1:0")][..], &[("INSIGHTS_LISTEN", "0.0.0.0:0"), ("INSIGHTS_DEV_SIGN_IN", "true")]] {
        let (ok, output) = serve(env).await;
        assert!(!ok && output.contains(WARNING) && !output.contains(REFUSAL), "{env:?}: {output}");
    }

    // An external issuer: no warning, no refusal.
    let (_, output) = serve(&[("INSIGHTS_LISTEN", "0.0.0.0:0"), ("INSIGHTS_AUTH_ISSUER", "https://login.example")]).await;
    assert!(!output.contains(WARNING) && !output.contains(REFUSAL), "{output}");
}
