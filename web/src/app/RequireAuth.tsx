//! Every route except /callback, /loggedout and /unsubscribe needs a signed-in user: without one, a
//! refresh-token renewal is tried, then the sign-in redirect starts (spec 3 §2).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { LoadingScreen } from '../components/LoadingScreen';
import { AuthErrorPage } from '../features/account/AuthErrorPage';
import { isUsable, useAuth } from '../lib/auth';
import { formatError } from '../lib/errors';

export function RequireAuth({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);
  const signedIn = isUsable(auth.user);
  const returnTo = location.pathname + location.search + location.hash;

  useEffect(() => {
    if (signedIn) {
      started.current = false;
      return;
    }
    if (!auth.ready || auth.signingOut || started.current) return;
    started.current = true;
    void (async () => {
      if (auth.user?.refresh_token && (await auth.renew())) return;
      await auth.signIn(returnTo);
    })().catch((error: unknown) => setFailure(formatError(error)));
  }, [auth, signedIn, returnTo]);

  if (auth.signingOut) return <LoadingScreen label="Signing you out" />;
  if (signedIn) return <>{children}</>;
  if (failure) return <AuthErrorPage message={failure} />;
  return <LoadingScreen label="Signing you in" />;
}
