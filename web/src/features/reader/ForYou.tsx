import { ReaderPlaceholder } from './ReaderPlaceholder';

export default function ForYou() {
  return (
    <ReaderPlaceholder title="All the latest market insights, tailored for you.">
      Articles from your channels and topics will appear here.
    </ReaderPlaceholder>
  );
}
