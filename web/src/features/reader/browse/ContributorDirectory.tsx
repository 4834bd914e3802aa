//! All contributors (/contributor): staff with published articles, by name, with their position.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { LoadErrorState } from './BrowseLayout';
import { ContributorPhoto } from './ContributorPhoto';
import { contributorPath } from './paths';
import { BrowseContributorsDocument } from './__generated__/ContributorDirectory.generated';
import './browse.css';

export default function ContributorDirectory() {
  const { data, loading, error, refetch } = useQuery(BrowseContributorsDocument);
  const contributors = data?.contributors;
  return (
    <Page title="Contributors">
      {!contributors ? (
        loading ? (
          <LoadingBlock label="Loading contributors" />
        ) : (
          <LoadErrorState title="The contributors could not be loaded" error={error} onRetry={() => void refetch()} />
        )
      ) : contributors.length === 0 ? (
        <div className="insights-browse-state">
          <EmptyState icon="people" title="No contributors have published articles yet." />
        </div>
      ) : (
        <ul aria-label="Contributors" className="insights-browse-directory">
          {contributors.map((c) => (
            <li key={c._id} className="insights-browse-directory-item insights-browse-person">
              <ContributorPhoto contributor={c} size={40} />
              <div>
                <Link className="insights-browse-directory-name" to={contributorPath(c._id)}>
                  {c.name}
                </Link>
                {c.position && <p className="insights-browse-directory-text">{c.position}</p>}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

export const BROWSE_CONTRIBUTORS_QUERY = gql`
  query BrowseContributors {
    contributors {
      _id
      name
      position
      hasProfilePicture
    }
  }
`;
