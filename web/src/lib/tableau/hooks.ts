//! React access to the Tableau charts: whether the user may use them, the chart list and the embed
//! token (lib/tableau/tableau.ts keeps it 5 minutes). A chart's preview image is fetched with
//! lib/useAuthenticatedImage.
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useEffect, useState } from 'react';
import { useConfig } from '../config';
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
