//! `insights-cli firms`: client firms imported from a CSV file (`import`, through
//! `insights::firms::import`) and listed with their counts (`list`).

use std::path::PathBuf;

use clap::{Args, Subcommand};
use insights::{Config, firms};

use crate::table::{Table, count};

#[derive(Subcommand)]
pub enum FirmsCommand {
    /// Add firms from a CSV file: columns name, domains (separated by ';', ',' or spaces), account
    /// number; a header row is detected and may name the columns in any order. A firm that exists
    /// (same name, ignoring case) gains the file's domains and, when it has none, its account
    /// number, so a second run of the same file changes nothing. Rows the rules refuse are listed
    /// with their reason in FILE.errors.csv; readers at a new domain join its firm. All or nothing.
    Import(ImportArgs),
    /// Every firm by name, with its domains, readers, seats used / held and live subscriptions.
    List(ListArgs),
}

#[derive(Args)]
pub struct ImportArgs {
    #[command(flatten)]
    config: Config,
    /// The CSV file.
    file: PathBuf,
    /// Check the file and write the error report, but change nothing in the database.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Args)]
pub struct ListArgs {
    #[command(flatten)]
    config: Config,
    /// Only firms whose name or a domain contains this.
    #[arg(long)]
    search: Option<String>,
}

pub async fn firms(command: FirmsCommand) -> anyhow::Result<()> {
    match command {
        FirmsCommand::Import(args) => import(args).await,
        FirmsCommand::List(args) => list(args).await,
    }
}

async fn import(args: ImportArgs) -> anyhow::Result<()> {
    let pool = crate::connect(&args.config).await?;
    crate::apply_migrations(&pool).await?;
    let request = firms::import::FirmsImport { dry_run: args.dry_run, ..firms::import::FirmsImport::new(&args.file) };
    // Drawn on stderr only on a terminal (indicatif hides it otherwise); the summary is on stdout.
    let bar = indicatif::ProgressBar::new(0).with_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} rows ({elapsed})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_message(format!("Importing {}", args.file.display()));
    let progress = |done: u64, total: u64| {
        bar.set_length(total);
        bar.set_position(done);
    };
    let started = std::time::Instant::now();
    let outcome = firms::import::import_firms(&pool, &request, &progress).await;
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let report = outcome.map_err(|error| anyhow::anyhow!("no firm was imported: {error}"))?;
    let s = &report.summary;
    let verb = if report.dry_run { "Dry run, nothing was written" } else { "Imported" };
    println!("{verb}: {}, {} in {seconds:.2} s ({:.0} rows/s).", args.file.display(), count(s.rows as u64, "row", "rows"), s.rows as f64 / seconds.max(1e-9));
    for (label, n) in [
        ("firms added", s.added as u64),
        ("firms updated", s.updated as u64),
        ("unchanged", s.unchanged as u64),
        ("domains added", s.domains_added as u64),
        ("readers who joined", s.readers_joined),
        ("refused rows", s.refused as u64),
    ] {
        println!("  {:<20}{n}", format!("{label}:"));
    }
    match &report.error_report {
        Some(path) => println!("{} refused: see {}", count(report.refused.len() as u64, "row was", "rows were"), path.display()),
        None => println!("Every row was imported."),
    }
    Ok(())
}

async fn list(args: ListArgs) -> anyhow::Result<()> {
    let pool = crate::connect(&args.config).await?;
    crate::apply_migrations(&pool).await?;
    let pattern = insights::graphql::contains_pattern(args.search.as_deref());
    let mut table = Table::new(&["Name", "Domains", "Readers", "Seats used / held", "Subscriptions", "State", "Id"]).right(&[2, 4]);
    // A page at a time, so a long list never sits whole in memory on the server side.
    const PAGE: i64 = 500;
    let mut offset = 0;
    loop {
        let rows = firms::queries::list(&pool, None, pattern.as_deref(), None, PAGE, offset).await?;
        let ids: Vec<String> = rows.iter().map(|r| r.firm_id.clone()).collect();
        let domains = firms::queries::domains_of(&pool, &ids).await?;
        for row in &rows {
            let of_firm: Vec<&str> = domains.iter().filter(|(id, _)| *id == row.firm_id).map(|(_, d)| d.as_str()).collect();
            let held = row.seats_held.map_or_else(|| "unlimited".to_owned(), |n| n.to_string());
            table.row(vec![
                row.name.clone(),
                of_firm.join(" "),
                row.readers.to_string(),
                format!("{} / {held}", row.seats_used),
                row.subscriptions.to_string(),
                row.state.clone(),
                row.firm_id.clone(),
            ]);
        }
        if (rows.len() as i64) < PAGE {
            break;
        }
        offset += PAGE;
    }
    table.print();
    Ok(())
}
