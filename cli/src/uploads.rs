//! `insights-cli uploads migrate`: copies the files of a local upload directory into the object
//! store of `INSIGHTS_UPLOAD_URL` (the rules are `insights::uploads::migrate`'s), with a progress
//! bar and a summary. Exits non-zero when any file failed.

use std::{path::PathBuf, sync::Arc, time::Instant};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use insights::{
    Config,
    uploads::{
        UploadStore,
        migrate::{self, Outcome},
    },
};

#[derive(Subcommand)]
pub enum UploadsCommand {
    /// Copy the files of the local upload directory (INSIGHTS_UPLOAD_DIR, or --from) into the object
    /// store of INSIGHTS_UPLOAD_URL, checking each copy; files already there with the same size are
    /// left, so it can be run again (e.g. once more just before switching the servers over).
    Migrate(MigrateArgs),
}

#[derive(Args)]
pub struct MigrateArgs {
    #[command(flatten)]
    config: Config,
    /// The directory to copy from [default: INSIGHTS_UPLOAD_DIR].
    #[arg(id = "migrate_from", long = "from", value_name = "DIR")]
    from: Option<PathBuf>,
}

pub async fn uploads(command: UploadsCommand) -> anyhow::Result<()> {
    match command {
        UploadsCommand::Migrate(args) => copy_to_bucket(args).await,
    }
}

async fn copy_to_bucket(args: MigrateArgs) -> anyhow::Result<()> {
    let uploads = &args.config.uploads;
    if uploads.url.is_none() {
        bail!("no object store is configured: set INSIGHTS_UPLOAD_URL (e.g. s3://bucket/prefix) to the store to copy the uploads into");
    }
    let from = args.from.clone().unwrap_or_else(|| uploads.dir.clone());
    let store = Arc::new(UploadStore::from_config(uploads));
    store.check().await.with_context(|| "nothing was copied".to_owned())?;
    let (names, skipped) = migrate::upload_files(&from)?;

    // Drawn on stderr only when it is a terminal; the summary is plain text on stdout either way.
    let bar = indicatif::ProgressBar::new(names.len() as u64).with_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} files ({elapsed})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_message(format!("Copying to {}", store.label()));
    let started = Instant::now();
    let report = migrate::migrate(&from, names, store.clone(), |name, outcome| {
        if let Outcome::Failed(reason) = outcome {
            bar.suspend(|| eprintln!("{name}: {reason}"));
        }
        bar.inc(1);
    })
    .await?;
    bar.finish_and_clear();

    println!("Uploads from {} to {} in {:.1} s:", from.display(), store.label(), started.elapsed().as_secs_f64());
    let failed = report.failed.len() as u64;
    for (label, count) in
        [("copied", report.copied), ("already there", report.already_there), ("skipped (not upload names)", skipped), ("failed", failed)]
    {
        println!("  {:<28}{count}", format!("{label}:"));
    }
    if failed > 0 {
        bail!("{failed} file(s) were not copied (listed above); run the command again to retry them");
    }
    Ok(())
}
