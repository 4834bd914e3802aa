//! React access to the Tableau charts: whether the user may use them, the chart list, the embed
//! token (lib/tableau/tableau.ts keeps it 5 minutes) and a chart's preview image.
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState } from 'react';
import { useAccessToken } from '../auth';
import { useConfig } from '../config';
import { logger } from '../logger';
import { correlationHeaders } from '../requestIds';
import { TableauChartsDocument } from './__generated__/tableau.generated';
import { tableauToken, type TableauSettings } from './tableau';

/** Tableau's settings when the server has Tableau and the user has tableauAccess; else null (the features are hidden). */
export function useTableauSettings(tableauAccess: boolean): TableauSettings | null {
  const { tableau } = useConfig();
  return tableauAccess && tableau ? tableau : null;
}

/** The charts of the configured project; not asked for when `skip`. */
export function useTableauCharts(skip = false) {
  return useQuery(TableauChartsDocument, { skip });
}

export type TokenState = { token: string; error: null } | { token: null; error: unknown } | { token: null; error: null };

/** The embed token (kept 5 minutes for every chart of the session); nothing is asked for when not `enabled`. */
export function useTableauToken(enabled: boolean): TokenState {
  const client = useApolloClient();
  const [state, setState] = useState<TokenState>({ token: null, error: null });
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    tableauToken(client).then(
      (token) => !cancelled && setState({ token, error: null }),
      (error: unknown) => !cancelled && setState({ token: null, error }),
    );
    return () => {
      cancelled = true;
    };
  }, [client, enabled]);
  return state;
}

/**
 * An image served by this server with the bearer token (a chart's preview, `/tableau/views/{id}/image`)
 * as an object URL: null while it loads, when `path` is null, or when it fails.
 */
export function useAuthorizedImage(path: string | null): string | null {
  const token = useAccessToken();
  // A renewed token must not fetch the image again.
  const tokenRef = useRef(token);
  useEffect(() => {
    tokenRef.current = token;
  });
  const [url, setUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!path) return;
    let objectUrl: string | null = null;
    let cancelled = false;
    const load = async () => {
      const accessToken = await tokenRef.current();
      const response = await fetch(path, {
        headers: { ...correlationHeaders(), ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const blob = await response.blob();
      if (cancelled) return;
      objectUrl = URL.createObjectURL(blob);
      setUrl(objectUrl);
    };
    load().catch((error: unknown) => {
      logger.warn(`Chart image failed to load: ${error instanceof Error ? error.message : String(error)}`, { path });
    });
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      setUrl(null);
    };
  }, [path]);

  return url;
}
