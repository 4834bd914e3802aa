//! The channel subscription page at /subscribe/channel/:channelId (spec 3 §2 'Channel subscription
//! page'): breadcrumb All channels > channel > Subscribe; for a premium channel the monthly price
//! excluding tax, the benefits, 'Buy Premium access' (the checkout) and, while the server's card
//! offers one, 'Request FREE trial now'; for a free channel the card's subscribe or request button.
//! `?trial` (the reader has just asked for a trial, spec 3 §4) adds a callout that the request is
//! pending.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Breadcrumbs } from '../../../components/admin/Breadcrumbs';
import { Banner } from '../../../components/Banner';
import { LinkButton } from '../../../components/LinkButton';
import { Page } from '../../../components/Page';
import { ChannelCardActions, type ReaderCard } from '../common/ChannelCardActions';
import { ChannelNotFound } from '../common/ChannelNotFound';
import {
  channelPath,
  CHANNELS_PATH,
  checkoutPath,
  confirmInterestPath,
  confirmTrialPath,
  dollars,
  isObjectId,
} from '../common/channelText';
import { formatDay } from '../common/readerDates';
import { channelGate } from './channelGate';
import { SubscribePageDocument, type SubscribePageQuery } from './__generated__/SubscribePage.generated';
import './subscribe.css';

type Channel = SubscribePageQuery['channel'];

/** The card actions after which Premium access can be bought. */
const BUYABLE: readonly ReaderCard['action'][] = ['RequestTrial', 'Buy', 'TrialPending', 'TrialActive'];

export default function SubscribePage() {
  const { channelId } = useParams();
  if (!isObjectId(channelId)) return <ChannelNotFound />;
  return <SubscribeScreen key={channelId} id={channelId} />;
}

function SubscribeScreen({ id }: { id: string }) {
  const [params] = useSearchParams();
  const { data, loading, error } = useQuery(SubscribePageDocument, { variables: { id }, fetchPolicy: 'cache-and-network' });
  const gate = channelGate({ channel: data?.channel, loading, error }, 'Subscribe');
  if (gate || !data) return gate;
  const channel = data.channel;
  const card = channel.readerCard;
  const trialPending = params.has('trial') || card.action === 'TrialPending';
  const crumbs = [{ text: 'All channels', to: CHANNELS_PATH }, { text: channel.name, to: channelPath(channel._id) }, { text: 'Subscribe' }];

  return (
    <Page title={`Subscribe to ${channel.name}`} breadcrumbs={<Breadcrumbs items={crumbs} />}>
      <div className="insights-subscribe">
        {trialPending && (
          <Banner intent="primary" title="Free trial requested">
            Your request for a free trial of {channel.name} has been sent and is pending approval. We will email you once it has been
            reviewed.
          </Banner>
        )}
        {channel.description && <p className="insights-subscribe-description">{channel.description}</p>}
        {channel.type === 'premium' ? <PremiumOffer channel={channel} /> : <FreeOffer channel={channel} />}
      </div>
    </Page>
  );
}

function PremiumOffer({ channel }: { channel: Channel }) {
  const card = channel.readerCard;
  const price = dollars(channel.price);
  return (
    <section className="insights-subscribe-offer" aria-labelledby="premium-access">
      <h2 id="premium-access">Premium access</h2>
      {price && (
        <p className="insights-subscribe-price">
          <strong>{price}</strong> per month, excluding tax
        </p>
      )}
      <ul aria-label="Benefits" className="insights-subscribe-benefits">
        <li>Every premium article of {channel.name}, in full</li>
        <li>The charts and downloads that come with its articles</li>
        <li>An email when a new article is published</li>
        <li>Billed monthly on the 1st of each month, renewing until you cancel</li>
        <li>Cancel at any time: you keep access to the end of the billing period</li>
      </ul>
      <PremiumStatus card={card} />
      <div className="insights-subscribe-buttons">
        {BUYABLE.includes(card.action) && <LinkButton to={checkoutPath(channel._id)} text="Buy Premium access" intent="primary" />}
        {card.action === 'RequestTrial' && <LinkButton to={confirmTrialPath(channel._id)} text="Request FREE trial now" />}
        {(card.action === 'Subscribed' || card.action === 'AccessUntil') && (
          <LinkButton to={channelPath(channel._id)} text="View Channel" />
        )}
      </div>
      <p className="insights-subscribe-note">
        Questions before you buy? <Link to={confirmInterestPath(channel._id)}>Register your interest</Link> and the channel&apos;s team will
        contact you.
      </p>
    </section>
  );
}

/** Where the reader stands, when they already hold or have asked for something. */
function PremiumStatus({ card }: { card: ReaderCard }) {
  switch (card.action) {
    case 'TrialActive':
      return (
        <p className="insights-subscribe-note">
          {card.endsAt ? `Your free trial ends ${formatDay(card.endsAt)}.` : 'Your free trial is active.'}
        </p>
      );
    case 'Subscribed':
      return (
        <Banner intent="success" title="You are subscribed">
          {card.providedBy
            ? `You have Premium access to this channel, provided by ${card.providedBy}.`
            : 'You have Premium access to this channel.'}
        </Banner>
      );
    case 'AccessUntil':
      return (
        <Banner intent="primary" title="Subscription cancelled">
          {card.endsAt
            ? `You keep Premium access until ${formatDay(card.endsAt)}.`
            : 'You keep Premium access to the end of the billing period.'}
        </Banner>
      );
    case 'Pending':
      return (
        <Banner intent="primary" title="Subscription pending">
          Your subscription is being set up. We will email you once your access starts.
        </Banner>
      );
    default:
      return null;
  }
}

function FreeOffer({ channel }: { channel: Channel }) {
  return (
    <section className="insights-subscribe-offer" aria-labelledby="free-access">
      <h2 id="free-access">Free access</h2>
      <p>
        {channel.type === 'freeOpen'
          ? `${channel.name} is free: subscribe to read its articles and get an email when a new one is published.`
          : `${channel.name} is free for approved readers: the channel's team reviews each request and we email you the answer.`}
      </p>
      <ChannelCardActions channel={channel} />
    </section>
  );
}

export const SUBSCRIBE_PAGE_QUERY = gql`
  query SubscribePage($id: ID!) {
    channel(id: $id) {
      _id
      name
      description
      type
      price
      state
      ...ChannelCardActions_channel
    }
  }
`;
