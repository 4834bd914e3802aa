//! Moving an installation's uploads into a bucket (`insights-cli uploads migrate`): the files of a
//! local upload directory are copied into an `UploadStore`. Only upload names are copied (anything
//! else is counted and left); a file already there with the same size is left as it is, so a
//! second run copies nothing; each copy is checked (size, then the SHA-256 of a re-read).

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use anyhow::Context;
use tokio::task::JoinSet;

use super::{ImageKind, UploadStore, is_upload_name};

/// Files copied at once: the time of a copy is mostly waiting for the store.
const PARALLEL_COPIES: usize = 8;

/// What happened to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Copied,
    AlreadyThere,
    Failed(String),
}

/// The counts of a migration, and the files that failed with why.
#[derive(Debug, Default)]
pub struct Report {
    pub copied: u64,
    pub already_there: u64,
    /// Entries that are not upload names (or not files): never copied.
    pub skipped: u64,
    pub failed: Vec<(String, String)>,
}

/// The upload names in `from`, sorted, and how many other entries it holds.
pub fn upload_files(from: &Path) -> anyhow::Result<(Vec<String>, u64)> {
    let read_error = || format!("read the upload directory {}", from.display());
    let mut names = Vec::new();
    let mut skipped = 0;
    for entry in std::fs::read_dir(from).with_context(read_error)? {
        let entry = entry.with_context(read_error)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_upload_name(&name) && entry.file_type().is_ok_and(|t| t.is_file()) {
            names.push(name);
        } else {
            skipped += 1;
        }
    }
    names.sort();
    Ok((names, skipped))
}

/// Copies `names` from the directory `from` into `store`, calling `progress` as each file is done.
/// One file failing does not stop the others: it is listed in the report.
pub async fn migrate(
    from: &Path,
    names: Vec<String>,
    store: Arc<UploadStore>,
    progress: impl Fn(&str, &Outcome),
) -> anyhow::Result<Report> {
    let mut report = Report::default();
    let mut running = JoinSet::new();
    let mut pending = names.into_iter();
    loop {
        while running.len() < PARALLEL_COPIES
            && let Some(name) = pending.next()
        {
            let (store, path): (_, PathBuf) = (store.clone(), from.join(&name));
            running.spawn(async move {
                let outcome = copy(&store, &name, &path).await.unwrap_or_else(|error| Outcome::Failed(format!("{error:#}")));
                (name, outcome)
            });
        }
        let Some(done) = running.join_next().await else { break };
        let (name, outcome) = done.context("a copy task")?;
        progress(&name, &outcome);
        match outcome {
            Outcome::Copied => report.copied += 1,
            Outcome::AlreadyThere => report.already_there += 1,
            Outcome::Failed(reason) => report.failed.push((name, reason)),
        }
    }
    report.failed.sort();
    Ok(report)
}

/// Copies one file unless the store has it with the same size, then checks the copy.
async fn copy(store: &UploadStore, name: &str, path: &Path) -> anyhow::Result<Outcome> {
    let bytes = tokio::fs::read(path).await.with_context(|| format!("read {}", path.display()))?;
    if store.head(name).await? == Some(bytes.len() as u64) {
        return Ok(Outcome::AlreadyThere);
    }
    let kind = name.rsplit('.').next().and_then(ImageKind::from_extension).context("not an image name")?;
    store.put(name, bytes.clone(), kind.content_type()).await?;
    store.verify(name, &bytes).await?;
    Ok(Outcome::Copied)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(label: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("insights-migrate-{label}-{}-{}", std::process::id(), crate::ids::new_id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[tokio::test]
    async fn one_failing_file_is_reported_and_the_others_are_copied() {
        let (from, to) = (scratch("from"), scratch("to"));
        let names: Vec<String> = (0..3).map(|_| format!("{}.png", crate::ids::new_id())).collect();
        for name in &names {
            std::fs::write(from.join(name), b"\x89PNG\r\n\x1a\n not really").unwrap();
        }
        std::fs::write(from.join("notes.txt"), b"left alone").unwrap();
        // A directory where the second file should go: the store cannot write it.
        std::fs::create_dir_all(to.join(&names[1]).join("in-the-way")).unwrap();
        let store = Arc::new(UploadStore::local(&to));

        let (listed, skipped) = upload_files(&from).unwrap();
        assert_eq!((listed.len(), skipped), (3, 1));
        let seen = std::sync::Mutex::new(Vec::new());
        let report = migrate(&from, listed, store.clone(), |name, _| seen.lock().unwrap().push(name.to_owned())).await.unwrap();

        assert_eq!((report.copied, report.already_there), (2, 0));
        assert_eq!(report.failed.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>(), [names[1].as_str()]);
        assert_eq!(seen.lock().unwrap().len(), 3, "progress is told of every file");
        assert_eq!(std::fs::read(to.join(&names[0])).unwrap(), std::fs::read(from.join(&names[0])).unwrap());

        // Run again: the copied files are there, the failing one still fails.
        let (listed, _) = upload_files(&from).unwrap();
        let again = migrate(&from, listed, store, |_, _| ()).await.unwrap();
        assert_eq!((again.copied, again.already_there, again.failed.len()), (0, 2, 1));
        for dir in [from, to] {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }
}
