//! The topic (category) tree grid (spec 1 §2 "Topic/category list"): Name, Description, Articles,
//! Followers, Views; sub-topics open under their parent; the roots are paged (100 by default) and
//! every level is sorted by the chosen column. Followers link to the topic's subscriber stats.
import { useQuery } from '@apollo/client/react';
import { useMemo, useState } from 'react';
import { Button } from '../../components/Button';
import { Link } from 'react-router';
import { LinkButton } from '../../components/LinkButton';
import { AdminList, pageRows, sortTree, useListState, type AdminColumn } from '../../components/admin';
import { Page } from '../../components/Page';
import { ACCESS, hasAccess } from '../../lib/access';
import { useSession } from '../../lib/session';
import { TopicTreeDocument } from './__generated__/topicTree.generated';
import { MoveTopicDialog } from './MoveTopicDialog';
import { toTopicNodes, type TopicNode } from './topicTree';
import { useTopicWording } from './wording';

const sortValue = (node: TopicNode, key: string) => {
  switch (key) {
    case 'description':
      return node.description;
    case 'articles':
      return node.articleCount;
    case 'followers':
      return node.subscribersCount;
    case 'views':
      return node.views;
    default:
      return node.name;
  }
};

export default function TopicList({ base }: { base: string }) {
  const words = useTopicWording();
  const { role } = useSession();
  const [state, change] = useListState({ tree: true, sort: { key: 'name', direction: 'asc' } });
  const { data, loading, error, refetch } = useQuery(TopicTreeDocument, { fetchPolicy: 'cache-and-network' });

  const roots = useMemo(() => sortTree(toTopicNodes(data?.categoriesAsTree ?? []), state.sort, sortValue), [data, state.sort]);
  const [moving, setMoving] = useState<TopicNode | null>(null);
  const canSeeFollowers = hasAccess(role, ACCESS.channelSubscribers);

  const columns: AdminColumn<TopicNode>[] = [
    { key: 'name', title: 'Name', sortable: true, width: '25%', render: (t) => <Link to={`${base}/edit/${t._id}`}>{t.name}</Link> },
    { key: 'description', title: 'Description', sortable: true, render: (t) => t.description },
    { key: 'articles', title: 'Articles', sortable: true, numeric: true, width: 100, render: (t) => t.articleCount },
    {
      key: 'followers',
      title: 'Followers',
      sortable: true,
      numeric: true,
      width: 100,
      render: (t) =>
        canSeeFollowers ? (
          <Link
            to={`${base}/subscriber-stats/${t._id}`}
            aria-label={`${t.subscribersCount} ${t.subscribersCount === 1 ? 'follower' : 'followers'} of ${t.name}`}
          >
            {t.subscribersCount}
          </Link>
        ) : (
          t.subscribersCount
        ),
    },
    { key: 'views', title: 'Views', sortable: true, numeric: true, width: 100, render: (t) => t.views },
    {
      key: 'actions',
      title: 'Actions',
      width: 110,
      render: (t) => (
        <Button variant="minimal" size="small" icon="move" text="Move to…" label={`Move to… (${t.name})`} onClick={() => setMoving(t)} />
      ),
    },
  ];

  return (
    <Page title={words.Many}>
      <AdminList
        label={words.Many}
        columns={columns}
        rows={pageRows(roots, state)}
        total={roots.length}
        rowKey={(t) => t._id}
        state={state}
        onStateChange={change}
        loading={loading}
        error={data ? undefined : error}
        onRetry={() => void refetch()}
        tree={{ children: (t) => t.children, name: (t) => t.name }}
        actions={<LinkButton to={`${base}/add`} text={`Add ${words.one}`} icon="add" intent="primary" />}
      />
      {moving && (
        <MoveTopicDialog
          topic={moving}
          tree={roots}
          onClose={(moved) => {
            setMoving(null);
            if (moved) void refetch();
          }}
        />
      )}
    </Page>
  );
}
