import { Navigate } from 'react-router';
import { landingPath } from '../../lib/access';
import { useIsWide } from '../../lib/breakpoints';
import { useSession } from '../../lib/session';

/** The app root: the publisher area for staff on wide screens, For You otherwise (spec 1 §2). */
export function RootRedirect() {
  const user = useSession();
  const wide = useIsWide();
  return <Navigate to={landingPath(user.role, wide)} replace />;
}
