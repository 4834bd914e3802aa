//! `insights-cli uploads migrate`: copies the files of a local upload directory into the object
//! store of `INSIGHTS_UPLOAD_URL`, so that an installation can move its uploads to a bucket.
//! Only upload names are copied (anything else is counted and left); a file already there with
//! the same size is left as it is, so a second run copies nothing; each copy is checked (size,
//! then the SHA-256 of a re-read). Exits non-zero when any file failed.

use std::{path::PathBuf, sync::Arc, time::Instant};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use insights::{
    Config,
    uploads::{ImageKind, UploadStore, is_upload_name},
};
use tokio::task::JoinSet;

/// Files copied at once: the time of a copy is mostly waiting for the store.
const PARALLEL_COPIES: usize = 8;

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
        UploadsCommand::Migrate(args) => migrate(args).await,
    }
}

/// What happened to one file.
enum Outcome {
    Copied,
    AlreadyThere,
    Failed(String),
}

async fn migrate(args: MigrateArgs) -> anyhow::Result<()> {
    let uploads = &args.config.uploads;
    if uploads.url.is_none() {
        bail!("no object store is configured: set INSIGHTS_UPLOAD_URL (e.g. s3://bucket/prefix) to the store to copy the uploads into");
    }
    let from = args.from.clone().unwrap_or_else(|| uploads.dir.clone());
    let store = Arc::new(UploadStore::from_config(uploads));
    store.check().await.with_context(|| "nothing was copied".to_owned())?;

    let mut names = Vec::new();
    let mut skipped = 0u64;
    let entries = std::fs::read_dir(&from).with_context(|| format!("read the upload directory {}", from.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("read the upload directory {}", from.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_upload_name(&name) && entry.file_type().is_ok_and(|t| t.is_file()) {
            names.push(name);
        } else {
            skipped += 1;
        }
    }
    names.sort();

    // Drawn on stderr only when it is a terminal; the summary is plain text on stdout either way.
    let bar = indicatif::ProgressBar::new(names.len() as u64).with_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} files ({elapsed})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_message(format!("Copying to {}", store.label()));
    let started = Instant::now();
    let (mut copied, mut already, mut failed) = (0u64, 0u64, Vec::new());
    let mut running = JoinSet::new();
    let mut pending = names.into_iter();
    loop {
        while running.len() < PARALLEL_COPIES
            && let Some(name) = pending.next()
        {
            let (store, path) = (store.clone(), from.join(&name));
            running.spawn(async move {
                let outcome = copy(&store, &name, &path).await.unwrap_or_else(|error| Outcome::Failed(format!("{error:#}")));
                (name, outcome)
            });
        }
        let Some(done) = running.join_next().await else { break };
        let (name, outcome) = done.context("a copy task")?;
        match outcome {
            Outcome::Copied => copied += 1,
            Outcome::AlreadyThere => already += 1,
            Outcome::Failed(reason) => {
                bar.suspend(|| eprintln!("{name}: {reason}"));
                failed.push(name);
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();

    println!("Uploads from {} to {} in {:.1} s:", from.display(), store.label(), started.elapsed().as_secs_f64());
    for (label, count) in
        [("copied", copied), ("already there", already), ("skipped (not upload names)", skipped), ("failed", failed.len() as u64)]
    {
        println!("  {:<28}{count}", format!("{label}:"));
    }
    if !failed.is_empty() {
        bail!("{} file(s) were not copied (listed above); run the command again to retry them", failed.len());
    }
    Ok(())
}

/// Copies one file unless the store has it with the same size, then checks the copy.
async fn copy(store: &UploadStore, name: &str, path: &std::path::Path) -> anyhow::Result<Outcome> {
    let bytes = tokio::fs::read(path).await.with_context(|| format!("read {}", path.display()))?;
    if store.head(name).await? == Some(bytes.len() as u64) {
        return Ok(Outcome::AlreadyThere);
    }
    let kind = name.rsplit('.').next().and_then(ImageKind::from_extension).context("not an image name")?;
    store.put(name, bytes.clone(), kind.content_type()).await?;
    store.verify(name, &bytes).await?;
    Ok(Outcome::Copied)
}
