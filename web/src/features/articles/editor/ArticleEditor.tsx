//! Placeholder until the screen lands (issue 5).
import SectionPlaceholder from '../../publisher/SectionPlaceholder';

export default function ArticleEditor() {
  return <SectionPlaceholder title="ArticleEditor" />;
}
