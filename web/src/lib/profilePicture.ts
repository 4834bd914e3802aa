//! A contributor's photo (GET /contributor-profile-picture/{id}): the endpoint needs the bearer
//! token, so the image is fetched as a blob and shown through an object URL. Used by the staff
//! user form and the reader pages.
import { useEffect, useRef, useState } from 'react';
import { useAccessToken } from './auth';
import { logger } from './logger';
import { correlationHeaders } from './requestIds';

export const PROFILE_PICTURE_ENDPOINT = '/contributor-profile-picture';

export function profilePictureUrl(userId: string): string {
  return `${PROFILE_PICTURE_ENDPOINT}/${encodeURIComponent(userId)}`;
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
