//! Archives (/archives): the months with published articles, newest first, as 'Month YYYY (N)'.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { LoadErrorState } from './BrowseLayout';
import { archivePath, monthName } from './paths';
import { BrowseArchiveMonthsDocument } from './__generated__/ArchiveDirectory.generated';
import './browse.css';

export default function ArchiveDirectory() {
  const { data, loading, error, refetch } = useQuery(BrowseArchiveMonthsDocument);
  const months = data?.getLastMonthsWithArticles;
  return (
    <Page title="Archives">
      {!months ? (
        loading ? (
          <LoadingBlock label="Loading the archives" />
        ) : (
          <LoadErrorState title="The archives could not be loaded" error={error} onRetry={() => void refetch()} />
        )
      ) : months.length === 0 ? (
        <div className="insights-browse-state">
          <EmptyState icon="calendar" title="No articles have been published yet." />
        </div>
      ) : (
        <ul aria-label="Months" className="insights-browse-directory">
          {months.map((m) => (
            <li key={m.dateId} className="insights-browse-directory-item">
              <Link to={archivePath(m.dateId)}>
                {monthName(m)} ({m.articleCount})
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

export const BROWSE_ARCHIVE_MONTHS_QUERY = gql`
  query BrowseArchiveMonths {
    getLastMonthsWithArticles {
      dateId
      year
      month
      articleCount
    }
  }
`;
