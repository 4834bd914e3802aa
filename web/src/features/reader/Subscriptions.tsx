import { ReaderPlaceholder } from './ReaderPlaceholder';

export default function Subscriptions() {
  return <ReaderPlaceholder title="Your subscriptions">Your channel subscriptions will appear here.</ReaderPlaceholder>;
}
