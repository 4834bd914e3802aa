//! The demo's images: small PNGs drawn by `seeds/demo/make_images.py`, embedded in the binary and
//! put in the upload store under generated names, as `POST /upload` stores a file.

use std::collections::HashMap;

use super::cast::Image;
use crate::uploads::{ImageKind, UploadStore, new_upload_name};

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

/// Puts every demo image in the upload store under a new upload name.
pub async fn store(uploads: &UploadStore) -> anyhow::Result<Stored> {
    let mut names = HashMap::new();
    for (image, bytes) in FILES {
        // The same check an upload gets: the content is a PNG.
        anyhow::ensure!(ImageKind::sniff(bytes) == Some(ImageKind::Png), "the demo image {image:?} is not a PNG");
        let name = new_upload_name(ImageKind::Png);
        uploads.put(&name, *bytes, ImageKind::Png.content_type()).await?;
        names.insert(*image, name);
    }
    Ok(Stored(names))
}
