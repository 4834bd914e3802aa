//! All desks (/desk): each desk's name linking to its page and its contact email.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { LoadErrorState } from './BrowseLayout';
import { deskPath } from './paths';
import { BrowseDesksDocument } from './__generated__/DeskDirectory.generated';
import './browse.css';

export default function DeskDirectory() {
  const { data, loading, error, refetch } = useQuery(BrowseDesksDocument);
  const desks = data?.desks;
  return (
    <Page title="Desks">
      {!desks ? (
        loading ? (
          <LoadingBlock label="Loading desks" />
        ) : (
          <LoadErrorState title="The desks could not be loaded" error={error} onRetry={() => void refetch()} />
        )
      ) : desks.length === 0 ? (
        <div className="insights-browse-state">
          <EmptyState icon="office" title="There are no desks yet." />
        </div>
      ) : (
        <ul aria-label="Desks" className="insights-browse-directory">
          {desks.map((desk) => (
            <li key={desk._id} className="insights-browse-directory-item">
              <Link className="insights-browse-directory-name" to={deskPath(desk._id)}>
                {desk.name}
              </Link>
              {desk.description && <p className="insights-browse-directory-text">{desk.description}</p>}
              {desk.email && (
                <a className="insights-browse-directory-text" href={`mailto:${desk.email}`}>
                  {desk.email}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

export const BROWSE_DESKS_QUERY = gql`
  query BrowseDesks {
    desks {
      _id
      name
      description
      email
    }
  }
`;
