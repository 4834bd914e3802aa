//! `insights-cli`: serves the API and the web app, runs the background workers, and performs
//! operator tasks. Each subcommand builds its state from one `Config` and calls the library.

mod audit;
mod billing;
mod firms;
mod operate;
mod table;
mod uploads;

use std::{path::PathBuf, time::Duration};

use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};
use insights::{AppState, Config, auth::provider, db, telemetry};
use tokio_util::sync::CancellationToken;

#[derive(Parser)]
#[command(
    name = "insights-cli",
    version = insights::config::build_version(),
    about = "Insights: market-research publishing portal",
    long_about = "Insights: market-research publishing portal.\n\n\
                  One binary serves the GraphQL API and the web app, runs the background workers, \
                  and performs operator tasks. Every setting is a flag with an environment variable; \
                  see `insights-cli serve --help`."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API and the web app at /insights, with the background workers in the same process.
    Serve(ServeArgs),
    /// Run the background workers only (for deployments with separate worker processes).
    Worker(WithConfig),
    /// Apply pending database migrations and exit.
    Migrate(WithConfig),
    /// Print a bearer token from the built-in identity provider, for scripts and tests.
    Token(TokenArgs),
    /// Write the GraphQL schema (SDL) used to generate the web app's types.
    Schema(SchemaArgs),
    /// Load data files from seeds/ (idempotent: a second run changes nothing).
    #[command(subcommand)]
    Seed(SeedCommand),
    /// Archive a channel for good, with the same rules as the web app: refused while it has active
    /// subscribers; its articles are archived and its templates unlinked.
    ArchiveChannel(ArchiveChannelArgs),
    /// Add the users of a CSV file to a channel, with the same check and rules as the web app's bulk
    /// add: the first value of each line is the email address; users who never signed in, unknown
    /// addresses and refused lines are listed in FILE.errors.csv beside the file. All or nothing; a
    /// second run of the same file adds nothing.
    ImportSubscribers(ImportSubscribersArgs),
    /// Subscription upkeep.
    #[command(subcommand)]
    Subscriptions(SubscriptionsCommand),
    /// Clearing accounts readers may charge a premium channel to: `import FILE.csv` (email,
    /// account number, name) and `list --email EMAIL`.
    #[command(subcommand)]
    BillingAccounts(billing::BillingAccountsCommand),
    /// Client firms: `import` from a CSV file, `list` with their counts.
    #[command(subcommand)]
    Firms(firms::FirmsCommand),
    /// The background workers at a glance: the worker processes alive (and gone in the last 24 h)
    /// with their versions, so that a rolling upgrade shows when it is complete; the job queue by
    /// kind and state; the failed jobs with their last error; the outbox by state. `jobs retry ID`
    /// (or `--all`) runs failed jobs again.
    Jobs(operate::JobsArgs),
    /// The emails of the outbox, newest first, with their delivery state, attempts and last error;
    /// `--show ID` prints one as it is sent (how to read emails without an SMTP server), and
    /// `outbox retry ID` (or `--all`) sends failed ones again.
    Outbox(operate::OutboxArgs),
    /// Upload files: `migrate` copies the local upload directory into the object store of
    /// INSIGHTS_UPLOAD_URL and checks each copy.
    #[command(subcommand)]
    Uploads(uploads::UploadsCommand),
    /// The audit trail, newest first, with the web app's filters: who changed what, when and from
    /// where (`--since 2026-01-01 --actor USER_ID --entity article[:ID] --action editArticle`);
    /// `--csv` prints it as the web app's export. Reading the trail is recorded.
    Audit(audit::AuditArgs),
}

#[derive(Args)]
struct ImportSubscribersArgs {
    #[command(flatten)]
    config: Config,
    /// The channel's id, or its name.
    #[arg(long)]
    channel: String,
    /// The CSV file (one address per line in the first column; a header row is reported and skipped).
    file: PathBuf,
    /// The subscription to give [default: free on free channels, nonCharge on premium ones].
    #[arg(long = "type", value_enum)]
    subscription_type: Option<ImportType>,
    /// The audit notes (at most 250 characters) [default: "Imported from FILE by insights-cli"].
    #[arg(long)]
    notes: Option<String>,
    /// Also give the subscription to users who are already subscribed (else they are left as they are).
    #[arg(long)]
    overwrite: bool,
    /// Check the file and write the error report, but change nothing in the database.
    #[arg(long)]
    dry_run: bool,
    /// The clearing account number (required with --type account).
    #[arg(long)]
    account_number: Option<String>,
    /// How the subscription is billed (required with --type external).
    #[arg(long)]
    billing_method: Option<String>,
    /// The trial's length in days (--type trial) [default: the channel's trial days].
    #[arg(long)]
    trial_duration: Option<i32>,
    /// Why the trials may go over the trial policy (longer than its longest trial, or for readers
    /// within its cool-off); kept in the audit trail. Without it such readers are refused.
    #[arg(long)]
    policy_override_reason: Option<String>,
    /// The last day of the subscriptions, dd/MM/yyyy (they end at 23:59:59 UTC that day).
    #[arg(long, value_parser = parse_day)]
    expires: Option<chrono::NaiveDate>,
}

/// The subscription types an import may give (card subscriptions come from checkout only).
#[derive(Clone, Copy, clap::ValueEnum)]
enum ImportType {
    Free,
    Trial,
    #[value(name = "nonCharge")]
    NonCharge,
    Account,
    External,
}

impl From<ImportType> for insights::subscriptions::model::SubscriptionType {
    fn from(kind: ImportType) -> Self {
        use insights::subscriptions::model::SubscriptionType;
        match kind {
            ImportType::Free => SubscriptionType::Free,
            ImportType::Trial => SubscriptionType::Trial,
            ImportType::NonCharge => SubscriptionType::NonCharge,
            ImportType::Account => SubscriptionType::Account,
            ImportType::External => SubscriptionType::External,
        }
    }
}

/// A dd/MM/yyyy day; anything else says spec 1 §5's 'Invalid Date', with what was expected.
fn parse_day(value: &str) -> Result<chrono::NaiveDate, String> {
    chrono::NaiveDate::parse_from_str(value.trim(), "%d/%m/%Y")
        .map_err(|_| format!("{}: {value:?} is not a day in the form dd/MM/yyyy", insights::validation::INVALID_DATE_MESSAGE))
}

#[derive(Subcommand)]
enum SubscriptionsCommand {
    /// Run the expiry sweep once now (what the scheduled job does): end the subscriptions whose end
    /// has come and ask for the trial reminders that are due; prints what it did.
    Expire(WithConfig),
}

#[derive(Args)]
struct ArchiveChannelArgs {
    #[command(flatten)]
    config: Config,
    /// The channel's id, or its name.
    channel: String,
}

#[derive(Subcommand)]
enum SeedCommand {
    /// Upsert a topic tree and tags from a CSV file (columns: type, path, description, sector,
    /// locked, premium; a topic's path joins its names from the root with " > ").
    Taxonomy(SeedArgs),
    /// Load demo content: desks, channels, the shipped topics and tags, a few hundred articles,
    /// readers with subscriptions, follows and views. Refuses a database that has content
    /// (articles, channels or desks) unless --force; says so and changes nothing when the demo is
    /// already there.
    Demo(DemoArgs),
}

#[derive(Args)]
struct DemoArgs {
    #[command(flatten)]
    config: Config,
    /// Add the demo content beside the content already there (what exists by name is kept).
    #[arg(long)]
    force: bool,
    /// When the database has content, say so and exit successfully without loading anything.
    #[arg(long, conflicts_with = "force")]
    if_empty: bool,
}

#[derive(Args)]
struct SeedArgs {
    #[command(flatten)]
    config: Config,
    /// The CSV file, e.g. seeds/taxonomy.csv.
    file: PathBuf,
}

#[derive(Args)]
struct WithConfig {
    #[command(flatten)]
    config: Config,
}

#[derive(Args)]
struct ServeArgs {
    #[command(flatten)]
    config: Config,
    /// Do not run the background workers in this process.
    #[arg(long, env = "INSIGHTS_NO_WORKER")]
    no_worker: bool,
    /// Do not apply pending migrations at start.
    #[arg(long, env = "INSIGHTS_SKIP_MIGRATIONS")]
    skip_migrations: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum RoleShorthand {
    Admin,
    Editor,
    Contributor,
    Subscriber,
    Trial,
}

impl RoleShorthand {
    fn scope(self) -> &'static str {
        use insights::auth::scopes;
        match self {
            RoleShorthand::Admin => scopes::ADMIN,
            RoleShorthand::Editor => scopes::EDITOR,
            RoleShorthand::Contributor => scopes::CONTRIBUTOR,
            RoleShorthand::Subscriber => scopes::READER,
            RoleShorthand::Trial => scopes::TRIAL_READER,
        }
    }
}

#[derive(Args)]
struct TokenArgs {
    #[command(flatten)]
    config: Config,
    /// The user's email.
    #[arg(long)]
    email: String,
    /// The user's display name (defaults to the email).
    #[arg(long)]
    name: Option<String>,
    /// The user's company.
    #[arg(long)]
    company: Option<String>,
    /// A scope to grant; repeat for several (e.g. --scope insights:content-edit --scope intelligence).
    #[arg(long = "scope")]
    scopes: Vec<String>,
    /// Shorthand for the role's scope.
    #[arg(long, value_enum)]
    role: Option<RoleShorthand>,
    /// Make a company-directory (internal) user; staff roles are internal by default.
    #[arg(long)]
    internal: Option<bool>,
    /// Lifetime of the token, e.g. 1h, 30m, 7d.
    #[arg(long, default_value = "1h", value_parser = humantime::parse_duration)]
    ttl: Duration,
}

#[derive(Args)]
struct SchemaArgs {
    /// Where to write the SDL; `-` for standard output.
    #[arg(long, short, default_value = "web/schema.graphql")]
    output: PathBuf,
}

/// mimalloc rather than glibc's malloc: a request allocates and frees thousands of small values
/// (rows, GraphQL values, JSON), and glibc's bins were a fifth of the server's CPU under load.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The command this process runs (`firms import`), as the audit trail names its changes.
static COMMAND: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// The subcommand names of the command line, outermost first.
fn command_name(matches: &clap::ArgMatches) -> String {
    let mut names = Vec::new();
    let mut matches = matches;
    while let Some((name, sub)) = matches.subcommand() {
        names.push(name.to_owned());
        matches = sub;
    }
    names.join(" ")
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command().get_matches();
    COMMAND.set(command_name(&matches)).expect("set once");
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    match cli.command {
        Command::Serve(args) => serve(args).await,
        Command::Worker(args) => worker(args.config).await,
        Command::Migrate(args) => migrate(args.config).await,
        Command::Token(args) => token(args).await,
        Command::Schema(args) => schema(args),
        Command::Seed(SeedCommand::Taxonomy(args)) => seed_taxonomy(args).await,
        Command::Seed(SeedCommand::Demo(args)) => seed_demo(args).await,
        Command::ArchiveChannel(args) => archive_channel(args).await,
        Command::ImportSubscribers(args) => import_subscribers(args).await,
        Command::Subscriptions(SubscriptionsCommand::Expire(args)) => expire_subscriptions(args.config).await,
        Command::BillingAccounts(command) => billing::billing_accounts(command).await,
        Command::Firms(command) => firms::firms(command).await,
        Command::Jobs(args) => operate::jobs(args).await,
        Command::Outbox(args) => operate::outbox(args).await,
        Command::Uploads(command) => uploads::uploads(command).await,
        Command::Audit(args) => audit::audit(args).await,
    }
}

/// The database, acting as this command for the audit trail (`cli firms import`).
async fn connect(config: &Config) -> anyhow::Result<sqlx::PgPool> {
    db::connect_as(config, &insights::audit::Actor::cli(COMMAND.get().map_or("", String::as_str))).await
}

/// The workers' database: their changes are the workers' in the audit trail.
async fn connect_workers(config: &Config) -> anyhow::Result<sqlx::PgPool> {
    db::connect_as(config, &insights::audit::Actor::worker()).await
}

async fn apply_migrations(pool: &sqlx::PgPool) -> anyhow::Result<()> {
    db::migrate(pool).await?;
    insights::search::ensure_ranked_index(pool).await?;
    insights_jobs::setup(pool).await
}

/// Cancelled on Ctrl-C or SIGTERM, so the server drains and running jobs finish.
fn shutdown_on_signal() -> CancellationToken {
    let token = CancellationToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        stop_signal().await;
        tracing::info!("shutdown requested");
        cancel.cancel();
    });
    token
}

/// The next Ctrl-C or SIGTERM.
async fn stop_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

/// A rolling restart loses nothing: after the signal, `/healthz` says `draining` for the grace
/// period while requests are still served (the load balancer moves away, keep-alive clients are
/// asked to reconnect); then `stop` makes the server stop accepting and finish the requests in
/// flight. A second signal ends the grace at once.
fn drain_then_stop(state: &AppState, signal: &CancellationToken) -> CancellationToken {
    let stop = CancellationToken::new();
    let (state, signal, cancel) = (state.clone(), signal.clone(), stop.clone());
    tokio::spawn(async move {
        signal.cancelled().await;
        let grace = Duration::from_millis(state.config.shutdown.grace_ms);
        state.draining.store(true, std::sync::atomic::Ordering::Relaxed);
        tracing::info!(grace_ms = grace.as_millis() as u64, "draining: /healthz answers 503 until the server stops accepting");
        tokio::select! {
            _ = tokio::time::sleep(grace) => {},
            _ = stop_signal() => tracing::info!("second signal: stopping now"),
        }
        tracing::info!("no longer accepting connections; finishing the requests in flight");
        cancel.cancel();
    });
    stop
}

async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let config = args.config;
    let traces = telemetry::init_with_traces(&config.log_format, &config.log_filter, &config.telemetry);
    insights::auth::provider::check_before_serving(&config)?;
    // Migrations and the workers' jobs run as long as they take; requests' statements are bounded.
    let unbounded = connect_workers(&config).await?;
    if !args.skip_migrations {
        apply_migrations(&unbounded).await?;
    }
    let pool = db::connect_for_requests(&config).await?;
    let workers_state = if args.no_worker {
        unbounded.close().await;
        None
    } else {
        Some(AppState::new(unbounded, config.clone(), insights_jobs::queue()))
    };
    let listen = config.listen;
    let public_url = config.public_url().to_owned();
    let state = AppState::new(pool, config, insights_jobs::queue());
    // Logs a warning when PDFs cannot be rendered; the server runs without them.
    state.pdf_renderer.check_at_startup().await;
    // Logs where uploads are kept, or a clear error when that store does not answer.
    state.uploads.check_at_startup().await;
    let shutdown = shutdown_on_signal();
    serve_metrics(&state, &shutdown).await?;

    let listener = tokio::net::TcpListener::bind(listen).await.with_context(|| format!("listen on {listen}"))?;
    tracing::info!(%listen, url = format!("{public_url}/insights"), version = insights::config::build_version(), "serving");
    let stop = drain_then_stop(&state, &shutdown);
    let app = insights::http::build_app(state.clone()).into_make_service_with_connect_info::<std::net::SocketAddr>();
    let serving = axum::serve(listener, app).with_graceful_shutdown(stop.clone().cancelled_owned()).into_future();
    // Requests still running past the shutdown timeout are abandoned: the process must end.
    let timeout = Duration::from_millis(state.config.shutdown.timeout_ms);
    let server = async move {
        tokio::select! {
            served = serving => served,
            _ = async { stop.cancelled().await; tokio::time::sleep(timeout).await } => {
                tracing::warn!(timeout_ms = timeout.as_millis() as u64, "requests still in flight at the shutdown timeout were abandoned");
                Ok(())
            }
        }
    };
    if let Some(workers_state) = workers_state {
        let workers = insights_jobs::run(workers_state, shutdown.clone());
        let server = async { server.await.context("serve") };
        let (served, worked) = tokio::join!(server, workers);
        served?;
        worked?;
    } else {
        server.await.context("serve")?;
    }
    tracing::info!("stopped");
    traces.shutdown();
    Ok(())
}

async fn worker(config: Config) -> anyhow::Result<()> {
    let traces = telemetry::init_with_traces(&config.log_format, &config.log_filter, &config.telemetry);
    let pool = connect_workers(&config).await?;
    let state = AppState::new(pool, config, insights_jobs::queue());
    state.uploads.check_at_startup().await;
    let shutdown = shutdown_on_signal();
    serve_metrics(&state, &shutdown).await?;
    let worked = insights_jobs::run(state, shutdown).await;
    traces.shutdown();
    worked
}

/// The metrics listener (`INSIGHTS_METRICS_LISTEN`), when configured, until `shutdown`.
async fn serve_metrics(state: &AppState, shutdown: &CancellationToken) -> anyhow::Result<()> {
    match state.config.telemetry.metrics_listen {
        Some(listen) => insights::metrics::serve(state.clone(), listen, shutdown.clone()).await,
        None => Ok(()),
    }
}

async fn migrate(config: Config) -> anyhow::Result<()> {
    telemetry::init("pretty", &config.log_filter);
    let pool = connect(&config).await?;
    apply_migrations(&pool).await?;
    println!("Migrations applied to {}", redact(&config.database_url));
    Ok(())
}

async fn token(args: TokenArgs) -> anyhow::Result<()> {
    let config = args.config;
    if !config.auth.uses_builtin_provider() {
        bail!("an external issuer is configured (INSIGHTS_AUTH_ISSUER): tokens come from that provider");
    }
    let mut scopes = args.scopes;
    if let Some(role) = args.role {
        scopes.push(role.scope().to_owned());
    }
    let staff = insights::auth::Role::from_scopes(&scopes).is_some_and(|r| r.is_staff());
    let internal = args.internal.unwrap_or(staff);
    let pool = connect(&config).await?;
    apply_migrations(&pool).await?;
    let name = args.name.unwrap_or_else(|| args.email.clone());
    let claims = provider::UserClaims::new(&args.email, &name, args.company.as_deref(), scopes.clone());
    let subject = provider::subject_for(&config, &args.email, internal);
    let state = AppState::new(pool, config, insights_jobs::queue());
    let token = provider::sign_access_token(&state, &subject, &scopes.join(" "), &claims, args.ttl).await?;
    println!("{token}");
    Ok(())
}

async fn archive_channel(args: ArchiveChannelArgs) -> anyhow::Result<()> {
    use insights::channels::service;
    let pool = connect(&args.config).await?;
    apply_migrations(&pool).await?;
    let outcome = async {
        let id = service::resolve(&pool, &args.channel).await?;
        let archived = service::archive_channel(&pool, &id, service::ArchivedBy::Operator).await?;
        Ok::<_, insights::error::Error>((id, archived))
    }
    .await;
    match outcome {
        Ok((id, archived)) => {
            println!(
                "Archived channel {} ({id}): {} articles archived, {} templates unlinked.",
                archived.name, archived.articles_archived, archived.templates_unlinked
            );
            Ok(())
        }
        Err(error) => {
            error.log_if_internal();
            anyhow::bail!("channel {:?} was not archived: {}", args.channel, error.message())
        }
    }
}

async fn import_subscribers(args: ImportSubscribersArgs) -> anyhow::Result<()> {
    use insights::subscriptions::import::{self, ImportRequest};
    let pool = connect(&args.config).await?;
    apply_migrations(&pool).await?;
    let request = ImportRequest {
        subscription_type: args.subscription_type.map(Into::into),
        notes: args.notes,
        account_number: args.account_number,
        billing_method: args.billing_method,
        trial_duration: args.trial_duration,
        policy_override_reason: args.policy_override_reason,
        expires: args.expires,
        overwrite: args.overwrite,
        dry_run: args.dry_run,
        configured_trial_days: args.config.constants.trial_channel_days,
        account_trial_days: args.config.constants.trial_days,
        ..ImportRequest::new(&args.channel, &args.file)
    };
    // Drawn on stderr only when it is a terminal (indicatif hides it otherwise); the summary below is
    // plain text on stdout either way.
    let bar = indicatif::ProgressBar::new(0).with_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} lines ({elapsed})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_message(format!("Importing {}", args.file.display()));
    let progress = |done: u64, total: u64| {
        bar.set_length(total);
        bar.set_position(done);
    };
    let jobs = insights_jobs::queue();
    let started = std::time::Instant::now();
    let outcome = import::import_subscribers(&pool, jobs.as_ref(), &request, &progress).await;
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let report = outcome.map_err(|error| anyhow::anyhow!("nothing was imported into {:?}: {error}", args.channel))?;
    let s = &report.summary;
    let verb = if report.dry_run { "Dry run, nothing was written" } else { "Imported" };
    println!(
        "{verb}: {} into {} ({}) as {}: {} lines, {} distinct addresses, in {seconds:.2} s ({:.0} lines/s).",
        args.file.display(),
        report.channel_name,
        report.channel_id,
        report.subscription_type.as_str(),
        s.lines,
        s.identified,
        s.lines as f64 / seconds.max(1e-9),
    );
    let mut counts = vec![
        ("added", s.added),
        ("already subscribed", s.already_subscribed),
        ("updated", s.updated),
        ("without an Insights account", s.no_account),
        ("unmatched", s.unmatched),
        ("refused lines", s.refused_lines),
    ];
    if s.refused > 0 {
        counts.push(("refused by the rules", s.refused));
    }
    for (label, count) in counts {
        println!("  {:<29}{count}", format!("{label}:"));
    }
    match &report.error_report {
        Some(path) => {
            let n = report.refused.len();
            println!("{n} {} added no subscriber: see {}", if n == 1 { "line" } else { "lines" }, path.display())
        }
        None => println!("Every line added a subscriber."),
    }
    Ok(())
}

async fn expire_subscriptions(config: Config) -> anyhow::Result<()> {
    let pool = connect(&config).await?;
    apply_migrations(&pool).await?;
    let jobs = insights_jobs::queue();
    let started = std::time::Instant::now();
    let report = insights::subscriptions::expiry::sweep(&pool, jobs.as_ref(), chrono::Utc::now())
        .await
        .map_err(|error| anyhow::anyhow!("the expiry sweep failed: {}", insights::subscriptions::import::operator_message(&error)))?;
    println!(
        "Expiry sweep: {} subscriptions ended, {} trial-ending reminders requested ({:.2} s).",
        report.ended,
        report.reminders,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

async fn seed_taxonomy(args: SeedArgs) -> anyhow::Result<()> {
    use insights::taxonomy::seed;
    let file = std::fs::File::open(&args.file).with_context(|| format!("open {}", args.file.display()))?;
    let rows = match seed::parse(std::io::BufReader::new(file)) {
        Ok(rows) => rows,
        Err(errors) => return Err(report_bad_rows(&args.file, &errors)),
    };
    let pool = connect(&args.config).await?;
    apply_migrations(&pool).await?;
    let bar = indicatif::ProgressBar::new(rows.len() as u64).with_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:40}] {pos}/{len} rows ({elapsed})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_message(format!("Seeding {}", args.file.display()));
    let summary = match seed::apply(&pool, rows, &|done| bar.set_position(done)).await {
        Ok(summary) => summary,
        Err(seed::SeedError::Rows(errors)) => {
            bar.abandon();
            return Err(report_bad_rows(&args.file, &errors));
        }
        Err(seed::SeedError::Other(error)) => {
            bar.abandon();
            return Err(error.context("nothing was written"));
        }
    };
    bar.finish();
    println!(
        "Topics: {} added, {} updated, {} unchanged. Tags: {} added, {} updated, {} unchanged.",
        summary.topics_added,
        summary.topics_updated,
        summary.topics_unchanged,
        summary.tags_added,
        summary.tags_updated,
        summary.tags_unchanged
    );
    Ok(())
}

async fn seed_demo(args: DemoArgs) -> anyhow::Result<()> {
    use insights::demo::{self, DemoOptions, DemoStatus};
    let config = args.config;
    let pool = connect(&config).await?;
    apply_migrations(&pool).await?;
    if demo::database_content(&pool).await?.is_empty() {
        println!("Empty database: loading demo content (insights-cli seed demo)…");
    }
    let state = AppState::new(pool, config, insights_jobs::queue());
    let spinner = indicatif::ProgressBar::new_spinner()
        .with_style(indicatif::ProgressStyle::with_template("{spinner} Demo content: {msg} ({elapsed})").expect("a valid template"));
    spinner.enable_steady_tick(Duration::from_millis(120));
    let progress = |step: &str| spinner.set_message(step.to_owned());
    let options = DemoOptions { force: args.force, if_empty: args.if_empty, progress: Some(&progress) };
    let report = demo::seed_demo(&state, options).await;
    spinner.finish_and_clear();
    let report = report?;
    let c = &report.counts;
    match report.status {
        DemoStatus::AlreadySeeded => println!("Demo content is already loaded ({}): nothing changed.", report.before),
        DemoStatus::SkippedHasContent => println!("The database has content ({}): demo content not loaded.", report.before),
        DemoStatus::Seeded => {
            let taxonomy = c.taxonomy.unwrap_or_default();
            println!("Demo content loaded in {:.1} s:", report.elapsed.as_secs_f64());
            println!(
                "  topics and tags: {} topics and {} tags added; {} root topics got images",
                taxonomy.topics_added, taxonomy.tags_added, c.topics_with_images
            );
            println!("  users: {} staff, {} readers ({} added)", c.staff, c.readers, c.users_added);
            println!(
                "  desks: {} added, {} kept; channels: {} added, {} kept",
                c.desks_added, c.desks_kept, c.channels_added, c.channels_kept
            );
            println!("  articles: {} published, {} drafts, {} archived; {} images", c.published, c.drafts, c.archived, c.images);
            println!("  readers' activity: {} subscriptions, {} topic follows, {} views", c.subscriptions, c.follows, c.view_events);
            println!("  client firms: {} (with subscriptions and seats)", c.firms);
            println!("Sign in as any ready user of the sign-in page (Sam Subscriber, for one) to see it.");
        }
    }
    Ok(())
}

fn report_bad_rows(file: &std::path::Path, errors: &[insights::taxonomy::seed::RowError]) -> anyhow::Error {
    for error in errors {
        eprintln!("{}:{}: {}", file.display(), error.line, error.message);
    }
    anyhow::anyhow!("{} bad row(s) in {}: nothing was written", errors.len(), file.display())
}

fn schema(args: SchemaArgs) -> anyhow::Result<()> {
    let sdl = insights::graphql::sdl();
    if args.output.as_os_str() == "-" {
        print!("{sdl}");
    } else {
        std::fs::write(&args.output, sdl).with_context(|| format!("write {}", args.output.display()))?;
        eprintln!("Wrote {}", args.output.display());
    }
    Ok(())
}

/// The connection string without its password, for messages.
fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}
