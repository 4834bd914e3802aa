//! Confirm interest at /subscribe/channel/confirm-interest/:channelId (spec 3 §2, §7): opening the
//! page registers the reader's interest in the channel (`notifyRegisteredChannelInterest`: its
//! admins are told by email) and thanks them. Spec 3 §8: a failed registration is only logged
//! (the Apollo error link logs it), so the reader is thanked either way.
import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { Breadcrumbs } from '../../../components/admin/Breadcrumbs';
import { EmptyState } from '../../../components/EmptyState';
import { LinkButton } from '../../../components/LinkButton';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { ChannelNotFound } from '../common/ChannelNotFound';
import { channelPath, CHANNELS_PATH, isObjectId } from '../common/channelText';
import { channelGate } from './channelGate';
import { ConfirmInterestPageDocument, RegisterChannelInterestDocument } from './__generated__/ConfirmInterestPage.generated';

const TITLE = 'Thank you for your interest';

export default function ConfirmInterestPage() {
  const { channelId } = useParams();
  if (!isObjectId(channelId)) return <ChannelNotFound />;
  return <ConfirmInterestScreen key={channelId} id={channelId} />;
}

function ConfirmInterestScreen({ id }: { id: string }) {
  const { data, loading, error } = useQuery(ConfirmInterestPageDocument, { variables: { id } });
  const [register, registration] = useMutation(RegisterChannelInterestDocument);
  const sent = useRef(false);
  useEffect(() => {
    // Once per page view (React's development double effects included).
    if (sent.current) return;
    sent.current = true;
    register({ variables: { channelId: id } }).catch(() => {});
  }, [id, register]);

  const gate = channelGate({ channel: data?.channel, loading, error }, TITLE);
  if (gate || !data) return gate;
  if (!registration.called || registration.loading) return <LoadingBlock label="Registering your interest" />;
  const channel = data.channel;
  const crumbs = [{ text: 'All channels', to: CHANNELS_PATH }, { text: channel.name, to: channelPath(channel._id) }, { text: 'Interest' }];
  return (
    <Page title={TITLE} breadcrumbs={<Breadcrumbs items={crumbs} />}>
      <EmptyState
        icon="tick-circle"
        title={`We have told the ${channel.name} team`}
        description={<p>They will contact you about Premium access to the channel.</p>}
        action={<LinkButton to={channelPath(channel._id)} text="View Channel" intent="primary" />}
      />
    </Page>
  );
}

export const CONFIRM_INTEREST_PAGE_QUERY = gql`
  query ConfirmInterestPage($id: ID!) {
    channel(id: $id) {
      _id
      name
      state
    }
  }
`;

export const REGISTER_CHANNEL_INTEREST_MUTATION = gql`
  mutation RegisterChannelInterest($channelId: ID!) {
    notifyRegisteredChannelInterest(channelId: $channelId)
  }
`;
