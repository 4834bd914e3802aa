//! Loads the signed-in user (`me`) and profile completeness before any page shows, and applies
//! the rules that replace the whole app: incomplete profile → the external profile page;
//! no Insights role → 'User is not permissioned to use the Insights system'.
import { useQuery } from '@apollo/client/react';
import { useEffect, type ReactNode } from 'react';
import { LoadingScreen } from '../components/LoadingScreen';
import { AuthErrorPage } from '../features/account/AuthErrorPage';
import { NotPermissioned } from '../features/shell/AccessScreens';
import { useAuth } from '../lib/auth';
import { browser } from '../lib/browser';
import { useConfig } from '../lib/config';
import { formatError } from '../lib/errors';
import { SessionDocument } from '../lib/__generated__/session.generated';
import { SessionProvider } from '../lib/session';

export function SessionGate({ children }: { children: ReactNode }) {
  const config = useConfig();
  const auth = useAuth();
  const { data, error } = useQuery(SessionDocument);
  const profileRedirect = data && !data.isUserProfileComplete.isProfileComplete ? config.profileLandingUrl : null;

  useEffect(() => {
    if (profileRedirect) browser.assign(profileRedirect);
  }, [profileRedirect]);

  if (!data) {
    if (error) return <AuthErrorPage message={formatError(error)} onLogout={() => void auth.signOut()} />;
    return <LoadingScreen label="Loading your account" />;
  }
  if (profileRedirect) return <LoadingScreen label="Opening your profile" />;
  if (!data.me.role) return <NotPermissioned />;
  return <SessionProvider user={data.me}>{children}</SessionProvider>;
}
