//! All tags (/tag): a page of tags by name, each linking to its articles, with their article count.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/Button';
import { EmptyState } from '../../../components/EmptyState';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { tagPath } from '../common/channelText';
import { LoadErrorState } from './BrowseLayout';
import { BrowseTagsDocument } from './__generated__/TagDirectory.generated';
import './browse.css';

/** One of the sizes TagListParams accepts (15, 30, 50, 100, 200). */
export const TAG_PAGE_SIZE = 100;

export default function TagDirectory() {
  const [page, setPage] = useState(1);
  const { data, previousData, loading, error, refetch } = useQuery(BrowseTagsDocument, {
    variables: { params: { page, pageSize: TAG_PAGE_SIZE, sortField: 'Name', sortDirection: 'Asc' } },
  });
  // The previous page stays on screen while the next one loads.
  const tags = (data ?? previousData)?.tags;
  const pageCount = tags ? Math.max(1, Math.ceil(tags.total / TAG_PAGE_SIZE)) : 1;
  return (
    <Page title="Tags">
      {!tags ? (
        loading ? (
          <LoadingBlock label="Loading tags" />
        ) : (
          <LoadErrorState title="The tags could not be loaded" error={error} onRetry={() => void refetch()} />
        )
      ) : tags.items.length === 0 ? (
        <div className="insights-browse-state">
          <EmptyState icon="tag" title="There are no tags yet." />
        </div>
      ) : (
        <>
          <ul aria-label="Tags" className="insights-browse-tag-directory" aria-busy={loading || undefined}>
            {tags.items.map((tag) => (
              <li key={tag._id}>
                <Link to={tagPath(tag._id)}>{tag.name}</Link> <span className="insights-browse-link-detail">({tag.articleCount})</span>
              </li>
            ))}
          </ul>
          {pageCount > 1 && (
            <nav aria-label="Tag pages" className="insights-browse-pager">
              <Button text="Previous" icon="chevron-left" disabled={page <= 1} onClick={() => setPage(page - 1)} />
              <span>
                Page {page} of {pageCount}
              </span>
              <Button text="Next" endIcon="chevron-right" disabled={page >= pageCount} onClick={() => setPage(page + 1)} />
            </nav>
          )}
        </>
      )}
    </Page>
  );
}

export const BROWSE_TAGS_QUERY = gql`
  query BrowseTags($params: TagListParams) {
    tags(params: $params) {
      total
      items {
        _id
        name
        articleCount
      }
    }
  }
`;
