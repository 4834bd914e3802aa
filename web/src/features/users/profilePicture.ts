//! The contributor photo (spec 2 §7 "REST"): uploaded with POST /upload (png, jpg or jpeg; the
//! user keeps the returned link, contract `UserInput.profilePicture`) and read back with
//! GET /contributor-profile-picture/{id}, which needs the bearer token, so the image is fetched
//! as a blob and shown through an object URL.
import { useCallback } from 'react';
import { useAccessToken } from '../../lib/auth';
import { uploadImage } from '../../lib/upload';

// Read back with lib/profilePicture (shared with the reader pages).
export { useProfilePicture } from '../../lib/profilePicture';

export const PHOTO_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';
export const PHOTO_TYPE_MESSAGE = 'Choose a png, jpg or jpeg image';

/** A message refusing anything but a png, jpg or jpeg file, or null. */
export function checkPhoto(file: File): string | null {
  const ok = ['image/png', 'image/jpeg'].includes(file.type) || /\.(png|jpe?g)$/i.test(file.name);
  return ok ? null : PHOTO_TYPE_MESSAGE;
}

/** Uploads a photo; resolves to the link to send as `profilePicture`. */
export function usePhotoUpload(): (file: File) => Promise<string> {
  const token = useAccessToken();
  return useCallback(async (file: File) => (await uploadImage(file, await token())).link, [token]);
}
