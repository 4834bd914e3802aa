import { ApolloProvider } from '@apollo/client/react';
import type { ReactNode } from 'react';
import { UiProvider } from '../components/blueprint';
import { AuthProvider } from '../lib/auth';
import { ConfigProvider } from '../lib/config';
import { TrialStoreProvider } from '../lib/trial';
import type { AppServices } from './bootstrap';

export function AppProviders({ services, children }: { services: AppServices; children: ReactNode }) {
  return (
    <UiProvider>
      <ConfigProvider config={services.config}>
        <AuthProvider manager={services.manager}>
          <TrialStoreProvider store={services.trialStore}>
            <ApolloProvider client={services.client}>{children}</ApolloProvider>
          </TrialStoreProvider>
        </AuthProvider>
      </ConfigProvider>
    </UiProvider>
  );
}
