//! What a subscribe page shows until its channel is at hand (spec 3 §2, §5): a spinner, 'Channel
//! not found' for a NOT_FOUND answer, the error otherwise; an archived channel, which can no longer
//! be joined, sends the reader to the channels directory as the channel page does.
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Banner } from '../../../components/Banner';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { formatError } from '../../../lib/errors';
import { ChannelNotFound, isChannelNotFound } from '../common/ChannelNotFound';
import { CHANNELS_PATH } from '../common/channelText';

export interface ChannelQueryState {
  channel: { state?: 'active' | 'archived' } | null | undefined;
  loading: boolean;
  error?: unknown;
}

/** The screen to show instead of the page, or null once the channel can be shown. */
export function channelGate({ channel, loading, error }: ChannelQueryState, title: string): ReactNode | null {
  if (isChannelNotFound(error)) return <ChannelNotFound />;
  if (!channel) {
    if (loading) return <LoadingBlock label="Loading the channel" />;
    return (
      <Page title={title}>
        <Banner intent="danger" role="alert">
          {error ? formatError(error) : 'The channel could not be loaded.'}
        </Banner>
      </Page>
    );
  }
  if (channel.state === 'archived') return <Navigate to={CHANNELS_PATH} replace />;
  return null;
}
