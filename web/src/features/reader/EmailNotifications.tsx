import { ReaderPlaceholder } from './ReaderPlaceholder';

export default function EmailNotifications() {
  return <ReaderPlaceholder title="Email notifications">Your email notification settings will appear here.</ReaderPlaceholder>;
}
