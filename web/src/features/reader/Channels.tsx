import { ReaderPlaceholder } from './ReaderPlaceholder';

export default function Channels() {
  return <ReaderPlaceholder title="Find channels and subscribe">The channel directory will appear here.</ReaderPlaceholder>;
}
