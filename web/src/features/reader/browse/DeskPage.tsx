//! One desk (/desk/{_id}): its name, description and contact email, its contributors and channels,
//! and the latest articles it published.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router';
import { Breadcrumbs } from '../../../components/admin/Breadcrumbs';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { channelPath, isObjectId } from '../common/channelText';
import { ArticleFeed } from './ArticleFeed';
import { BrowseLayout, isNotFoundError, LinkList, LoadErrorState, NotFoundState, SidebarSection } from './BrowseLayout';
import { contributorPath, DESKS_PATH } from './paths';
import { BrowseDeskDocument } from './__generated__/DeskPage.generated';

export default function DeskPage() {
  const { id } = useParams();
  if (!isObjectId(id)) return <DeskNotFound />;
  return <DeskScreen key={id} id={id} />;
}

function DeskNotFound() {
  return (
    <NotFoundState title="Desk not found" description="This desk does not exist or was removed." backTo={DESKS_PATH} backText="All desks" />
  );
}

function DeskScreen({ id }: { id: string }) {
  const { data, loading, error, refetch } = useQuery(BrowseDeskDocument, { variables: { id } });
  const desk = data?.findDeskById;
  if (!desk) {
    if (loading) return <LoadingBlock label="Loading the desk" />;
    if (isNotFoundError(error)) return <DeskNotFound />;
    return <LoadErrorState title="The desk could not be loaded" error={error} onRetry={() => void refetch()} />;
  }
  return (
    <Page title={desk.name} breadcrumbs={<Breadcrumbs items={[{ text: 'Desks', to: DESKS_PATH }, { text: desk.name }]} />}>
      <div className="insights-browse-intro">
        {desk.description && <p className="insights-browse-description">{desk.description}</p>}
        {desk.email && (
          <p>
            Contact the desk: <a href={`mailto:${desk.email}`}>{desk.email}</a>
          </p>
        )}
      </div>
      <BrowseLayout
        sidebarLabel={`About ${desk.name}`}
        sidebar={
          <>
            <SidebarSection title="Contributors">
              <LinkList
                label="Contributors"
                items={desk.contributors.map((c) => ({ key: c._id, to: contributorPath(c._id), text: c.name }))}
                emptyText="This desk has no contributors yet."
              />
            </SidebarSection>
            <SidebarSection title="Channels">
              <LinkList
                label="Channels"
                items={desk.channels.map((c) => ({ key: c._id, to: channelPath(c._id), text: c.name }))}
                emptyText="This desk has no channels."
              />
            </SidebarSection>
          </>
        }
      >
        <ArticleFeed filter={{ deskId: id }} emptyMessage="This desk has not published any articles yet." />
      </BrowseLayout>
    </Page>
  );
}

export const BROWSE_DESK_QUERY = gql`
  query BrowseDesk($id: ID!) {
    findDeskById(id: $id) {
      _id
      name
      description
      email
      contributors {
        _id
        name
      }
      channels {
        _id
        name
      }
    }
  }
`;
