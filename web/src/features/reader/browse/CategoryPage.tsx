//! Browse category page /browse/{categoryId} (spec 3 §2 'Browse category page'): breadcrumbs from
//! the topic tree, the cover image, Follow/Unfollow, the latest articles of the topic, and a
//! sidebar with its sub-topics, trending articles, channels, tags, desks and archive months.
//! An id that is not an ObjectId, or a topic the server does not know, shows 'Topic not found'.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router';
import { Breadcrumbs, type Crumb } from '../../../components/admin/Breadcrumbs';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { channelPath, imageUrl, isObjectId } from '../common/channelText';
import { TagChips } from '../common/TagChips';
import { ArticleFeed } from './ArticleFeed';
import { ArticleLinkList, BrowseLayout, isNotFoundError, LinkList, LoadErrorState, NotFoundState, SidebarSection } from './BrowseLayout';
import { FollowButton } from './FollowButton';
import { archivePath, deskPath, monthName, topicPath, TOPICS_PATH } from './paths';
import { topicPathTo, toTopicNodes, type TopicNode } from './topicTree';
import { BrowseCategoryDocument, BrowseCategorySidebarDocument } from './__generated__/CategoryPage.generated';
import { BrowseTopicTreeDocument } from './__generated__/topicTree.generated';

export default function CategoryPage() {
  const { categoryId } = useParams();
  if (!isObjectId(categoryId)) return <TopicNotFound />;
  // Keyed so that moving to another topic starts from a clean page (feed, dialogs).
  return <CategoryScreen key={categoryId} id={categoryId} />;
}

function TopicNotFound() {
  return (
    <NotFoundState
      title="Topic not found"
      description="This topic does not exist or was removed."
      backTo={TOPICS_PATH}
      backText="All topics"
    />
  );
}

function CategoryScreen({ id }: { id: string }) {
  const { data, loading, error, refetch } = useQuery(BrowseCategoryDocument, { variables: { id } });
  const tree = useQuery(BrowseTopicTreeDocument);
  const topic = data?.findCategoryById;

  if (!topic) {
    if (loading) return <LoadingBlock label="Loading the topic" />;
    if (isNotFoundError(error)) return <TopicNotFound />;
    return <LoadErrorState title="The topic could not be loaded" error={error} onRetry={() => void refetch()} />;
  }

  const path = topicPathTo(toTopicNodes(tree.data?.categoriesAsTree ?? []), id);
  const node = path.at(-1);
  const crumbs: Crumb[] = [
    { text: 'All topics', to: TOPICS_PATH },
    ...path.slice(0, -1).map((t) => ({ text: t.name, to: topicPath(t._id) })),
    { text: topic.name },
  ];
  const cover = imageUrl(topic.largeImage);

  return (
    <Page title={topic.name} breadcrumbs={<Breadcrumbs items={crumbs} />}>
      {cover && <img className="insights-browse-cover" src={cover} alt="" />}
      <div className="insights-browse-intro">
        {topic.description && <p className="insights-browse-description">{topic.description}</p>}
        <div className="insights-browse-follow">
          <FollowButton topic={topic} />
          <span className="insights-browse-link-detail">
            {topic.subscribersCount} {topic.subscribersCount === 1 ? 'follower' : 'followers'}
          </span>
        </div>
      </div>
      <BrowseLayout
        sidebarLabel={`More about ${topic.name}`}
        sidebar={<CategorySidebar id={id} subTopics={node?.children ?? []} loadingTree={tree.loading} />}
      >
        <ArticleFeed filter={{ categoryId: id }} emptyMessage="No articles have been published under this topic yet." />
      </BrowseLayout>
    </Page>
  );
}

function CategorySidebar({ id, subTopics, loadingTree }: { id: string; subTopics: readonly TopicNode[]; loadingTree: boolean }) {
  const { data, loading, error } = useQuery(BrowseCategorySidebarDocument, { variables: { categoryId: id } });
  const stat = data?.getBrowseStat;
  const months = data?.getLastMonthsWithArticles ?? [];
  // While loading, the lists say so instead of claiming to be empty.
  const pending = (text: string) => (loading ? 'Loading…' : error ? 'Could not be loaded.' : text);
  return (
    <>
      <SidebarSection title="Sub-topics">
        <LinkList
          label="Sub-topics"
          items={subTopics.map((t) => ({ key: t._id, to: topicPath(t._id), text: t.name }))}
          emptyText={loadingTree ? 'Loading…' : 'This topic has no sub-topics.'}
        />
      </SidebarSection>
      <SidebarSection title="Trending">
        <ArticleLinkList
          label="Trending articles"
          articles={stat?.trendingArticles ?? []}
          emptyText={pending('Nothing is trending here yet.')}
          limit={5}
        />
      </SidebarSection>
      <SidebarSection title="Channels">
        <LinkList
          label="Channels"
          items={(stat?.channels ?? []).map((c) => ({ key: c._id, to: channelPath(c._id), text: c.name }))}
          emptyText={pending('No channels publish under this topic yet.')}
          limit={10}
        />
      </SidebarSection>
      <SidebarSection title="Tags">
        {stat && stat.tags.length > 0 ? (
          <TagChips tags={stat.tags} />
        ) : (
          <p className="insights-browse-empty-text">{pending('No tags yet.')}</p>
        )}
      </SidebarSection>
      <SidebarSection title="Desks">
        <LinkList
          label="Desks"
          items={(stat?.desks ?? []).map((d) => ({ key: d._id, to: deskPath(d._id), text: d.name }))}
          emptyText={pending('No desks publish under this topic yet.')}
        />
      </SidebarSection>
      <SidebarSection title="Archives">
        <LinkList
          label="Archives"
          items={months.map((m) => ({ key: m.dateId, to: archivePath(m.dateId), text: `${monthName(m)} (${m.articleCount})` }))}
          emptyText={pending('No archived months yet.')}
          limit={12}
        />
      </SidebarSection>
    </>
  );
}

export const BROWSE_CATEGORY_QUERY = gql`
  query BrowseCategory($id: ID!) {
    findCategoryById(id: $id) {
      _id
      name
      description
      largeImage
      parent
      isFollowing
      subscribersCount
    }
  }

  query BrowseCategorySidebar($categoryId: ID) {
    getBrowseStat(categoryId: $categoryId) {
      trendingArticles {
        _id
        title
        publishDate
      }
      channels {
        _id
        name
      }
      tags {
        _id
        name
      }
      desks {
        _id
        name
      }
    }
    getLastMonthsWithArticles(categoryId: $categoryId) {
      dateId
      year
      month
      articleCount
    }
  }
`;
