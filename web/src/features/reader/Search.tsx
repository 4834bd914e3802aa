import { ReaderPlaceholder } from './ReaderPlaceholder';

export default function Search() {
  return (
    <ReaderPlaceholder title="Search and explore">Search across articles, topics, channels and tags will appear here.</ReaderPlaceholder>
  );
}
