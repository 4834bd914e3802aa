//! The checkout at /subscribe/channel/confirm/:channelId (spec 3 §2 'Checkout': business and tax
//! identification, billing information, payment). Card, clearing account and invoice payment come
//! with a later issue; until then 'Buy Premium access' leads here.
import { useParams } from 'react-router';
import { ChannelNotFound } from '../common/ChannelNotFound';
import { isObjectId, subscribePath } from '../common/channelText';
import { ReaderPlaceholder } from '../ReaderPlaceholder';

export default function CheckoutPlaceholder() {
  const { channelId } = useParams();
  if (!isObjectId(channelId)) return <ChannelNotFound />;
  return (
    <ReaderPlaceholder title="Checkout" back={{ to: subscribePath(channelId), text: 'Back to the subscription page' }}>
      Buying Premium access by card, clearing account or invoice is coming soon.
    </ReaderPlaceholder>
  );
}
