//! All topics (/topics-page): where readers browse by topic and find topics to follow (spec 1 §1).
//! The top-level topics come collapsed, each opening its sub-topics level by level (the disclosure
//! pattern: a button with aria-expanded controlling the list under it), so the 500-odd topics are
//! not one long page. A filter box finds topics at any level and shows each with its path. Every
//! topic links to its page, where it can be followed; the ones the reader follows say so.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Fragment, useId, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { InputField } from '../../../components/InputField';
import { LoadingBlock } from '../../../components/LoadingScreen';
import { Page } from '../../../components/Page';
import { useTopicWording, type TopicWording } from '../../../lib/topicWording';
import { useScreenSearchParams } from '../../../lib/useScreenSearchParams';
import { LoadErrorState } from './BrowseLayout';
import { topicPath } from './paths';
import { allTopics, findTopics, toTopicNodes, type TopicEntry, type TopicNode } from './topicTree';
import { TopicsPageFollowedDocument } from './__generated__/TopicsPage.generated';
import { BrowseTopicTreeDocument } from './__generated__/topicTree.generated';
import '../reader.css';
import './browse.css';

export default function TopicsPage() {
  const words = useTopicWording();
  const { data, loading, error, refetch } = useQuery(BrowseTopicTreeDocument);
  // Which topics the reader follows: a mark beside them (the page works without it).
  const followed = useQuery(TopicsPageFollowedDocument, { fetchPolicy: 'cache-and-network', errorPolicy: 'all' });
  const following = new Set((followed.data?.me.followedCategories ?? []).map((t) => t._id));
  const roots = data ? toTopicNodes(data.categoriesAsTree) : null;

  return (
    <Page title={words.Many}>
      {!roots ? (
        loading ? (
          <LoadingBlock label={`Loading ${words.many}`} />
        ) : (
          <LoadErrorState title={`The ${words.many} could not be loaded`} error={error} onRetry={() => void refetch()} />
        )
      ) : roots.length === 0 ? (
        <div className="insights-browse-state">
          <EmptyState icon="folder-close" title={`There are no ${words.many} yet.`} />
        </div>
      ) : (
        <TopicDirectory roots={roots} following={following} words={words} />
      )}
    </Page>
  );
}

interface DirectoryProps {
  roots: readonly TopicNode[];
  following: ReadonlySet<string>;
  words: TopicWording;
}

function TopicDirectory({ roots, following, words }: DirectoryProps) {
  // The filter is kept in the address (?q=), so coming back from a topic finds it again.
  const [params, setParams] = useScreenSearchParams();
  const filter = params.get('q') ?? '';
  const setFilter = (text: string) => setParams(text ? { q: text } : {}, { replace: true });
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string) => {
    const next = new Set(open);
    if (!next.delete(id)) next.add(id);
    setOpen(next);
  };

  const filtering = filter.trim() !== '';
  const found = filtering ? findTopics(roots, filter) : [];
  const status = filtering
    ? found.length === 0
      ? `No ${words.many} match '${filter.trim()}'.`
      : `${found.length} ${found.length === 1 ? `${words.one} matches` : `${words.many} match`} '${filter.trim()}'`
    : `${roots.length} top-level ${words.many}, ${allTopics(roots).length} in all`;

  return (
    <>
      <p className="insights-browse-description">
        Open a {words.one} to read its latest articles and follow it: the articles of the {words.many} you follow are picked for you on For
        you.
      </p>
      <div className="insights-topics-filter" role="search" aria-label={words.Many}>
        <InputField
          label={`Filter ${words.many}`}
          type="search"
          name="q"
          icon="search"
          placeholder="Type a name, e.g. crude oil"
          value={filter}
          onChange={setFilter}
        />
      </div>
      <p role="status" className="insights-browse-link-detail insights-topics-status">
        {status}
      </p>
      {filtering ? (
        found.length > 0 && <FoundTopics found={found} following={following} label={`${words.Many} found`} />
      ) : (
        <TopicBranch topics={roots} label={words.Many} open={open} onToggle={toggle} following={following} root />
      )}
    </>
  );
}

interface BranchProps {
  topics: readonly TopicNode[];
  label: string;
  open: ReadonlySet<string>;
  onToggle: (id: string) => void;
  following: ReadonlySet<string>;
  id?: string;
  root?: boolean;
}

/** One level of the tree: each topic with a button opening its sub-topics under it. */
function TopicBranch({ topics, label, open, onToggle, following, id, root = false }: BranchProps) {
  return (
    <ul id={id} aria-label={label} className={root ? 'insights-topics-tree' : 'insights-topics-branch'}>
      {topics.map((topic) => (
        <TopicItem key={topic._id} topic={topic} open={open} onToggle={onToggle} following={following} root={root} />
      ))}
    </ul>
  );
}

function TopicItem({
  topic,
  open,
  onToggle,
  following,
  root,
}: Omit<BranchProps, 'topics' | 'label' | 'id'> & { topic: TopicNode; root: boolean }) {
  const branchId = useId();
  const count = topic.children.length;
  const isOpen = count > 0 && open.has(topic._id);
  return (
    <li className={root ? 'insights-topics-root' : undefined}>
      <div className="insights-topics-row">
        {count > 0 ? (
          <button
            type="button"
            className={`insights-topics-toggle${isOpen ? ' insights-topics-toggle-open' : ''}`}
            aria-expanded={isOpen}
            aria-controls={isOpen ? branchId : undefined}
            aria-label={`${topic.name} sub-topics`}
            title={isOpen ? 'Hide sub-topics' : 'Show sub-topics'}
            onClick={() => onToggle(topic._id)}
          />
        ) : (
          <span className="insights-topics-toggle-spacer" aria-hidden />
        )}
        <Link to={topicPath(topic._id)} className="insights-topics-link">
          {topic.name}
        </Link>
        {count > 0 && (
          <span className="insights-browse-link-detail">
            {count} {count === 1 ? 'sub-topic' : 'sub-topics'}
          </span>
        )}
        {following.has(topic._id) && <FollowingMark />}
      </div>
      {isOpen && (
        <TopicBranch
          id={branchId}
          topics={topic.children}
          label={`${topic.name} sub-topics`}
          open={open}
          onToggle={onToggle}
          following={following}
        />
      )}
    </li>
  );
}

/** The filter's finds: each topic with the topics above it. */
function FoundTopics({ found, following, label }: { found: readonly TopicEntry[]; following: ReadonlySet<string>; label: string }) {
  return (
    <ul aria-label={label} className="insights-topics-found">
      {found.map(({ topic, ancestors }) => (
        <FoundTopic key={topic._id} topic={topic} ancestors={ancestors} following={following.has(topic._id)} />
      ))}
    </ul>
  );
}

function FoundTopic({ topic, ancestors, following }: TopicEntry & { following: boolean }) {
  const pathId = useId();
  return (
    <li>
      <div className="insights-topics-row">
        <Link to={topicPath(topic._id)} className="insights-topics-link" aria-describedby={ancestors.length > 0 ? pathId : undefined}>
          {topic.name}
        </Link>
        {following && <FollowingMark />}
      </div>
      {ancestors.length > 0 && (
        <span id={pathId} className="insights-topics-path">
          in{' '}
          {ancestors.map((a, i) => (
            <Fragment key={a._id}>
              {/* Drawn 'Energy › Oil', read 'Energy, Oil'. */}
              {i > 0 && (
                <>
                  <span className="insights-visually-hidden">,</span>
                  <span aria-hidden>{' ›'}</span>{' '}
                </>
              )}
              {a.name}
            </Fragment>
          ))}
        </span>
      )}
    </li>
  );
}

function FollowingMark() {
  return <span className="insights-reader-tag insights-reader-topic insights-topics-following">Following</span>;
}

export const TOPICS_PAGE_FOLLOWED_QUERY = gql`
  query TopicsPageFollowed {
    me {
      _id
      followedCategories {
        _id
        name
      }
    }
  }
`;
