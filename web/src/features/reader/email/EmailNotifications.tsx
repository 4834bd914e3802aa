//! The reader's email settings at /email-notifications (spec 3 §2 'Email notifications', §7, §9):
//! a back link, the global On/Off of channel emails (there even before the reader holds any
//! channel), and per channel the reader holds now (active, or live with a failed payment) a
//! checkbox and how often its new articles come (at once, or in a daily or weekly digest), with
//! the time zone digests are sent in. Channels a seat of the reader's firm gives them (issue 39,
//! `me.firmSeats`) are listed too, 'Provided by {firm}', and set with the same per-channel
//! mutations (the server applies them to the seat).
//!
//! Every change is saved as it is made and shown at once. The global switch is saved 500 ms after
//! the last flip (`setUserEmailNotificationSettings`, spec 3 §9), so flipping it back and forth
//! sends one call, or none when it ends where it started. The channel checkboxes and choices are
//! optimistic: a refused change is undone and the server's message shown.
import { gql, type ApolloCache } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Banner } from '../../../components/Banner';
import { Button } from '../../../components/Button';
import { CheckboxControl, SelectControl, SwitchControl, type ChoiceOption } from '../../../components/Controls';
import { EmptyState } from '../../../components/EmptyState';
import { LinkButton } from '../../../components/LinkButton';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { useConfig } from '../../../lib/config';
import { fieldErrors, formatError } from '../../../lib/errors';
import { useDebouncedCall } from '../../../lib/useDebounced';
import { CHANNELS_PATH, SUBSCRIPTIONS_PATH } from '../common/channelText';
import { providedByText } from '../common/subscriptionText';
import {
  ChangeEmailFrequencyDocument,
  EmailNotificationsScreenDocument,
  SetChannelEmailsDocument,
  SetEmailSettingsDocument,
  type EmailNotificationsScreenQuery,
  type SetEmailSettingsMutationVariables,
} from './__generated__/EmailNotifications.generated';
import { browserTimeZone, timeZoneLabel, timeZoneOptions } from './timeZones';
import '../reader.css';
import './email.css';

type Me = EmailNotificationsScreenQuery['me'];
export type EmailSubscription = Me['channelSubscriptions'][number];
export type EmailSeat = Me['firmSeats'][number];
export type EmailFrequency = EmailSubscription['emailFrequency'];
type Settings = Me['emailNotificationSettings'];

/** A channel whose emails the reader sets: their own subscription's, or their firm seat's. */
export interface EmailChannel {
  channelId: string;
  name: string;
  emailNotifications: boolean;
  emailFrequency: EmailFrequency;
  /** Why it sends nothing for now, when it does not; or who provides it. */
  description?: string;
}

export const FREQUENCIES: readonly ChoiceOption<EmailFrequency>[] = [
  { value: 'immediate', label: 'Immediate' },
  { value: 'daily', label: 'Daily digest' },
  { value: 'weekly', label: 'Weekly digest' },
];

/** Spec 3 §9: the email settings wait 500 ms, like the search boxes (the config's one debounce). */
const DEFAULT_DEBOUNCE_MS = 500;

/** Why a channel with a failed payment sends nothing for now (the server emails active subscriptions only). */
export const PAYMENT_FAILED_EMAILS_TEXT = 'Payment failed: its emails start again once your payment goes through.';

/** A seat of a firm subscription that starts later: its emails start with it. */
export const seatNotStartedText = (firmName: string) => `${providedByText(firmName)}, from its start: its emails start then.`;

/**
 * The channels whose emails the reader can set, by name: the subscriptions the server's state
 * machine calls live, those giving access now and those whose payment failed (still the reader's,
 * until the card is fixed or the subscription ends), and the channels of their firm seats. A
 * channel held both ways is listed once: a change sets both.
 */
export function emailChannels(me: Me): EmailChannel[] {
  const own: EmailChannel[] = me.channelSubscriptions
    .filter((s) => s.status.effectiveState === 'active' || s.status.effectiveState === 'paymentFailed')
    .map((s) => ({
      channelId: s.channelId,
      name: s.channel.name,
      emailNotifications: s.emailNotifications,
      emailFrequency: s.emailFrequency,
      description: s.status.effectiveState === 'paymentFailed' ? PAYMENT_FAILED_EMAILS_TEXT : undefined,
    }));
  const ownIds = new Set(own.map((c) => c.channelId));
  const seats: EmailChannel[] = me.firmSeats
    .filter((seat) => !ownIds.has(seat.channelId))
    .map((seat) => ({
      channelId: seat.channelId,
      name: seat.channelName,
      emailNotifications: seat.emailNotifications,
      emailFrequency: seat.emailFrequency,
      description: seat.isActive ? providedByText(seat.firmName) : seatNotStartedText(seat.firmName),
    }));
  return [...own, ...seats].sort((a, b) => a.name.localeCompare(b.name));
}

export default function EmailNotifications() {
  const { data, loading, error, refetch } = useQuery(EmailNotificationsScreenDocument, { fetchPolicy: 'cache-and-network' });

  return (
    <Page title="Email notifications">
      <div className="insights-reader-toolbar">
        <LinkButton to={SUBSCRIPTIONS_PATH} text="Back to your subscriptions" icon="arrow-left" />
      </div>
      {error && !data && (
        <Banner intent="danger" role="alert">
          {formatError(error)} <Button text="Try again" size="small" onClick={() => void refetch().catch(() => undefined)} />
        </Banner>
      )}
      {loading && !data && <LoadingBlock label="Loading your email settings" />}
      {data && <EmailSettings me={data.me} />}
    </Page>
  );
}

/** Writes a change into the screen's cached answer (its subscriptions have no id of their own to merge by). */
function writeSettings(cache: ApolloCache, settings: Settings) {
  cache.updateQuery({ query: EmailNotificationsScreenDocument }, (prev) =>
    prev ? { me: { ...prev.me, emailNotificationSettings: settings } } : undefined,
  );
}

/** The server changes the reader's subscription and seat of the channel alike: so does the cache. */
function writeSubscription(cache: ApolloCache, next: SubscriptionChange) {
  const changed = <T extends SubscriptionChange>(s: T): T =>
    s.channelId === next.channelId ? { ...s, emailNotifications: next.emailNotifications, emailFrequency: next.emailFrequency } : s;
  cache.updateQuery({ query: EmailNotificationsScreenDocument }, (prev) =>
    prev
      ? { me: { ...prev.me, channelSubscriptions: prev.me.channelSubscriptions.map(changed), firmSeats: prev.me.firmSeats.map(changed) } }
      : undefined,
  );
}

type SubscriptionChange = Pick<EmailSubscription, 'channelId' | 'emailNotifications' | 'emailFrequency'>;

/** A subscription as a change will leave it, for the optimistic answer (with the __typename the cache adds). */
function optimisticSubscription(sub: EmailChannel, change: Partial<SubscriptionChange>): SubscriptionChange {
  const next = {
    __typename: 'ChannelSubscription',
    channelId: sub.channelId,
    emailNotifications: sub.emailNotifications,
    emailFrequency: sub.emailFrequency,
  };
  return { ...next, ...change } as SubscriptionChange;
}

/** 'Saving…' while any change is on its way, then 'All changes saved.' (read by screen readers). */
function useSaveStatus() {
  const inFlight = useRef(0);
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const track = useCallback(async <T,>(save: () => Promise<T>): Promise<T> => {
    inFlight.current += 1;
    setStatus('saving');
    try {
      const result = await save();
      inFlight.current -= 1;
      if (inFlight.current === 0) setStatus('saved');
      return result;
    } catch (e) {
      inFlight.current -= 1;
      setStatus('failed');
      throw e;
    }
  }, []);
  return { status, track };
}

function EmailSettings({ me }: { me: Me }) {
  const { constants } = useConfig();
  const settings = me.emailNotificationSettings;
  const channels = emailChannels(me);
  const [failure, setFailure] = useState<string | null>(null);
  const [timeZoneError, setTimeZoneError] = useState<string | undefined>();
  const { status, track } = useSaveStatus();

  const [saveSettings] = useMutation(SetEmailSettingsDocument, {
    update: (cache, { data }) => data && writeSettings(cache, data.setUserEmailNotificationSettings),
  });
  const [setChannelEmails] = useMutation(SetChannelEmailsDocument);
  const [changeFrequency] = useMutation(ChangeEmailFrequencyDocument);

  /** Runs a save; a refusal is shown (the optimistic change is undone by Apollo or by `onFailure`). */
  const run = async (save: () => Promise<unknown>, onFailure?: (e: unknown) => void) => {
    setFailure(null);
    try {
      await track(save);
    } catch (e) {
      setFailure(`Your change was not saved. ${formatError(e)}`);
      onFailure?.(e);
    }
  };

  // The global switch: shown at once, saved once the flipping stops.
  const [draft, setDraft] = useState<boolean | null>(null);
  const confirmed = settings.channelNotifications;
  const channelEmailsOn = draft ?? confirmed;
  const confirmedRef = useRef(confirmed);
  useEffect(() => {
    confirmedRef.current = confirmed;
  }, [confirmed]);
  const debounced = useDebouncedCall((value: boolean) => {
    if (value === confirmedRef.current) {
      setDraft(null);
      return;
    }
    const item: SetEmailSettingsMutationVariables['item'] = { channelNotifications: value };
    void run(
      async () => {
        await saveSettings({ variables: { item } });
        setDraft((d) => (d === value ? null : d));
      },
      // Back to what the server holds, unless the reader has flipped it again meanwhile.
      () => !debounced.isWaiting() && setDraft(null),
    );
  }, constants.searchDebounceMs || DEFAULT_DEBOUNCE_MS);
  const flip = (value: boolean) => {
    setFailure(null);
    setDraft(value);
    debounced.schedule(value);
  };

  // The server answers null for a channel held only through a firm seat (the seat changed, and
  // there is no subscription of the reader's own to return): the change is then what was asked.
  const toggleChannel = (sub: EmailChannel, enabled: boolean) => {
    const next = optimisticSubscription(sub, { emailNotifications: enabled });
    void run(() =>
      setChannelEmails({
        variables: { channelId: sub.channelId, enabled },
        optimisticResponse: { setPremiumChannelEmailNotificationSettings: next },
        update: (cache, { data }) => writeSubscription(cache, data?.setPremiumChannelEmailNotificationSettings ?? next),
      }),
    );
  };

  const chooseFrequency = (sub: EmailChannel, frequency: EmailFrequency) => {
    const next = optimisticSubscription(sub, { emailFrequency: frequency });
    void run(() =>
      changeFrequency({
        variables: { channelId: sub.channelId, frequency },
        optimisticResponse: { changeEmailPreference: next },
        update: (cache, { data }) => writeSubscription(cache, data?.changeEmailPreference ?? next),
      }),
    );
  };

  const chooseTimeZone = (timeZone: string) => {
    setTimeZoneError(undefined);
    void run(
      () =>
        saveSettings({
          variables: { item: { timeZone } },
          optimisticResponse: {
            // The generated types leave out __typename, which the cache adds to every selection.
            setUserEmailNotificationSettings: {
              __typename: 'EmailNotificationSettings',
              channelNotifications: confirmed,
              timeZone,
            } as Settings,
          },
        }),
      (e) => setTimeZoneError(fieldErrors(e).timeZone),
    );
  };

  const usesDigest = channels.some((s) => s.emailNotifications && s.emailFrequency !== 'immediate');
  return (
    <div className="insights-email-settings">
      <p className="insights-email-status" role="status" aria-live="polite">
        {status === 'saving' ? 'Saving…' : status === 'saved' ? 'All changes saved.' : 'Changes are saved as you make them.'}
      </p>
      {failure && (
        <Banner intent="danger" role="alert">
          {failure}
        </Banner>
      )}

      <section className="insights-email-section" aria-labelledby="channel-emails-title">
        <h2 id="channel-emails-title">Channel emails</h2>
        <SwitchControl
          large
          label="Email me about new articles in my channels"
          checked={channelEmailsOn}
          onChange={flip}
          description={
            channelEmailsOn
              ? 'Choose below which channels email you, and how often.'
              : 'Channel emails are off: you get none, whatever is chosen below. Your choices are kept for when you turn them on again.'
          }
        />
        {channels.length === 0 ? (
          <div className="insights-reader-section" role="region" aria-label="No subscriptions">
            <EmptyState
              title="You have no subscriptions yet"
              description={<p>Subscribe to channels to get their new articles by email.</p>}
              action={<LinkButton to={CHANNELS_PATH} text="Browse channels" intent="primary" />}
            />
          </div>
        ) : (
          <ul aria-label="Your channels" className={`insights-email-channels${channelEmailsOn ? '' : ' is-off'}`}>
            {channels.map((sub) => (
              <li key={sub.channelId} className="insights-email-channel">
                <CheckboxControl
                  label={sub.name}
                  checked={sub.emailNotifications}
                  disabled={!channelEmailsOn}
                  onChange={(enabled) => toggleChannel(sub, enabled)}
                  description={sub.description}
                />
                <SelectControl
                  inline
                  label="Frequency"
                  accessibleName={`Email frequency for ${sub.name}`}
                  options={FREQUENCIES}
                  value={sub.emailFrequency}
                  disabled={!channelEmailsOn || !sub.emailNotifications}
                  onChange={(frequency) => chooseFrequency(sub, frequency)}
                />
              </li>
            ))}
          </ul>
        )}
      </section>

      <TimeZoneSection timeZone={settings.timeZone} usesDigest={usesDigest} error={timeZoneError} onChange={chooseTimeZone} />
    </div>
  );
}

interface TimeZoneSectionProps {
  timeZone: string;
  usesDigest: boolean;
  error?: string;
  onChange: (zone: string) => void;
}

/** The zone daily and weekly digests follow; the device's zone is offered when it differs. */
function TimeZoneSection({ timeZone, usesDigest, error, onChange }: TimeZoneSectionProps) {
  const device = browserTimeZone();
  const options = timeZoneOptions(timeZone, device);
  return (
    <section className="insights-email-section" aria-labelledby="digest-title">
      <h2 id="digest-title">Digests</h2>
      <SelectControl
        label="Time zone"
        options={options}
        value={timeZone}
        error={error}
        onChange={onChange}
        className="insights-email-time-zone"
        description={
          usesDigest
            ? 'Daily and weekly digests are sent by the clock of this time zone.'
            : 'Used for daily and weekly digests, when you choose one for a channel.'
        }
      />
      {device && device !== timeZone && (
        <p className="insights-email-suggestion">
          This device is set to {timeZoneLabel(device)}.{' '}
          <Button text={`Use ${timeZoneLabel(device)}`} size="small" variant="outlined" onClick={() => onChange(device)} />
        </p>
      )}
    </section>
  );
}

export const EMAIL_NOTIFICATIONS_SCREEN_QUERY = gql`
  query EmailNotificationsScreen {
    me {
      _id
      emailNotificationSettings {
        channelNotifications
        timeZone
      }
      channelSubscriptions {
        channelId
        emailNotifications
        emailFrequency
        channel {
          _id
          name
        }
        status {
          effectiveState
        }
      }
      firmSeats {
        firmSubscriptionId
        channelId
        channelName
        firmName
        isActive
        emailNotifications
        emailFrequency
      }
    }
  }
`;

export const SET_EMAIL_SETTINGS_MUTATION = gql`
  mutation SetEmailSettings($item: EmailNotificationSettingsInput!) {
    setUserEmailNotificationSettings(item: $item) {
      channelNotifications
      timeZone
    }
  }
`;

export const SET_CHANNEL_EMAILS_MUTATION = gql`
  mutation SetChannelEmails($channelId: ID!, $enabled: Boolean!) {
    setPremiumChannelEmailNotificationSettings(channelId: $channelId, enabled: $enabled) {
      channelId
      emailNotifications
      emailFrequency
    }
  }
`;

export const CHANGE_EMAIL_FREQUENCY_MUTATION = gql`
  mutation ChangeEmailFrequency($channelId: ID!, $frequency: EmailFrequency!) {
    changeEmailPreference(channelId: $channelId, frequency: $frequency) {
      channelId
      emailNotifications
      emailFrequency
    }
  }
`;
