//! The demo's images: small PNGs drawn by `seeds/demo/make_images.py`, embedded in the binary and
//! stored in the upload directory under generated names, as `POST /upload` stores a file.

use std::{collections::HashMap, path::Path};

use anyhow::Context;

use super::cast::Image;
use crate::{ids, uploads::ImageKind};

const FILES: &[(Image, &[u8])] = &[
    (Image::ChartLine, include_bytes!("../../seeds/demo/chart-line.png")),
    (Image::ChartBars, include_bytes!("../../seeds/demo/chart-bars.png")),
    (Image::CoverWaves, include_bytes!("../../seeds/demo/cover-waves.png")),
    (Image::CoverLines, include_bytes!("../../seeds/demo/cover-lines.png")),
    (Image::BadgeBlue, include_bytes!("../../seeds/demo/badge-blue.png")),
    (Image::BadgeAmber, include_bytes!("../../seeds/demo/badge-amber.png")),
];

/// The upload names the images were stored under.
pub struct Stored(HashMap<Image, String>);

impl Stored {
    pub fn name(&self, image: Image) -> &str {
        &self.0[&image]
    }

    pub fn count(&self) -> usize {
        self.0.len()
    }
}

/// Writes every demo image into `dir` (created if missing) under a new upload name.
pub async fn store(dir: &Path) -> anyhow::Result<Stored> {
    tokio::fs::create_dir_all(dir).await.with_context(|| format!("create the upload directory {}", dir.display()))?;
    let mut names = HashMap::new();
    for (image, bytes) in FILES {
        // The same check an upload gets: the content is a PNG.
        anyhow::ensure!(ImageKind::sniff(bytes) == Some(ImageKind::Png), "the demo image {image:?} is not a PNG");
        let name = format!("{}.png", ids::new_id());
        tokio::fs::write(dir.join(&name), bytes).await.with_context(|| format!("write {}", dir.join(&name).display()))?;
        names.insert(*image, name);
    }
    Ok(Stored(names))
}
