//! The public unsubscribe page at /unsubscribe?data=… (spec 3 §2 'Unsubscribe page', §7): every
//! notification email links here with a signed `data` token. It needs no sign-in and no GraphQL:
//! on load it asks `POST /unsubscribe {data}` whose link it is, then shows 'Unsubscribe {email}'
//! (and the channel), the reasons and an Unsubscribe button (state 'not sent'). Unsubscribing
//! (`{data, reason}`) ends in 'unsubscribed' or, when the emails were off already, 'not
//! unsubscribed' ('You are already unsubscribed.'). A link the server refuses shows its message.
import { useCallback, useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Banner } from '../../../components/Banner';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { RadioControl } from '../../../components/Controls';
import { LinkButton } from '../../../components/LinkButton';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { MessageScreen } from '../../../components/Page';
import { EMAIL_NOTIFICATIONS_PATH } from '../common/channelText';
import {
  describeLink,
  REASONS,
  unsubscribe,
  UnsubscribeError,
  SERVER_MESSAGE,
  type UnsubscribeReason,
  type UnsubscribeTarget,
} from './unsubscribe';
import { useDocumentTitle } from '../../../lib/pageTitle';
import './email.css';

export const ALREADY_UNSUBSCRIBED = 'You are already unsubscribed.';
export const MISSING_LINK =
  'This unsubscribe link is incomplete. Use the whole link of a recent email, or manage your email notifications after signing in.';
const REASON_REQUIRED = 'Choose a reason.';

type State =
  | { step: 'loading' }
  | { step: 'failed'; message: string }
  | { step: 'invalid'; message: string }
  | { step: 'notSent'; target: UnsubscribeTarget }
  | { step: 'unsubscribed'; target: UnsubscribeTarget }
  | { step: 'notUnsubscribed'; target: UnsubscribeTarget };

const message = (e: unknown) => (e instanceof Error ? e.message : SERVER_MESSAGE);

export default function UnsubscribePage() {
  const [params] = useSearchParams();
  const data = params.get('data')?.trim() ?? '';
  const [state, setState] = useState<State>(data ? { step: 'loading' } : { step: 'invalid', message: MISSING_LINK });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!data) return;
    let active = true;
    describeLink(data).then(
      (target) => active && setState(target.subscribed ? { step: 'notSent', target } : { step: 'notUnsubscribed', target }),
      (e: unknown) => {
        if (!active) return;
        setState(
          e instanceof UnsubscribeError && e.kind === 'invalid'
            ? { step: 'invalid', message: e.message }
            : { step: 'failed', message: message(e) },
        );
      },
    );
    return () => {
      active = false;
    };
  }, [data, attempt]);

  const retry = useCallback(() => {
    setState({ step: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  switch (state.step) {
    case 'loading':
      return <LoadingScreen label="Checking your unsubscribe link" />;
    case 'failed':
      return (
        <Frame title="Unsubscribe">
          <Banner intent="danger" role="alert">
            {state.message}
          </Banner>
          <div className="insights-unsubscribe-actions">
            <Button text="Try again" intent="primary" onClick={retry} />
          </div>
        </Frame>
      );
    case 'invalid':
      return (
        <Frame title="This link cannot be used">
          <Banner intent="warning" role="alert">
            {state.message}
          </Banner>
          <div className="insights-unsubscribe-actions">
            <LinkButton to={EMAIL_NOTIFICATIONS_PATH} text="Manage email notifications" />
          </div>
        </Frame>
      );
    case 'notSent':
      return (
        <UnsubscribeForm
          data={data}
          target={state.target}
          onDone={(changed) => setState({ step: changed ? 'unsubscribed' : 'notUnsubscribed', target: state.target })}
          onInvalid={(text) => setState({ step: 'invalid', message: text })}
        />
      );
    case 'unsubscribed':
      return (
        <Frame title="You are unsubscribed">
          <p className="insights-unsubscribe-lead" role="status">
            {turnedOffText(state.target)}
          </p>
          <p>You can turn them on again at any time in your email notification settings.</p>
          <div className="insights-unsubscribe-actions">
            <LinkButton to={EMAIL_NOTIFICATIONS_PATH} text="Manage email notifications" />
          </div>
        </Frame>
      );
    case 'notUnsubscribed':
      return (
        <Frame title={`Unsubscribe ${state.target.email}`}>
          <p className="insights-unsubscribe-lead" role="status">
            {ALREADY_UNSUBSCRIBED}
          </p>
          <p>{offText(state.target)}</p>
          <div className="insights-unsubscribe-actions">
            <LinkButton to={EMAIL_NOTIFICATIONS_PATH} text="Manage email notifications" />
          </div>
        </Frame>
      );
  }
}

/** What the link turns off, before the reader confirms. */
export function questionText(target: UnsubscribeTarget): string {
  return target.channelName
    ? `Stop emails about new articles in ${target.channelName} to this address?`
    : 'Stop all emails about new articles in your channels to this address?';
}

/** What was turned off, once done. */
export function turnedOffText(target: UnsubscribeTarget): string {
  return target.channelName
    ? `${target.email} will no longer get emails about new articles in ${target.channelName}.`
    : `${target.email} will no longer get emails about new articles in any of your channels.`;
}

function offText(target: UnsubscribeTarget): string {
  return target.channelName
    ? `${target.email} gets no emails about new articles in ${target.channelName}.`
    : `${target.email} gets no emails about new articles in your channels.`;
}

interface UnsubscribeFormProps {
  data: string;
  target: UnsubscribeTarget;
  onDone: (changed: boolean) => void;
  onInvalid: (message: string) => void;
}

/** 'Not sent': the question, the reasons and the Unsubscribe button. */
function UnsubscribeForm({ data, target, onDone, onInvalid }: UnsubscribeFormProps) {
  const [reason, setReason] = useState<UnsubscribeReason | null>(null);
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!reason) {
      setReasonError(REASON_REQUIRED);
      return;
    }
    setSending(true);
    try {
      const changed = await unsubscribe(data, reason);
      onDone(changed);
    } catch (e) {
      setSending(false);
      if (e instanceof UnsubscribeError && e.kind === 'invalid') {
        if (e.field === 'reason') setReasonError(e.message);
        else onInvalid(e.message);
        return;
      }
      setFailure(message(e));
    }
  };

  return (
    <Frame title={`Unsubscribe ${target.email}`}>
      {target.channelName && (
        <p className="insights-unsubscribe-channel">
          Channel: <strong>{target.channelName}</strong>
        </p>
      )}
      <p className="insights-unsubscribe-lead">{questionText(target)}</p>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Unsubscribe">
        <RadioControl
          label="Why are you unsubscribing?"
          options={REASONS}
          value={reason}
          error={reasonError}
          disabled={sending}
          onChange={(value) => {
            setReason(value);
            setReasonError(undefined);
          }}
        />
        {failure && (
          <Banner intent="danger" role="alert">
            {failure}
          </Banner>
        )}
        <div className="insights-unsubscribe-actions">
          <Button type="submit" text="Unsubscribe" intent="primary" loading={sending} />
        </div>
      </form>
    </Frame>
  );
}

/** The page's frame: a card in the middle of the screen, with its heading (no app header: no sign-in). */
function Frame({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  useDocumentTitle(title);
  return (
    <MessageScreen>
      <div className="insights-unsubscribe">
        <Card labelledBy={id}>
          <p className="insights-unsubscribe-brand">Insights</p>
          <h1 id={id}>{title}</h1>
          {children}
        </Card>
      </div>
    </MessageScreen>
  );
}
