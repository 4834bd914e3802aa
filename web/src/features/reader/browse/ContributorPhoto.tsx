//! A contributor's photo (spec 3 §7 REST: GET /contributor-profile-picture/{id} with the bearer
//! token), fetched as a blob and shown through an object URL; their initials while it loads, when
//! they have none, or when it fails. The same approach as the staff user form's photo
//! (features/users/profilePicture.ts), which a reader page may not import.
import { useEffect, useRef, useState } from 'react';
import { useAccessToken } from '../../../lib/auth';
import { logger } from '../../../lib/logger';
import { correlationHeaders } from '../../../lib/requestIds';

export const PROFILE_PICTURE_ENDPOINT = '/contributor-profile-picture';

/** The photo as an object URL: null while it loads, when `enabled` is false, or when it fails. */
export function useContributorPhoto(contributorId: string, enabled: boolean): string | null {
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
      const response = await fetch(`${PROFILE_PICTURE_ENDPOINT}/${encodeURIComponent(contributorId)}`, {
        headers: { ...correlationHeaders(), ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const blob = await response.blob();
      if (cancelled) return;
      objectUrl = URL.createObjectURL(blob);
      setUrl(objectUrl);
    };
    load().catch((error: unknown) => {
      logger.warn(`Contributor photo failed to load: ${error instanceof Error ? error.message : String(error)}`, { contributorId });
    });
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      setUrl(null);
    };
  }, [contributorId, enabled]);

  return url;
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

export interface ContributorPhotoProps {
  contributor: { _id: string; name: string; hasProfilePicture: boolean };
  /** Width and height in px. */
  size?: number;
}

export function ContributorPhoto({ contributor, size = 48 }: ContributorPhotoProps) {
  const url = useContributorPhoto(contributor._id, contributor.hasProfilePicture);
  const style = { width: size, height: size };
  if (url) return <img className="insights-contributor-photo" src={url} alt={`Photo of ${contributor.name}`} style={style} />;
  return (
    <span className="insights-contributor-photo insights-contributor-initials" aria-hidden style={{ ...style, fontSize: size / 2.6 }}>
      {initials(contributor.name)}
    </span>
  );
}
