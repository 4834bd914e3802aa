//! One contributor (/contributor/{_id}): photo, name, position and phone, the channels they publish
//! in and the desks they belong to, and their latest articles.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router';
import { Breadcrumbs } from '../../../components/admin/Breadcrumbs';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { channelPath, isObjectId } from '../common/channelText';
import { ArticleFeed } from './ArticleFeed';
import { BrowseLayout, isNotFoundError, LinkList, LoadErrorState, NotFoundState, SidebarSection } from './BrowseLayout';
import { ContributorPhoto } from './ContributorPhoto';
import { CONTRIBUTORS_PATH, deskPath } from './paths';
import { BrowseContributorDocument } from './__generated__/ContributorPage.generated';

export default function ContributorPage() {
  const { id } = useParams();
  if (!isObjectId(id)) return <ContributorNotFound />;
  return <ContributorScreen key={id} id={id} />;
}

function ContributorNotFound() {
  return <NotFoundState title="Contributor not found" backTo={CONTRIBUTORS_PATH} backText="All contributors" />;
}

function ContributorScreen({ id }: { id: string }) {
  const { data, loading, error, refetch } = useQuery(BrowseContributorDocument, { variables: { id } });
  const contributor = data?.findContributorById;
  if (!contributor) {
    if (loading) return <LoadingBlock label="Loading the contributor" />;
    if (isNotFoundError(error)) return <ContributorNotFound />;
    return <LoadErrorState title="The contributor could not be loaded" error={error} onRetry={() => void refetch()} />;
  }
  return (
    <Page
      title={contributor.name}
      breadcrumbs={<Breadcrumbs items={[{ text: 'Contributors', to: CONTRIBUTORS_PATH }, { text: contributor.name }]} />}
    >
      <div className="insights-browse-intro insights-browse-person">
        <ContributorPhoto contributor={contributor} size={96} />
        <dl className="insights-browse-facts">
          {contributor.position && (
            <>
              <dt>Position</dt>
              <dd>{contributor.position}</dd>
            </>
          )}
          {contributor.phone && (
            <>
              <dt>Phone</dt>
              <dd>
                <a href={`tel:${contributor.phone.replace(/[^\d+]/g, '')}`}>{contributor.phone}</a>
              </dd>
            </>
          )}
        </dl>
      </div>
      <BrowseLayout
        sidebarLabel={`About ${contributor.name}`}
        sidebar={
          <>
            <SidebarSection title="Channels">
              <LinkList
                label="Channels"
                items={contributor.channels.map((c) => ({ key: c._id, to: channelPath(c._id), text: c.name }))}
                emptyText="No channels yet."
              />
            </SidebarSection>
            <SidebarSection title="Desks">
              <LinkList
                label="Desks"
                items={contributor.desks.map((d) => ({ key: d._id, to: deskPath(d._id), text: d.name }))}
                emptyText="Not a member of any desk."
              />
            </SidebarSection>
          </>
        }
      >
        <ArticleFeed filter={{ contributorId: id }} emptyMessage="This contributor has not published any articles yet." />
      </BrowseLayout>
    </Page>
  );
}

export const BROWSE_CONTRIBUTOR_QUERY = gql`
  query BrowseContributor($id: ID!) {
    findContributorById(id: $id) {
      _id
      name
      position
      phone
      hasProfilePicture
      channels {
        _id
        name
      }
      desks {
        _id
        name
      }
    }
  }
`;
