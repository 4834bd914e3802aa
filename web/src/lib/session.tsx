//! The signed-in user as the server sees them (`me`), shared by the shell and the screens.
//! app/SessionGate.tsx loads it after sign-in; screens read it with `useSession()`.
import { gql } from '@apollo/client';
import { createContext, useContext, type ReactNode } from 'react';
import type { SessionQuery } from './__generated__/session.generated';

export type SessionUser = SessionQuery['me'];

const SessionContext = createContext<SessionUser | null>(null);

export function SessionProvider({ user, children }: { user: SessionUser; children: ReactNode }) {
  return <SessionContext.Provider value={user}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionUser {
  const user = useContext(SessionContext);
  if (!user) throw new Error('useSession outside SessionProvider');
  return user;
}

export const SESSION_QUERY = gql`
  query Session {
    me {
      _id
      name
      email
      role
      isInternal
      intelligence
      tableauAccess
      trialState
      trialMinLeft
      # The reader's firm: its administrators get 'My firm' (features/firms/MyFirm).
      firm {
        _id
        name
        isAdmin
        usageEmail
      }
    }
    isUserProfileComplete {
      isProfileComplete
    }
  }
`;
