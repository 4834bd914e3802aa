//! A topic's followers (spec 3 "Topic subscriber stats"): name, email, company and when they
//! followed, paged by the server (`categoryFollowers`). Reached from the Followers count.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useParams } from 'react-router';
import { AdminList, Breadcrumbs, useListState, type AdminColumn } from '../../components/admin';
import { Page } from '../../components/Page';
import { formatDateTime } from '../../lib/dates';
import { TopicFollowersDocument, type TopicFollowersQuery } from './__generated__/TopicSubscriberStats.generated';
import { useTopicWording } from './wording';

type Follower = TopicFollowersQuery['categoryFollowers']['items'][number];

const columns: AdminColumn<Follower>[] = [
  { key: 'name', title: 'Name', render: (f) => f.name },
  { key: 'email', title: 'Email', render: (f) => f.email },
  { key: 'company', title: 'Company', render: (f) => f.company ?? '' },
  { key: 'followedAt', title: 'Followed at', width: 180, render: (f) => formatDateTime(f.followedAt) },
];

export default function TopicSubscriberStats({ base }: { base: string }) {
  const { id = '' } = useParams();
  const words = useTopicWording();
  const [state, change] = useListState();
  const { data, previousData, loading, error, refetch } = useQuery(TopicFollowersDocument, {
    variables: { id, page: state.page, pageSize: state.pageSize },
    fetchPolicy: 'cache-and-network',
  });
  const shown = data ?? previousData;
  const topic = shown?.findCategoryById;

  return (
    <Page
      title={topic ? `${topic.name}: followers` : 'Followers'}
      breadcrumbs={
        <Breadcrumbs
          items={[
            { text: words.Many, to: base },
            ...(topic ? [{ text: topic.name, to: `${base}/edit/${topic._id}` }] : []),
            { text: 'Subscriber stats' },
          ]}
        />
      }
    >
      <AdminList
        label="Followers"
        columns={columns}
        rows={shown?.categoryFollowers.items ?? []}
        total={shown?.categoryFollowers.total ?? 0}
        rowKey={(f) => f._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={shown ? undefined : error}
        onRetry={() => void refetch()}
      />
    </Page>
  );
}

export const TOPIC_FOLLOWERS_QUERY = gql`
  query TopicFollowers($id: ID!, $page: Int!, $pageSize: Int!) {
    findCategoryById(id: $id) {
      _id
      name
      subscribersCount
    }
    categoryFollowers(categoryId: $id, page: $page, pageSize: $pageSize) {
      total
      items {
        _id
        name
        email
        company
        followedAt
      }
    }
  }
`;
