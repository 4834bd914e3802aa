//! One tag (/tag/{_id}): 'All articles tagged {name}' (spec 3 §2), newest first.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router';
import { Breadcrumbs } from '../../../components/admin/Breadcrumbs';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { isObjectId } from '../common/channelText';
import { ArticleFeed } from './ArticleFeed';
import { isNotFoundError, LoadErrorState, NotFoundState } from './BrowseLayout';
import { TAGS_PATH } from './paths';
import { BrowseTagDocument } from './__generated__/TagPage.generated';

export default function TagPage() {
  const { id } = useParams();
  if (!isObjectId(id)) return <TagNotFound />;
  return <TagScreen key={id} id={id} />;
}

function TagNotFound() {
  return <NotFoundState title="Tag not found" backTo={TAGS_PATH} backText="All tags" />;
}

function TagScreen({ id }: { id: string }) {
  const { data, loading, error, refetch } = useQuery(BrowseTagDocument, { variables: { id } });
  const tag = data?.findTagById;
  if (!tag) {
    if (loading) return <LoadingBlock label="Loading the tag" />;
    if (isNotFoundError(error)) return <TagNotFound />;
    return <LoadErrorState title="The tag could not be loaded" error={error} onRetry={() => void refetch()} />;
  }
  return (
    <Page
      title={`All articles tagged ${tag.name}`}
      breadcrumbs={<Breadcrumbs items={[{ text: 'Tags', to: TAGS_PATH }, { text: tag.name }]} />}
    >
      {tag.description && <p className="insights-browse-description">{tag.description}</p>}
      <div className="insights-browse-wide">
        <ArticleFeed title="Articles" filter={{ tagId: id }} emptyMessage={`No articles are tagged ${tag.name} yet.`} />
      </div>
    </Page>
  );
}

export const BROWSE_TAG_QUERY = gql`
  query BrowseTag($id: ID!) {
    findTagById(id: $id) {
      _id
      name
      description
    }
  }
`;
