//! 'Latest articles' of the channel page (spec 3 §2): chips All / Premium / Free, 10 articles at a
//! time newest first (`searchArticles` with the channel's id), 'More articles' by cursor.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { ChipGroup } from '../../components/Chips';
import { formatError } from '../../lib/errors';
import { ArticleCardList } from './common/ArticleCardList';
import { ChannelArticlesDocument } from './__generated__/ChannelArticles.generated';
import './reader.css';

/** Articles per page of the channel list (spec 3 §9). */
export const CHANNEL_PAGE_SIZE = 10;

type Access = 'all' | 'premium' | 'free';

const CHIPS = [
  { value: 'all', label: 'All' },
  { value: 'premium', label: 'Premium' },
  { value: 'free', label: 'Free' },
] as const;

const EMPTY: Record<Access, string> = {
  all: 'This channel has not published any articles yet',
  premium: 'This channel has no premium articles yet',
  free: 'This channel has no free articles yet',
};

export function ChannelArticles({ channelId }: { channelId: string }) {
  const [access, setAccess] = useState<Access>('all');
  const [fetchingMore, setFetchingMore] = useState(false);
  const params = { premiumChannelId: channelId, premiumOnly: access === 'premium', freeOnly: access === 'free' };
  const { data, loading, error, fetchMore } = useQuery(ChannelArticlesDocument, {
    variables: { params, first: CHANNEL_PAGE_SIZE },
    notifyOnNetworkStatusChange: false,
  });
  const result = data?.searchArticles;

  const more = async () => {
    if (!result?.pageInfo.endCursor) return;
    setFetchingMore(true);
    try {
      await fetchMore({
        variables: { after: result.pageInfo.endCursor },
        updateQuery: (previous, { fetchMoreResult }) => ({
          searchArticles: {
            ...fetchMoreResult.searchArticles,
            documents: [...previous.searchArticles.documents, ...fetchMoreResult.searchArticles.documents],
          },
        }),
      });
    } finally {
      setFetchingMore(false);
    }
  };

  return (
    <section className="insights-reader-section" aria-labelledby="channel-latest">
      <div className="insights-reader-section-head">
        <h2 id="channel-latest">Latest articles</h2>
        <ChipGroup label="Article access" options={CHIPS} value={access} onChange={setAccess} />
      </div>
      <ArticleCardList
        label="Latest articles"
        layout="list"
        hideChannel
        articles={result?.documents.map((d) => d.article) ?? []}
        loading={loading}
        error={error ? formatError(error) : undefined}
        emptyMessage={EMPTY[access]}
        hasMore={!!result?.pageInfo.hasNextPage}
        onLoadMore={() => void more()}
        loadingMore={fetchingMore}
        loadMoreText="More articles"
      />
    </section>
  );
}

export const CHANNEL_ARTICLES_QUERY = gql`
  query ChannelArticles($params: SearchArticlesParams!, $first: Int!, $after: String) {
    searchArticles(params: $params, first: $first, after: $after) {
      pageInfo {
        endCursor
        hasNextPage
      }
      documents {
        article {
          _id
          ...ArticleCard_article
        }
      }
    }
  }
`;
