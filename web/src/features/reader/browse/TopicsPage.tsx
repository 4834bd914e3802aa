//! All topics (/topics-page): the root topics with their sub-topics, each linking to its browse
//! page, as a directory readers can scan.
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { LoadErrorState } from './BrowseLayout';
import { topicPath } from './paths';
import { toTopicNodes, type TopicNode } from './topicTree';
import { BrowseTopicTreeDocument } from './__generated__/topicTree.generated';
import './browse.css';

export default function TopicsPage() {
  const { data, loading, error, refetch } = useQuery(BrowseTopicTreeDocument);
  const roots = data ? toTopicNodes(data.categoriesAsTree) : null;
  return (
    <Page title="Topics">
      {!roots ? (
        loading ? (
          <LoadingBlock label="Loading topics" />
        ) : (
          <LoadErrorState title="The topics could not be loaded" error={error} onRetry={() => void refetch()} />
        )
      ) : roots.length === 0 ? (
        <div className="insights-browse-state">
          <EmptyState icon="folder-close" title="There are no topics yet." />
        </div>
      ) : (
        <ul aria-label="Topics" className="insights-browse-topics">
          {roots.map((root) => (
            <li key={root._id} className="insights-browse-topic-group">
              <h2 className="insights-browse-topic-root">
                <Link to={topicPath(root._id)}>{root.name}</Link>
              </h2>
              {root.children.length > 0 ? (
                <SubTopics label={`${root.name} sub-topics`} topics={root.children} />
              ) : (
                <p className="insights-browse-empty-text">No sub-topics.</p>
              )}
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

function SubTopics({ label, topics }: { label?: string; topics: readonly TopicNode[] }) {
  return (
    <ul aria-label={label} className="insights-browse-subtopics">
      {topics.map((t) => (
        <li key={t._id}>
          <Link to={topicPath(t._id)}>{t.name}</Link>
          {t.children.length > 0 && <SubTopics topics={t.children} />}
        </li>
      ))}
    </ul>
  );
}
