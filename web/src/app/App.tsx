import { Suspense, useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { UiProvider } from '../components/blueprint';
import { LoadingScreen } from '../components/LoadingScreen';
import { AuthErrorPage } from '../features/account/AuthErrorPage';
import { formatError } from '../lib/errors';
import { logger } from '../lib/logger';
import type { AppServices } from './bootstrap';
import { AppProviders } from './providers';

/** Waits for start-up (config), then renders the routed app. */
export function App({ boot }: { boot: Promise<AppServices> }) {
  const [services, setServices] = useState<AppServices | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    boot.then(
      (s) => active && setServices(s),
      (error: unknown) => {
        logger.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
        if (active) setFailure(formatError(error));
      },
    );
    return () => {
      active = false;
    };
  }, [boot]);

  if (failure) {
    return (
      <UiProvider>
        <AuthErrorPage title="Insights could not start" message={failure} />
      </UiProvider>
    );
  }
  if (!services) return <LoadingScreen label="Starting Insights" />;
  return (
    <AppProviders services={services}>
      <Suspense fallback={<LoadingScreen />}>
        <RouterProvider router={services.router} />
      </Suspense>
    </AppProviders>
  );
}
