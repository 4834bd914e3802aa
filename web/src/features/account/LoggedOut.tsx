import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { MessageScreen } from '../../components/Page';
import { useAuth } from '../../lib/auth';

/** /loggedout: where the identity provider returns after sign-out. Never starts a sign-in by itself. */
export default function LoggedOut() {
  const auth = useAuth();
  return (
    <MessageScreen>
      <EmptyState
        isScreen
        icon="log-out"
        title="You are signed out"
        description={<p>You have signed out of Insights.</p>}
        action={<Button text="Sign in again" intent="primary" icon="log-in" onClick={() => void auth.signIn('/')} />}
      />
    </MessageScreen>
  );
}
