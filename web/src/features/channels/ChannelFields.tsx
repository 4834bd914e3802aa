//! The channel image field: the shared image upload, restricted to png, jpg or jpeg of at most 2 MB
//! (spec 3 §5, §9), keeping the stored file name, as topics do (the server checks type and size again).
import { ImageUploadField, type FieldBinding } from '../../components/admin';
import { uploadedImageUrl, useImageUpload } from '../../lib/upload';
import { MESSAGES } from './channelText';

export const CHANNEL_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const CHANNEL_IMAGE_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';

/** Checked before the upload, so a wrong file never leaves the browser. */
export function checkChannelImage(file: File): string | null {
  const typeOk = file.type === 'image/png' || file.type === 'image/jpeg';
  const nameOk = /\.(png|jpe?g)$/i.test(file.name);
  if (!(typeOk || (!file.type && nameOk))) return MESSAGES.fileFormat;
  if (file.size > CHANNEL_IMAGE_MAX_BYTES) return MESSAGES.fileSize;
  return null;
}

export interface ChannelImageFieldProps extends FieldBinding<string | null> {
  label: string;
  disabled?: boolean;
}

export function ChannelImageField(props: ChannelImageFieldProps) {
  const upload = useImageUpload();
  return (
    <ImageUploadField
      {...props}
      upload={upload}
      previewUrl={uploadedImageUrl}
      accept={CHANNEL_IMAGE_ACCEPT}
      checkFile={checkChannelImage}
    />
  );
}
