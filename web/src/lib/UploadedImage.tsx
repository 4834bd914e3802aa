//! An uploaded image on a staff screen (the editor, the image fields' previews). The server gives
//! a file that is not public (just uploaded, or an article's) only with the bearer token, which an
//! <img> cannot send, so it is fetched through lib/useAuthenticatedImage.
import { useAuthenticatedImage } from './useAuthenticatedImage';

export interface UploadedImageProps {
  /** `/uploads/<name>`. */
  path: string;
  alt: string;
  className?: string;
}

/** The image once loaded; until then (or when it fails) an empty frame with the image's name. */
export function UploadedImage({ path, alt, className }: UploadedImageProps) {
  const { url } = useAuthenticatedImage(path, 'Uploaded image');
  if (!url) return <span className={className} role="img" aria-label={alt} aria-busy="true" />;
  return <img src={url} alt={alt} className={className} />;
}
