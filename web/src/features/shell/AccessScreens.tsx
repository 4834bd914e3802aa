//! The protected-route screens of spec 1 §2: Access Denied, Trial ended, not permissioned.
import { AnchorButton, Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { MessageScreen } from '../../components/Page';
import { useAuth } from '../../lib/auth';
import { useConfig } from '../../lib/config';

export const ACCESS_DENIED_TEXT = "Access Denied: You don't have sufficient permissions to access this area of the product";
export const TRIAL_ENDED_TEXT = 'Your trial has now ended';
export const NOT_PERMISSIONED_TEXT = 'User is not permissioned to use the Insights system';

export function AccessDenied() {
  return <EmptyState icon="lock" title={ACCESS_DENIED_TEXT} isScreen />;
}

function SupportLink() {
  const { supportEmail } = useConfig();
  return <a href={`mailto:${supportEmail}`}>{supportEmail}</a>;
}

export function TrialEnded() {
  const { landingUrl } = useConfig();
  return (
    <EmptyState
      isScreen
      icon="time"
      title={TRIAL_ENDED_TEXT}
      description={
        <p>
          To keep reading Insights, ask us about a subscription: contact support at <SupportLink />.
        </p>
      }
      action={<AnchorButton href={landingUrl} intent="primary" text="Back to dashboard" />}
    />
  );
}

/** Shown instead of the whole app when the token carries none of the Insights scopes. */
export function NotPermissioned() {
  const auth = useAuth();
  return (
    <MessageScreen>
      <EmptyState
        isScreen
        icon="blocked-person"
        title={NOT_PERMISSIONED_TEXT}
        description={
          <p>
            If you should have access, contact support at <SupportLink />.
          </p>
        }
        action={<Button text="Log out" onClick={() => void auth.signOut()} />}
      />
    </MessageScreen>
  );
}
