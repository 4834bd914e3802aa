//! For You at /for-you (spec 3 §2 'For You'): 'From your subscriptions' (the server's
//! recommendations: newest articles of the reader's channels and followed topics, leaving out those
//! read twice), 'Your channel subscriptions' with 'Manage subscriptions', 'Latest free
//! articles', a call to action to /channels when the reader holds no subscription, the topics the
//! reader follows (links to their pages, and to the topics directory to find more: spec 1 §1 has
//! readers browse by topic and follow topics), and 3 premium and 3 free channels picked at random
//! by the server (channels the reader holds last), stable for the page view. One query loads the
//! page; 'Load more' fetches further pages of one list.
import { gql } from '@apollo/client';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useMemo, useState, type ReactNode } from 'react';
import { Banner } from '../../components/Banner';
import { EmptyState } from '../../components/EmptyState';
import { LinkButton } from '../../components/LinkButton';
import { LoadingBlock } from '../../components/LoadingScreen';
import { Page } from '../../components/Page';
import { formatError } from '../../lib/errors';
import { useTopicWording } from '../../lib/topicWording';
import { TOPICS_PATH } from './browse/paths';
import type { ArticleCardArticle } from './common/ArticleCard';
import { ArticleCardList } from './common/ArticleCardList';
import { ChannelCard, type ChannelCardChannel } from './common/ChannelCard';
import { CHANNELS_PATH, SUBSCRIPTIONS_PATH } from './common/channelText';
import { TopicChips } from './common/TagChips';
import {
  ForYouArticlesPageDocument,
  ForYouRecommendedPageDocument,
  ForYouScreenDocument,
  type ForYouArticlesPageQueryVariables,
  type ForYouScreenQuery,
} from './__generated__/ForYou.generated';
import './reader.css';

/** Articles per page (spec 3 §9: 9 by default). */
export const FOR_YOU_PAGE_SIZE = 9;
/** Random channels shown per kind (spec 3 §9). */
export const RANDOM_CHANNELS = 3;
/** Followed topics listed before 'Show all'. */
export const FOLLOWED_TOPICS_SHOWN = 12;

type Subscription = ForYouScreenQuery['me']['channelSubscriptions'][number];
type ArticleParams = NonNullable<ForYouArticlesPageQueryVariables['params']>;

/** Subscriptions the reader holds now or has asked for; ended ones (expired, canceled, rejected) are left out. */
export function heldSubscriptions(subscriptions: readonly Subscription[]): Subscription[] {
  return subscriptions.filter((s) => s.subscriptionState === 'pending' || s.subscriptionState === 'paymentFailed' || s.isActive);
}

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  const id = `for-you-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section className="insights-reader-section" aria-labelledby={id}>
      <div className="insights-reader-section-head">
        <h2 id={id}>{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** A further page of a list: the page number (from 2) in, its articles out. */
type FetchPage = (page: number) => Promise<readonly ArticleCardArticle[]>;

/** getArticles pages of `params`; 'Load more' while the server says more follow (no count needed). */
function LatestArticles({
  label,
  params,
  first,
  emptyMessage,
}: {
  label: string;
  params: ArticleParams;
  first: { articles: readonly ArticleCardArticle[]; hasMore: boolean };
  emptyMessage: string;
}) {
  const client = useApolloClient();
  const fetchPage: FetchPage = async (page) => {
    const { data } = await client.query({ query: ForYouArticlesPageDocument, variables: { params, first: FOR_YOU_PAGE_SIZE, page } });
    return data?.getArticles.articles ?? [];
  };
  return (
    <PagedArticles
      label={label}
      first={first.articles}
      hasMore={(pages, lastCount) => (pages === 1 ? first.hasMore : lastCount === FOR_YOU_PAGE_SIZE)}
      fetchPage={fetchPage}
      emptyMessage={emptyMessage}
    />
  );
}

/** me.recommendedArticles, page by page; 'Load more' while the last page came full. */
function RecommendedArticles({ first }: { first: readonly ArticleCardArticle[] }) {
  const client = useApolloClient();
  const fetchPage: FetchPage = async (page) => {
    const variables = { take: FOR_YOU_PAGE_SIZE, skip: (page - 1) * FOR_YOU_PAGE_SIZE };
    const { data } = await client.query({ query: ForYouRecommendedPageDocument, variables });
    return data?.me.recommendedArticles ?? [];
  };
  return (
    <PagedArticles
      label="From your subscriptions"
      first={first}
      hasMore={(pages, lastCount) => lastCount === FOR_YOU_PAGE_SIZE && pages < 50}
      fetchPage={fetchPage}
      emptyMessage="Your channels and topics have not published any articles yet"
    />
  );
}

/** The first page from the screen's query, then further pages fetched on 'Load more'. */
function PagedArticles({
  label,
  first,
  hasMore,
  fetchPage,
  emptyMessage,
}: {
  label: string;
  first: readonly ArticleCardArticle[];
  /** Whether more pages follow, given the pages shown and the size of the last one. */
  hasMore: (pages: number, lastCount: number) => boolean;
  fetchPage: FetchPage;
  emptyMessage: string;
}) {
  const [more, setMore] = useState<{ page: number; last: number; articles: ArticleCardArticle[] }>({
    page: 1,
    last: first.length,
    articles: [],
  });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const known = new Set(first.map((a) => a._id));
  // An article published meanwhile shifts the pages: leave out the ones already shown.
  const articles = [...first, ...more.articles.filter((a) => !known.has(a._id))];
  const loadMore = async () => {
    setLoading(true);
    setError(null);
    try {
      const page = more.page + 1;
      const fetched = await fetchPage(page);
      setMore({ page, last: fetched.length, articles: [...more.articles, ...fetched] });
    } catch (e) {
      setError(formatError(e));
    } finally {
      setLoading(false);
    }
  };
  return (
    <>
      <ArticleCardList
        label={label}
        articles={articles}
        emptyMessage={emptyMessage}
        hasMore={hasMore(more.page, more.last)}
        onLoadMore={() => void loadMore()}
        loadingMore={loading}
      />
      {error && (
        <p role="alert" className="insights-reader-error">
          {error}
        </p>
      )}
    </>
  );
}

/** The topics the reader follows, each linking to its page; the directory to find (more) to follow. */
function FollowedTopics({ topics }: { topics: readonly { _id: string; name: string }[] }) {
  const words = useTopicWording();
  const title = `${words.Many} you follow`;
  return (
    <Section title={title} action={<LinkButton to={TOPICS_PATH} text={`All ${words.many}`} icon="diagram-tree" />}>
      {topics.length > 0 ? (
        <TopicChips topics={topics} label={title} limit={FOLLOWED_TOPICS_SHOWN} />
      ) : (
        <p className="insights-reader-empty-text">
          You follow no {words.many} yet. Follow {words.many} to have their articles picked for you here.
        </p>
      )}
    </Section>
  );
}

function ChannelGrid({ label, channels }: { label: string; channels: readonly ChannelCardChannel[] }) {
  return (
    <ul aria-label={label} className="insights-channel-grid">
      {channels.map((c) => (
        <li key={c._id}>
          <ChannelCard channel={c} />
        </li>
      ))}
    </ul>
  );
}

export default function ForYou() {
  // One seed per page view: the random channels stay put while the page refetches.
  const [seed] = useState(() => Math.random());
  const { data, loading, error } = useQuery(ForYouScreenDocument, {
    variables: { first: FOR_YOU_PAGE_SIZE, pick: { count: RANDOM_CHANNELS, seed } },
    fetchPolicy: 'cache-and-network',
  });
  const held = useMemo(() => heldSubscriptions(data?.me.channelSubscriptions ?? []), [data]);

  return (
    <Page title="All the latest market insights, tailored for you.">
      {error && !data && (
        <Banner intent="danger" role="alert">
          {formatError(error)}
        </Banner>
      )}
      {loading && !data && <LoadingBlock label="Loading your articles" />}
      {data && (
        <>
          {(held.length > 0 || data.me.followedCategories.length > 0) && (
            <Section title="From your subscriptions">
              <RecommendedArticles first={data.me.recommendedArticles} />
            </Section>
          )}
          {held.length > 0 ? (
            <>
              <Section
                title="Your channel subscriptions"
                action={<LinkButton to={SUBSCRIPTIONS_PATH} text="Manage subscriptions" icon="cog" />}
              >
                <ChannelGrid label="Your channel subscriptions" channels={held.map((s) => s.channel)} />
              </Section>
            </>
          ) : (
            <section className="insights-reader-section" aria-label="Get started">
              <EmptyState
                icon="feed"
                title="You have no channel subscriptions yet"
                description={<p>Subscribe to channels to see their latest insights here.</p>}
                action={<LinkButton to={CHANNELS_PATH} text="Find channels and subscribe" intent="primary" />}
              />
            </section>
          )}
          <FollowedTopics topics={data.me.followedCategories} />
          <Section title="Latest free articles">
            <LatestArticles
              label="Latest free articles"
              params={{ freeOnly: true }}
              first={data.latestFree}
              emptyMessage="There are no free articles yet"
            />
          </Section>
          {data.premiumChannels.length > 0 && (
            <Section title="Premium channels" action={<LinkButton to={`${CHANNELS_PATH}?premium`} text="All premium channels" />}>
              <ChannelGrid label="Premium channels" channels={data.premiumChannels} />
            </Section>
          )}
          {data.freeChannels.length > 0 && (
            <Section title="Free channels" action={<LinkButton to={`${CHANNELS_PATH}?free`} text="All free channels" />}>
              <ChannelGrid label="Free channels" channels={data.freeChannels} />
            </Section>
          )}
        </>
      )}
    </Page>
  );
}

export const FOR_YOU_SCREEN_QUERY = gql`
  query ForYouScreen($first: Int!, $pick: RandomPick!) {
    me {
      _id
      channelSubscriptions {
        channelId
        subscriptionState
        isActive
        channel {
          _id
          ...ChannelCard_channel
        }
      }
      followedCategories {
        _id
        name
      }
      recommendedArticles(take: $first) {
        _id
        ...ArticleCard_article
      }
    }
    latestFree: getArticles(params: { freeOnly: true }, first: $first, page: 1) {
      articles {
        _id
        ...ArticleCard_article
      }
      hasMore
    }
    premiumChannels(pick: $pick) {
      _id
      ...ChannelCard_channel
    }
    freeChannels(pick: $pick) {
      _id
      ...ChannelCard_channel
    }
  }
`;

export const FOR_YOU_ARTICLES_PAGE_QUERY = gql`
  query ForYouArticlesPage($params: GetArticlesParams, $first: Int!, $page: Int!) {
    getArticles(params: $params, first: $first, page: $page) {
      articles {
        _id
        ...ArticleCard_article
      }
      hasMore
    }
  }
`;

export const FOR_YOU_RECOMMENDED_PAGE_QUERY = gql`
  query ForYouRecommendedPage($take: Int!, $skip: Int!) {
    me {
      _id
      recommendedArticles(take: $take, skip: $skip) {
        _id
        ...ArticleCard_article
      }
    }
  }
`;
