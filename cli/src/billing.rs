//! `insights-cli billing-accounts`: clearing accounts (spec 3 §3 Billing account) imported from a
//! CSV file (`import`) and listed for a user (`list`), through `insights::billing::accounts`.

use std::{collections::BTreeSet, path::PathBuf, time::Duration};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use insights::{
    Config,
    billing::accounts::{self, ImportFile},
};

use crate::table::{Table, count};

/// Files from this size on show a progress bar while they are read (on a terminal only).
const LARGE_FILE_BYTES: u64 = 1 << 20;

#[derive(Subcommand)]
pub enum BillingAccountsCommand {
    /// Give users the clearing accounts of a CSV file: columns email, account number, name (the
    /// name is optional; a header row is detected and may name the columns in any order). Users
    /// are found by email, ignoring case; the same user and number again renames the account. All
    /// or nothing, and a second run of the same file changes nothing. Prints what was added and
    /// updated, the rows whose email is no Insights user's, and the refused rows with the reason.
    Import(ImportArgs),
    /// The clearing accounts of the user with this email.
    List(ListArgs),
}

#[derive(Args)]
pub struct ImportArgs {
    #[command(flatten)]
    config: Config,
    /// The CSV file (UTF-8; a byte order mark, CRLF line ends, quoted values and blank lines are fine).
    file: PathBuf,
    /// Read the file and report what would change, but write nothing.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Args)]
pub struct ListArgs {
    #[command(flatten)]
    config: Config,
    /// The user's email (case does not matter).
    #[arg(long)]
    email: String,
}

pub async fn billing_accounts(command: BillingAccountsCommand) -> anyhow::Result<()> {
    match command {
        BillingAccountsCommand::Import(args) => import(args).await,
        BillingAccountsCommand::List(args) => list(args).await,
    }
}

async fn import(args: ImportArgs) -> anyhow::Result<()> {
    // The file first: an unreadable one is refused before the database is touched.
    let file = read(&args.file)?;
    let rows = file.rows();
    let pool = crate::connect(&args.config).await?;
    crate::apply_migrations(&pool).await?;
    let spinner = indicatif::ProgressBar::new_spinner()
        .with_style(indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("a valid template"));
    spinner.set_message(format!("Writing {}", count(rows.len() as u64, "row", "rows")));
    spinner.enable_steady_tick(Duration::from_millis(120));
    let started = std::time::Instant::now();
    let outcome = async {
        let mut tx = pool.begin().await?;
        let imported = accounts::import_in(&mut tx, &rows).await?;
        if args.dry_run {
            tx.rollback().await?;
        } else {
            tx.commit().await?;
        }
        Ok::<_, insights::error::Error>(imported)
    }
    .await;
    spinner.finish_and_clear();
    let imported = outcome.map_err(|error| {
        error.log_if_internal();
        anyhow::anyhow!("nothing was imported from {}: {}", args.file.display(), error.message())
    })?;

    let verb = if args.dry_run { "Dry run, nothing was written" } else { "Imported" };
    let refused = file.refused().count() as u64;
    let unknown: BTreeSet<&str> = imported.unknown_users.iter().map(String::as_str).collect();
    let unknown_lines: Vec<_> =
        file.lines.iter().filter(|line| line.refused.is_none() && unknown.contains(line.row.email.to_lowercase().as_str())).collect();
    println!(
        "{verb}: {}: {}{}, in {:.2} s.",
        args.file.display(),
        count(file.lines.len() as u64, "row", "rows"),
        if file.header { " after a header" } else { "" },
        started.elapsed().as_secs_f64()
    );
    let counts = [
        ("accounts added", imported.added),
        ("accounts updated", imported.updated),
        ("rows for unknown users", unknown_lines.len() as u64),
        ("rows refused", refused),
    ];
    for (label, n) in counts {
        println!("  {:<24}{n}", format!("{label}:"));
    }
    if !unknown_lines.is_empty() {
        println!("Rows whose email is no Insights user's (nothing imported for them):");
        let mut table = Table::new(&["Line", "Email", "Account number"]).right(&[0]);
        for line in &unknown_lines {
            table.row(vec![line.line.to_string(), line.row.email.clone(), line.row.account_number.clone()]);
        }
        table.print();
    }
    if refused > 0 {
        println!("Refused rows:");
        let mut table = Table::new(&["Line", "Email", "Account number", "Reason"]).right(&[0]);
        for line in file.refused() {
            let number: String = line.row.account_number.chars().take(24).collect();
            let number = if number.len() < line.row.account_number.len() { format!("{number}…") } else { number };
            table.row(vec![line.line.to_string(), line.row.email.clone(), number, line.refused.clone().unwrap_or_default()]);
        }
        table.print();
    }
    Ok(())
}

/// Reads and checks the file, with a progress bar for a large one (drawn on stderr when it is a
/// terminal; indicatif hides it otherwise).
fn read(path: &std::path::Path) -> anyhow::Result<ImportFile> {
    let unreadable = |error: &dyn std::fmt::Display| anyhow::anyhow!("cannot read {}: {error}", path.display());
    let file = std::fs::File::open(path).map_err(|e| unreadable(&e))?;
    let size = file.metadata().map_err(|e| unreadable(&e))?.len();
    let bar = if size >= LARGE_FILE_BYTES {
        indicatif::ProgressBar::new(size).with_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {bytes}/{total_bytes} ({elapsed})")
                .expect("a valid template")
                .progress_chars("=> "),
        )
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_message(format!("Reading {}", path.display()));
    let read = accounts::read_import(bar.wrap_read(file));
    bar.finish_and_clear();
    read.map_err(|error| match error.kind() {
        csv::ErrorKind::Io(io) => unreadable(io),
        _ => unreadable(&error),
    })
}

async fn list(args: ListArgs) -> anyhow::Result<()> {
    let pool = crate::connect(&args.config).await?;
    crate::apply_migrations(&pool).await?;
    let users = accounts::of_email(&pool, &args.email).await.context("read the billing accounts")?;
    if users.is_empty() {
        bail!("no Insights user has the email {:?}", args.email.trim());
    }
    for (user, accounts) in users {
        let who = format!("{} <{}> (user {})", user.name, user.email, user.user_id);
        if accounts.is_empty() {
            println!("{who} has no billing account.");
            continue;
        }
        println!("Billing accounts of {who}:");
        let mut table = Table::new(&["Account number", "Name"]);
        for account in accounts {
            table.row(vec![account.account_number, account.name.unwrap_or_default()]);
        }
        table.print();
    }
    Ok(())
}
