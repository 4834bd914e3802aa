//! An image this server serves only with the bearer token (a contributor's photo, a Tableau chart's
//! preview): an <img> cannot send the token, so the image is fetched as a blob and shown through
//! an object URL, revoked when the path changes or the component unmounts.
import { useEffect, useRef, useState } from 'react';
import { useAccessToken } from './auth';
import { authorizedFetch } from './authorizedFetch';
import { logger } from './logger';

export interface AuthenticatedImage {
  /** The object URL to put in `src`; null while it loads, without a path, or when it failed. */
  url: string | null;
  loading: boolean;
  /** Why it failed (an HttpError, or fetch's network error); null otherwise. */
  error: unknown;
}

interface Loaded {
  path: string;
  url: string | null;
  error: unknown;
}

/**
 * The image at `path` (nothing is fetched for null). A failure is logged as a warning that starts
 * with `label` ('Chart image failed to load: HTTP 404').
 */
export function useAuthenticatedImage(path: string | null, label = 'Image'): AuthenticatedImage {
  const token = useAccessToken();
  // A renewed token must not fetch the image again.
  const tokenRef = useRef(token);
  useEffect(() => {
    tokenRef.current = token;
  });
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    if (!path) return;
    let objectUrl: string | null = null;
    let cancelled = false;
    const load = async () => {
      const response = await authorizedFetch(path, { token: await tokenRef.current() });
      const blob = await response.blob();
      if (cancelled) return;
      objectUrl = URL.createObjectURL(blob);
      setLoaded({ path, url: objectUrl, error: null });
    };
    load().catch((error: unknown) => {
      logger.warn(`${label} failed to load: ${error instanceof Error ? error.message : String(error)}`, { path });
      if (!cancelled) setLoaded({ path, url: null, error });
    });
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      setLoaded(null);
    };
  }, [path, label]);

  // Only what was loaded for this path: never a previous path's image while the next one loads.
  const current = path && loaded?.path === path ? loaded : null;
  return { url: current?.url ?? null, loading: !!path && !current, error: current?.error ?? null };
}
