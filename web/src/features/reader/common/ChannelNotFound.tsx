//! 'Channel not found' (spec 3 §2 'Channel page', §5: an id that is not an ObjectId, or one the
//! server does not know), shared by the channel page and the subscribe pages.
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { LinkButton } from '../../../components/LinkButton';
import { Page } from '../../../components/Page';
import { errorCode } from '../../../lib/errors';
import { CHANNELS_PATH } from './channelText';

/** The server's NOT_FOUND answer for a channel id. */
export function isChannelNotFound(error: unknown): boolean {
  return CombinedGraphQLErrors.is(error) && error.errors.some((e) => errorCode(e) === 'NOT_FOUND');
}

export function ChannelNotFound() {
  return (
    <Page title="Channel not found">
      <p>The channel may have been removed, or the link is wrong.</p>
      <LinkButton to={CHANNELS_PATH} text="Browse channels" icon="arrow-left" />
    </Page>
  );
}
