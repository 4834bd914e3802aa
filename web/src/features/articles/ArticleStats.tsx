//! Placeholder until the screen lands (issue 5).
import SectionPlaceholder from '../publisher/SectionPlaceholder';

export default function ArticleStats() {
  return <SectionPlaceholder title="ArticleStats" />;
}
