//! The promotion page's social sharing image is cropped to 2:1 in the browser before it is uploaded
//! (spec 2 'Promotion pages'): the largest centred 2:1 area of the chosen image, drawn on a canvas
//! (scaled down when wider than the largest size a sharing card uses) and encoded again.

/** Width : height of the social sharing image. */
export const SOCIAL_IMAGE_RATIO = 2;
/** Wider crops are scaled down to this width: no sharing card shows more, and the upload stays small. */
export const SOCIAL_IMAGE_MAX_WIDTH = 2400;

export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The largest area of `ratio` (width / height) centred in a width × height image, in whole pixels. */
export function centreCrop(width: number, height: number, ratio: number = SOCIAL_IMAGE_RATIO): CropArea {
  if (width / height > ratio) {
    const cropWidth = Math.round(height * ratio);
    return { x: Math.floor((width - cropWidth) / 2), y: 0, width: cropWidth, height };
  }
  const cropHeight = Math.round(width / ratio);
  return { x: 0, y: Math.floor((height - cropHeight) / 2), width, height: cropHeight };
}

/** The size the crop is drawn at: as cropped, or scaled down to `maxWidth` keeping its ratio. */
export function outputSize(area: CropArea, maxWidth: number = SOCIAL_IMAGE_MAX_WIDTH): { width: number; height: number } {
  if (area.width <= maxWidth) return { width: area.width, height: area.height };
  return { width: maxWidth, height: Math.round((area.height * maxWidth) / area.width) };
}

function loadImage(file: File): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(file);
  return new Promise<HTMLImageElement>((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('The image could not be read'));
    image.src = url;
  }).finally(() => URL.revokeObjectURL(url));
}

/**
 * The image cropped to `ratio`, as a new file: JPEG stays JPEG, PNG and GIF become PNG (a canvas
 * cannot write GIF; a sharing image is still anyway).
 */
export async function cropToRatio(file: File, ratio: number = SOCIAL_IMAGE_RATIO): Promise<File> {
  const image = await loadImage(file);
  const area = centreCrop(image.naturalWidth, image.naturalHeight, ratio);
  const size = outputSize(area);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('The image could not be cropped in this browser');
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, size.width, size.height);
  const type = file.type === 'image/jpeg' ? 'image/jpeg' : 'image/png';
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, 0.9));
  if (!blob) throw new Error('The image could not be cropped in this browser');
  const base = file.name.replace(/\.[^.]*$/, '') || 'image';
  return new File([blob], `${base}-2x1.${type === 'image/jpeg' ? 'jpg' : 'png'}`, { type });
}
