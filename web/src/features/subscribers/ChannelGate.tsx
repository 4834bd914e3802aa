//! The door of the subscriber add, edit and bulk screens (spec 3 §2, §6): they change
//! subscriptions, so an archived channel (read-only), a channel the user may not manage, or the
//! server's FORBIDDEN send the user back to the channels list; a load failure is shown.
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Breadcrumbs } from '../../components/admin';
import { Banner } from '../../components/Banner';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { formatError, hasErrorCode } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { channelAccess, type SubscriberChannel } from './subscriberChannel';
import { CHANNELS_PATH } from './subscriberText';

export interface ChannelGateProps {
  channel: SubscriberChannel | null | undefined;
  loading: boolean;
  error: unknown;
  /** The screen's title, for the failure page. */
  title: string;
  children: (channel: SubscriberChannel) => ReactNode;
}

export function ChannelGate({ channel, loading, error, title, children }: ChannelGateProps) {
  const me = useSession();
  if (hasErrorCode(error, 'FORBIDDEN')) return <Navigate to={CHANNELS_PATH} replace />;
  if (channel) {
    if (channelAccess(channel, me) !== 'manage') return <Navigate to={CHANNELS_PATH} replace />;
    return <>{children(channel)}</>;
  }
  if (loading) return <LoadingBlock />;
  return (
    <Page title={title} breadcrumbs={<Breadcrumbs items={[{ text: 'Channels', to: CHANNELS_PATH }, { text: title }]} />}>
      <Banner intent="danger" role="alert">
        {formatError(error)}
      </Banner>
    </Page>
  );
}
