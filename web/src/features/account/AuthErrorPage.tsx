//! The Authentication Error page (spec 1 §8, spec 3 §8): a title ('Authentication Error' unless
//! one is given), a message, Refresh, and Logout only for a signed-in user.
import { Button, ButtonRow } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { MessageScreen } from '../../components/Page';
import { browser } from '../../lib/browser';

export interface AuthErrorPageProps {
  title?: string;
  message: string;
  /** Shows Logout; pass the sign-out action when a user is signed in. */
  onLogout?: () => void;
}

export function AuthErrorPage({ title = 'Authentication Error', message, onLogout }: AuthErrorPageProps) {
  return (
    <MessageScreen>
      <EmptyState
        isScreen
        icon="error"
        title={title}
        description={<p role="alert">{message}</p>}
        action={
          <ButtonRow>
            <Button text="Refresh" icon="refresh" intent="primary" onClick={() => browser.reload()} />
            {onLogout && <Button text="Logout" icon="log-out" onClick={onLogout} />}
          </ButtonRow>
        }
      />
    </MessageScreen>
  );
}
