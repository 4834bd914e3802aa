//! Start-up: load the client config anonymously, then build every service from it
//! (logger settings, OIDC client, Apollo client, trial state, router). Runs once per page load.
import type { ApolloClient } from '@apollo/client';
import type { UserManager } from 'oidc-client-ts';
import { createApolloClient } from '../lib/apollo';
import { browser } from '../lib/browser';
import { accessTokenGetter, createUserManager } from '../lib/auth';
import { fetchClientConfig, type ClientConfig } from '../lib/config';
import { logger } from '../lib/logger';
import { TrialStore } from '../lib/trial';
import { createAppRouter } from './router';

export interface AppServices {
  config: ClientConfig;
  manager: UserManager;
  client: ApolloClient;
  trialStore: TrialStore;
  router: ReturnType<typeof createAppRouter>;
}

export async function bootstrap(): Promise<AppServices> {
  const config = await fetchClientConfig();
  const { logBatchSize, logBatchMax, logBatchTimeoutMs } = config.constants;
  logger.configure({ batchSize: logBatchSize, batchMax: logBatchMax, batchTimeoutMs: logBatchTimeoutMs });
  window.addEventListener('pagehide', () => void logger.flush());
  // Uncaught failures reach the server's log too, with where they happened.
  window.addEventListener('error', (event) =>
    logger.error(`Uncaught: ${event.message}`, { source: event.filename, line: event.lineno, path: location.pathname }),
  );
  window.addEventListener('unhandledrejection', (event) =>
    logger.error(`Unhandled rejection: ${event.reason instanceof Error ? event.reason.message : String(event.reason)}`, {
      path: location.pathname,
    }),
  );

  const manager = createUserManager(config);
  const trialStore = new TrialStore();
  const client = createApolloClient({
    getAccessToken: accessTokenGetter(manager),
    logger,
    onTrialExpired: trialStore.markExpired,
    reload: () => browser.reload(),
  });
  return { config, manager, client, trialStore, router: createAppRouter() };
}
