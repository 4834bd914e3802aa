//! 'Request your free trial' at /subscribe/channel/confirm-trial/:channelId (spec 3 §2, §4): what
//! the trial gives and for how long (the channel's trial days, else the configured default), and
//! a confirm button that asks for it (`requestTrialChannelSubscription`, pending until staff
//! approve it) and then goes to the subscription page with `?trial`. Cancel goes back. Under the
//! trial policy (issue 40) the trial lasts at most the policy's longest, and the reader reads and
//! accepts the current trial terms first (their version goes with the request and is recorded); a
//! request the policy refuses says why (the cool-off, until when).
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Breadcrumbs } from '../../../components/admin/Breadcrumbs';
import { Banner } from '../../../components/Banner';
import { Button } from '../../../components/Button';
import { CheckboxControl } from '../../../components/Controls';
import { LinkButton } from '../../../components/LinkButton';
import { Page } from '../../../components/Page';
import { useConfig } from '../../../lib/config';
import { formatError } from '../../../lib/errors';
import type { ReaderCard } from '../common/ChannelCardActions';
import { ChannelNotFound } from '../common/ChannelNotFound';
import { channelPath, CHANNELS_PATH, isObjectId, subscribePath } from '../common/channelText';
import { formatDay } from '../common/readerDates';
import { channelGate } from './channelGate';
import { ConfirmTrialPageDocument, RequestTrialDocument } from './__generated__/ConfirmTrialPage.generated';
import './subscribe.css';

const TITLE = 'Request your free trial';

export default function ConfirmTrialPage() {
  const { channelId } = useParams();
  if (!isObjectId(channelId)) return <ChannelNotFound />;
  return <ConfirmTrialScreen key={channelId} id={channelId} />;
}

function ConfirmTrialScreen({ id }: { id: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { constants } = useConfig();
  const { data, loading, error } = useQuery(ConfirmTrialPageDocument, { variables: { id }, fetchPolicy: 'cache-and-network' });
  const [requestTrial, request] = useMutation(RequestTrialDocument);
  const [accepted, setAccepted] = useState(false);

  const gate = channelGate({ channel: data?.channel, loading, error }, TITLE);
  if (gate || !data) return gate;
  const channel = data.channel;
  const policy = data.trialPolicy;
  const terms = data.trialTerms;
  const days = Math.min(channel.defaultTrialDurationDays ?? constants.defaultTrialChannelDays, policy.maxDays);
  const offered = channel.readerCard.action === 'RequestTrial';
  const mayConfirm = !policy.termsRequired || accepted;

  const confirm = async () => {
    try {
      await requestTrial({ variables: { channelId: channel._id, acceptedTermsVersion: accepted ? terms.version : null } });
      navigate(`${subscribePath(channel._id)}?trial`);
    } catch {
      // Shown from `request.error` below.
    }
  };
  // 'Cancel goes back': to the page the reader came from, or the pricing when opened directly.
  const cancel = () => (location.key === 'default' ? navigate(subscribePath(channel._id)) : navigate(-1));

  const crumbs = [
    { text: 'All channels', to: CHANNELS_PATH },
    { text: channel.name, to: channelPath(channel._id) },
    { text: 'Subscribe', to: subscribePath(channel._id) },
    { text: 'Free trial' },
  ];
  return (
    <Page title={TITLE} breadcrumbs={<Breadcrumbs items={crumbs} />}>
      <div className="insights-subscribe">
        <section className="insights-subscribe-offer" aria-labelledby="trial-offer">
          <h2 id="trial-offer">
            Try {channel.name} free for {days} {days === 1 ? 'day' : 'days'}
          </h2>
          <ul aria-label="About the trial" className="insights-subscribe-benefits">
            <li>Your request goes to the channel&apos;s team, and we email you once they have reviewed it.</li>
            <li>
              Once approved, you can read every premium article of {channel.name} for {days} {days === 1 ? 'day' : 'days'}.
            </li>
            <li>No payment details are needed, and the trial does not turn into a paid subscription.</li>
          </ul>
          {offered ? (
            <>
              <section className="insights-subscribe-terms" aria-labelledby="trial-terms">
                <h3 id="trial-terms">Trial terms</h3>
                {/* Sanitised on the server when Administrators save them. */}
                <div className="insights-subscribe-terms-text" dangerouslySetInnerHTML={{ __html: terms.html }} />
                <CheckboxControl
                  label={`I have read and accept the trial terms (version ${terms.version})`}
                  checked={accepted}
                  onChange={setAccepted}
                />
              </section>
              {request.error && (
                <Banner intent="danger" role="alert">
                  {formatError(request.error)}
                </Banner>
              )}
              <div className="insights-subscribe-buttons">
                <Button
                  text="Confirm free trial request"
                  intent="primary"
                  loading={request.loading}
                  disabled={!mayConfirm}
                  onClick={() => void confirm()}
                />
                <Button text="Cancel" disabled={request.loading} onClick={cancel} />
              </div>
            </>
          ) : (
            <>
              <NotOffered card={channel.readerCard} />
              <div className="insights-subscribe-buttons">
                <LinkButton to={subscribePath(channel._id)} text="View pricing" />
              </div>
            </>
          )}
        </section>
      </div>
    </Page>
  );
}

/** Why there is nothing to confirm: a request already waits, a trial runs, or none is offered. */
function NotOffered({ card }: { card: ReaderCard }) {
  const text =
    card.action === 'TrialPending'
      ? 'Your free trial request is pending approval.'
      : card.action === 'TrialActive'
        ? `Your free trial is active${card.endsAt ? ` until ${formatDay(card.endsAt)}` : ''}.`
        : 'A free trial is not available to you for this channel.';
  return <Banner intent="primary">{text}</Banner>;
}

export const CONFIRM_TRIAL_PAGE_QUERY = gql`
  query ConfirmTrialPage($id: ID!) {
    channel(id: $id) {
      _id
      name
      state
      defaultTrialDurationDays
      ...ChannelCardActions_channel
    }
    trialPolicy {
      maxDays
      termsRequired
    }
    trialTerms {
      version
      html
    }
  }
`;

export const REQUEST_TRIAL_MUTATION = gql`
  mutation RequestTrial($channelId: ID!, $acceptedTermsVersion: Int) {
    requestTrialChannelSubscription(channelId: $channelId, acceptedTermsVersion: $acceptedTermsVersion) {
      channelId
      channel {
        _id
        ...ChannelAfterChange_channel
      }
    }
  }
`;
