//! The contributor photo (spec 2 §7 "REST"): uploaded with POST /upload (png, jpg or jpeg; the
//! user keeps the returned link, contract `UserInput.profilePicture`) and read back with
//! GET /contributor-profile-picture/{id}, which needs the bearer token, so the image is fetched
//! as a blob and shown through an object URL.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAccessToken } from '../../lib/auth';
import { logger } from '../../lib/logger';
import { correlationHeaders } from '../../lib/requestIds';
import { uploadImage } from '../../lib/upload';

export const PROFILE_PICTURE_ENDPOINT = '/contributor-profile-picture';
export const PHOTO_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';
export const PHOTO_TYPE_MESSAGE = 'Choose a png, jpg or jpeg image';

export function profilePictureUrl(userId: string): string {
  return `${PROFILE_PICTURE_ENDPOINT}/${encodeURIComponent(userId)}`;
}

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

/** The user's stored photo as an object URL: null while it loads, when `enabled` is false, or when it fails. */
export function useProfilePicture(userId: string, enabled: boolean): string | null {
  const token = useAccessToken();
  // A renewed token must not fetch the photo again.
  const tokenRef = useRef(token);
  useEffect(() => {
    tokenRef.current = token;
  });
  const [url, setUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!enabled) return;
    let objectUrl: string | null = null;
    let cancelled = false;
    const load = async () => {
      const accessToken = await tokenRef.current();
      const response = await fetch(profilePictureUrl(userId), {
        headers: { ...correlationHeaders(), ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const blob = await response.blob();
      if (cancelled) return;
      objectUrl = URL.createObjectURL(blob);
      setUrl(objectUrl);
    };
    load().catch((error: unknown) => {
      logger.warn(`Contributor photo failed to load: ${error instanceof Error ? error.message : String(error)}`, { userId });
    });
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      setUrl(null);
    };
  }, [userId, enabled]);

  return url;
}
