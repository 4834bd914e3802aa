//! Route guard for spec 1 §6's access table: Access Denied for other roles, and the Trial ended
//! screen once a reader's trial has expired. The server enforces the same rules on every call.
import type { ReactNode } from 'react';
import { hasAccess, type Role } from '../../lib/access';
import { useSession } from '../../lib/session';
import { useTrial } from '../../lib/trial';
import { AccessDenied, TrialEnded } from './AccessScreens';

export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const user = useSession();
  const trial = useTrial();
  if (!hasAccess(user.role, roles)) return <AccessDenied />;
  if (trial.state === 'TrialExpired') return <TrialEnded />;
  return <>{children}</>;
}
