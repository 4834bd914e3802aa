//! 'My firm' (issue 39), the reader page of a client firm's administrators (`myFirm`): the firm's
//! subscriptions with their seats (give and take back: `FirmSubscriptions`), its readers and their
//! seats (`FirmReaders`), 'Invite a colleague' (they join at their first sign-in) with the
//! invitations not yet taken up (`FirmInvitations`, each one withdrawn at will), the firm's reading
//! per channel and month with its CSV (`FirmUsage`), and 'Email me a monthly usage summary'. The
//! account menu offers the page to firm administrators only (`me.firm.isAdmin`); anyone else who
//! opens it is told it is for them, and so is one the server refuses (FORBIDDEN).
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { TextField } from '../../components/admin';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { CheckboxControl } from '../../components/Controls';
import { EmptyState } from '../../components/EmptyState';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { showToast } from '../../components/Toaster';
import { useConfig } from '../../lib/config';
import { INVALID_EMAIL, isEmail } from '../../lib/email';
import { fieldErrors, formatError, hasErrorCode } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { FirmInvitationsDocument } from './__generated__/FirmInvitations.generated';
import { InviteToFirmDocument, MyFirmDocument, SetFirmUsageEmailDocument, type MyFirmQuery } from './__generated__/MyFirm.generated';
import { FirmInvitations } from './FirmInvitations';
import { FirmReaders } from './FirmReaders';
import { FirmSubscriptions } from './FirmSubscriptions';
import { firmSeatsText, MESSAGES } from './firmText';
import { FirmUsage } from './FirmUsage';
import './firms.css';

export const MY_FIRM_TITLE = 'My firm';
export const NOT_FIRM_ADMIN_TEXT = 'This page is for the administrators of a client firm';

type Firm = MyFirmQuery['myFirm'];

export default function MyFirm() {
  const user = useSession();
  const isAdmin = !!user.firm?.isAdmin;
  const { data, previousData, loading, error, refetch } = useQuery(MyFirmDocument, { skip: !isAdmin, fetchPolicy: 'cache-and-network' });
  const shown = data ?? previousData;

  let content: ReactNode;
  if (!isAdmin || (hasErrorCode(error, 'FORBIDDEN') && !shown)) content = <NotFirmAdmin />;
  else if (shown)
    content = <FirmSections firm={shown.myFirm} usageEmail={shown.me.firm?.usageEmail ?? false} onChanged={() => void refetch()} />;
  else if (loading) content = <LoadingBlock label="Loading your firm" />;
  else
    content = (
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    );
  return (
    <Page title={MY_FIRM_TITLE}>
      <div className="insights-firm-page">{content}</div>
    </Page>
  );
}

function NotFirmAdmin() {
  const { supportEmail } = useConfig();
  return (
    <EmptyState
      icon="lock"
      title={NOT_FIRM_ADMIN_TEXT}
      description={
        <p>
          Your firm&apos;s administrators give its readers their seats. If you should be one of them, contact support at{' '}
          <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
        </p>
      }
    />
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="insights-firm-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function FirmSections({ firm, usageEmail, onChanged }: { firm: Firm; usageEmail: boolean; onChanged: () => void }) {
  return (
    <>
      <dl className="insights-firm-details">
        <dt>Firm</dt>
        <dd>{firm.name}</dd>
        <dt>Domains</dt>
        <dd>{firm.domains.length > 0 ? firm.domains.join(', ') : 'None'}</dd>
        <dt>Readers</dt>
        <dd>{firm.readerCount}</dd>
        <dt>Seats used / held</dt>
        <dd>{firmSeatsText(firm)}</dd>
      </dl>
      <Section title="Subscriptions">
        <p className="insights-firm-note">
          Give your colleagues a seat of a subscription: they read its premium articles as if subscribed.
        </p>
        <FirmSubscriptions firmId={firm._id} subscriptions={firm.subscriptions} canManage={false} canChangeSeats onChanged={onChanged} />
      </Section>
      <Section title="Readers">
        <FirmReaders firmId={firm._id} firmName={firm.name} subscriptions={firm.subscriptions} canManage={false} onChanged={onChanged} />
      </Section>
      <Section title="Invite a colleague">
        <InviteColleague firmName={firm.name} />
        <FirmInvitations firmId={firm._id} canWithdraw />
      </Section>
      <Section title="Reading">
        <FirmUsage firmId={firm._id} />
      </Section>
      <Section title="Usage summary email">
        <UsageEmail firmId={firm._id} initial={usageEmail} />
      </Section>
    </>
  );
}

/** An email address, and the invitation sent: the colleague joins the firm at their first sign-in. */
function InviteColleague({ firmName }: { firmName: string }) {
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [invite, { loading }] = useMutation(InviteToFirmDocument);
  const typed = email.trim();
  const clientError = !typed ? MESSAGES.required : isEmail(typed) ? null : INVALID_EMAIL;
  const shownError = serverError ?? (touched ? clientError : null) ?? undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    setAlert(null);
    if (clientError) {
      document.querySelector<HTMLInputElement>('input[name="inviteEmail"]')?.focus();
      return;
    }
    try {
      // The pending invitations list the new one.
      await invite({ variables: { email: typed }, refetchQueries: [FirmInvitationsDocument] });
      void showToast({ message: `Invitation sent to ${typed}`, intent: 'success' });
      setEmail('');
      setTouched(false);
    } catch (e) {
      const field = fieldErrors(e).email;
      if (field) setServerError(field);
      else setAlert(formatError(e));
    }
  };

  return (
    <form className="insights-firm-invite" aria-label="Invite a colleague" noValidate onSubmit={(e) => void submit(e)}>
      <p className="insights-firm-note">They get an email and join {firmName} when they first sign in to Insights.</p>
      {alert && (
        <Banner intent="danger" role="alert">
          {alert}
        </Banner>
      )}
      <TextField
        label="Colleague's email"
        name="inviteEmail"
        maxLength={320}
        value={email}
        onChange={(value) => {
          setEmail(value);
          setServerError(null);
        }}
        onBlur={() => setTouched(true)}
        error={shownError}
      />
      <Button type="submit" text="Send invitation" intent="primary" icon="envelope" loading={loading} />
    </form>
  );
}

/** The monthly usage email: on or off at once. */
function UsageEmail({ firmId, initial }: { firmId: string; initial: boolean }) {
  const [on, setOn] = useState(initial);
  const [setUsageEmail, { loading }] = useMutation(SetFirmUsageEmailDocument);
  const change = async (next: boolean) => {
    setOn(next);
    try {
      await setUsageEmail({
        variables: { on: next },
        update: (cache) =>
          cache.modify({ id: cache.identify({ __typename: 'FirmOfUser', _id: firmId }), fields: { usageEmail: () => next } }),
      });
      void showToast({
        message: next ? 'You will get a usage summary by email each month.' : 'You will no longer get the monthly usage summary.',
        intent: 'success',
      });
    } catch (e) {
      setOn(!next);
      void showToast({ message: formatError(e), intent: 'danger' });
    }
  };
  return (
    <CheckboxControl
      label="Email me a monthly usage summary"
      checked={on}
      disabled={loading}
      description="Each month: who read what, per channel, at your firm."
      onChange={(next) => void change(next)}
    />
  );
}

export const MY_FIRM_OPERATIONS = gql`
  query MyFirm {
    myFirm {
      _id
      name
      domains
      readerCount
      seatsUsed
      seatsHeld
      subscriptionCount
      subscriptions {
        _id
        ...FirmSubscriptionRow
      }
    }
    me {
      _id
      firm {
        _id
        name
        isAdmin
        usageEmail
      }
    }
  }

  mutation InviteToFirm($email: String!) {
    inviteToFirm(email: $email)
  }

  mutation SetFirmUsageEmail($on: Boolean!) {
    setFirmUsageEmail(on: $on)
  }
`;
