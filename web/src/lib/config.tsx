//! The client configuration: loaded once, anonymously, from the `config` GraphQL query before
//! anything else starts, so nothing is baked into the bundle at build time (DESIGN §4).
import { gql } from '@apollo/client';
import { print } from 'graphql';
import { createContext, useContext, type ReactNode } from 'react';
import { ClientConfigDocument, type ClientConfigQuery } from './__generated__/config.generated';
import { correlationHeaders } from './requestIds';

export type ClientConfig = ClientConfigQuery['config'];

export const GRAPHQL_ENDPOINT = '/graphql';

/** One anonymous POST /graphql (no token: the sign-in settings come from this answer). */
export async function fetchClientConfig(fetchImpl: typeof fetch = fetch): Promise<ClientConfig> {
  const response = await fetchImpl(GRAPHQL_ENDPOINT, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...correlationHeaders() },
    body: JSON.stringify({ operationName: 'ClientConfig', query: print(ClientConfigDocument) }),
  });
  let body: { data?: ClientConfigQuery | null; errors?: { message: string }[] };
  try {
    body = await response.json();
  } catch {
    throw new TypeError('Failed to fetch');
  }
  if (!body.data?.config) throw new Error(body.errors?.[0]?.message ?? 'Failed to fetch');
  return body.data.config;
}

const ConfigContext = createContext<ClientConfig | null>(null);

export function ConfigProvider({ config, children }: { config: ClientConfig; children: ReactNode }) {
  return <ConfigContext.Provider value={config}>{children}</ConfigContext.Provider>;
}

export function useConfig(): ClientConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig outside ConfigProvider');
  return config;
}

export const CLIENT_CONFIG_QUERY = gql`
  query ClientConfig {
    config {
      version
      auth {
        authority
        clientId
        scope
        audience
        builtInProvider
      }
      features {
        premiumChannels
        premiumFeatures
        cardPayments
        intelligence
      }
      constants {
        trialLengthDays
        trialMinDays
        trialMaxDays
        defaultTrialChannelDays
        expiryBannerDays
        autosaveIntervalMs
        busyIndicatorDelayMs
        idleTimeoutMs
        versionPollMs
        logBatchSize
        logBatchMax
        logBatchTimeoutMs
        searchDebounceMs
        pageSizes
        defaultPageSize
        treePageSize
      }
      supportEmail
      landingUrl
      profileLandingUrl
      stripe {
        publishableKey
        jsUrl
      }
      tableau {
        serverUrl
        site
        embeddingScriptUrl
      }
    }
  }
`;
