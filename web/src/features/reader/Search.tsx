//! Search at /search (spec 3 §2, §5): 'Search and explore'. The text searches after typing pauses
//! (the search debounce, 500 ms) and only once it has 2 characters or more and differs from the last
//! search; filters for topic, channel, desk, contributor, tag, dates, free/premium and 'only my
//! subscriptions'. Everything lives in the address (`searchView.ts`). Results show the matched text
//! with its highlights, the total, and 'More results' by cursor.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState } from 'react';
import { CheckboxField, SearchSelectField, SelectField, TreeSelectField, type TreeSelectNode } from '../../components/admin';
import { Button } from '../../components/Button';
import { ChipGroup } from '../../components/Chips';
import { InputField } from '../../components/InputField';
import { Page } from '../../components/Page';
import { useConfig } from '../../lib/config';
import { formatError } from '../../lib/errors';
import { useDebounced } from '../../lib/useDebounced';
import { useScreenSearchParams } from '../../lib/useScreenSearchParams';
import { ArticleCardList } from './common/ArticleCardList';
import { Highlight } from './highlight';
import {
  EMPTY_VIEW,
  hasFilters,
  MIN_SEARCH_LENGTH,
  readSearchView,
  searchArticlesParams,
  TOO_SHORT_TEXT,
  usableQuery,
  writeSearchView,
  type Access,
  type SearchView,
} from './searchView';
import {
  SearchFiltersDocument,
  SearchScreenDocument,
  SearchTagDocument,
  SearchTagsDocument,
  type SearchFiltersQuery,
} from './__generated__/Search.generated';
import './reader.css';

/** Results per page (spec 3 §9: 9 by default). */
export const SEARCH_PAGE_SIZE = 9;
/** Tags offered while searching for one. */
const TAG_MATCHES = 15;

const ACCESS_CHIPS = [
  { value: 'all', label: 'All articles' },
  { value: 'free', label: 'Free' },
  { value: 'premium', label: 'Premium' },
] as const;

type TopicNode = SearchFiltersQuery['categoriesAsTree'][number];
interface TagChoice {
  _id: string;
  name: string;
}

function topicNodes(nodes: readonly TopicNode[]): TreeSelectNode[] {
  const walk = (n: { _id: string; name: string; children?: readonly unknown[] }): TreeSelectNode => ({
    value: n._id,
    label: n.name,
    children: ((n.children ?? []) as { _id: string; name: string }[]).map(walk),
  });
  return nodes.map(walk);
}

const resultsText = (n: number) => (n === 1 ? '1 article found' : `${n} articles found`);

/** The tag filter: a search over tags; the chosen tag's name is looked up when it came from the address. */
function TagFilter({ tagId, onChange }: { tagId: string | null; onChange: (tag: TagChoice | null) => void }) {
  const [search, setSearch] = useState<string | null>(null);
  const [picked, setPicked] = useState<TagChoice | null>(null);
  const matches = useQuery(SearchTagsDocument, {
    variables: { params: { searchQuery: search || null, pageSize: TAG_MATCHES } },
    skip: search === null,
  });
  const known = picked && picked._id === tagId ? picked : null;
  const lookup = useQuery(SearchTagDocument, { variables: { id: tagId ?? '' }, skip: !tagId || !!known });
  const value = tagId
    ? (known ?? (lookup.data ? { _id: lookup.data.findTagById._id, name: lookup.data.findTagById.name } : { _id: tagId, name: 'Tag' }))
    : null;
  return (
    <SearchSelectField<TagChoice>
      label="Tag"
      name="tag"
      value={value}
      onChange={(tag) => {
        setPicked(tag);
        onChange(tag);
      }}
      onBlur={() => {}}
      items={(matches.data ?? matches.previousData)?.tags.items ?? []}
      itemKey={(t) => t._id}
      itemLabel={(t) => t.name}
      onSearch={setSearch}
      loading={matches.loading}
      failed={!!matches.error}
      listLabel="Matching tags"
      placeholder="Search tags..."
      noMatchesText="No matching tags"
      icon="tag"
    />
  );
}

export default function Search() {
  const config = useConfig();
  const topicWord = config.features.premiumChannels ? 'Topic' : 'Category';
  const [params, setParams] = useScreenSearchParams();
  const view = readSearchView(params);
  const update = (change: Partial<SearchView>) => setParams(writeSearchView({ ...view, ...change }));

  // The box's text; the address holds the last search. Back/forward change the address under it:
  // then the box shows the address's text again (adjusting state while rendering, as React advises).
  const [text, setText] = useState(view.q);
  const [shownQ, setShownQ] = useState(view.q);
  if (view.q !== shownQ) {
    setShownQ(view.q);
    setText(view.q);
  }
  const debounced = useDebounced(text, config.constants.searchDebounceMs || 500);
  const lastDebounced = useRef(debounced);
  useEffect(() => {
    if (lastDebounced.current === debounced) return;
    lastDebounced.current = debounced;
    const q = debounced.trim();
    // Too short: keep the last search. Unchanged (e.g. a trailing space): do not search again.
    if ((q.length > 0 && q.length < MIN_SEARCH_LENGTH) || q === view.q) return;
    setShownQ(q);
    setParams(writeSearchView({ ...view, q }));
  }, [debounced, view, setParams]);
  const tooShort = text.trim().length > 0 && text.trim().length < MIN_SEARCH_LENGTH;

  const filters = useQuery(SearchFiltersDocument, { errorPolicy: 'all' }).data;
  const variables = { params: searchArticlesParams(view), first: SEARCH_PAGE_SIZE };
  const { data, previousData, loading, error, fetchMore } = useQuery(SearchScreenDocument, { variables });
  const result = (data ?? previousData)?.searchArticles;
  const [fetchingMore, setFetchingMore] = useState(false);
  const more = async () => {
    if (!data?.searchArticles.pageInfo.endCursor) return;
    setFetchingMore(true);
    try {
      await fetchMore({
        // The total is counted once, with the first page.
        variables: { after: data.searchArticles.pageInfo.endCursor, withTotal: false },
        updateQuery: (previous, { fetchMoreResult }) => ({
          searchArticles: {
            ...fetchMoreResult.searchArticles,
            totalCount: previous.searchArticles.totalCount,
            documents: [...previous.searchArticles.documents, ...fetchMoreResult.searchArticles.documents],
          },
        }),
      });
    } finally {
      setFetchingMore(false);
    }
  };
  const documents = result?.documents ?? [];
  const highlights = new Map(documents.map((d) => [d.article._id, d.highlight]));
  const searched = usableQuery(view.q);

  return (
    <Page title="Search and explore">
      <form role="search" aria-label="Articles" onSubmit={(e) => e.preventDefault()}>
        <InputField
          label="Search articles"
          type="search"
          name="q"
          icon="search"
          placeholder="Search for words, phrases..."
          value={text}
          onChange={setText}
          helperText={tooShort ? TOO_SHORT_TEXT : undefined}
          intent={tooShort ? 'warning' : 'none'}
        />
        <div className="insights-search-filters">
          <TreeSelectField
            label={topicWord}
            name="topic"
            value={view.topic}
            noneLabel={`All ${topicWord.toLowerCase()}s`}
            nodes={topicNodes(filters?.categoriesAsTree ?? [])}
            onChange={(topic) => update({ topic })}
            onBlur={() => {}}
          />
          <SelectField
            label="Channel"
            name="channel"
            value={view.channel}
            noneLabel="All channels"
            options={(filters?.allChannels ?? []).map((c) => ({ value: c._id, label: c.name }))}
            onChange={(channel) => update({ channel })}
            onBlur={() => {}}
          />
          <SelectField
            label="Desk"
            name="desk"
            value={view.desk}
            noneLabel="All desks"
            options={(filters?.getBrowseStat.desks ?? []).map((d) => ({ value: d._id, label: d.name }))}
            onChange={(desk) => update({ desk })}
            onBlur={() => {}}
          />
          <SelectField
            label="Contributor"
            name="contributor"
            value={view.contributor}
            noneLabel="All contributors"
            options={(filters?.contributors ?? []).map((c) => ({ value: c._id, label: c.name }))}
            onChange={(contributor) => update({ contributor })}
            onBlur={() => {}}
          />
          <TagFilter tagId={view.tag} onChange={(tag) => update({ tag: tag?._id ?? null })} />
          <InputField label="From" type="date" name="from" value={view.from ?? ''} onChange={(from) => update({ from: from || null })} />
          <InputField label="To" type="date" name="to" value={view.to ?? ''} onChange={(to) => update({ to: to || null })} />
        </div>
        <div className="insights-search-options">
          <ChipGroup<Access> label="Article access" options={ACCESS_CHIPS} value={view.access} onChange={(access) => update({ access })} />
          <CheckboxField
            label="Only my subscriptions"
            name="mine"
            value={view.mine}
            onChange={(mine) => update({ mine })}
            onBlur={() => {}}
          />
          {hasFilters(view) && (
            <Button
              text="Clear filters"
              variant="minimal"
              icon="cross"
              onClick={() => setParams(writeSearchView({ ...EMPTY_VIEW, q: view.q }))}
            />
          )}
        </div>
      </form>
      <section aria-label="Search results">
        {result && (
          <p className="insights-search-total" role="status">
            {resultsText(result.totalCount ?? 0)}
            {searched && ` for '${searched}'`}
          </p>
        )}
        {/* The cards' titles are the page's second level: no heading stands between them and the h1. */}
        <ArticleCardList
          label="Search results"
          headingLevel={2}
          layout="list"
          articles={documents.map((d) => d.article)}
          loading={loading && !result}
          error={error ? formatError(error) : undefined}
          emptyMessage={searched ? `No articles match '${searched}'` : 'No articles match these filters'}
          excerpt={(article) => {
            const html = highlights.get(article._id);
            return html ? <Highlight html={html} /> : undefined;
          }}
          hasMore={!!data?.searchArticles.pageInfo.hasNextPage}
          onLoadMore={() => void more()}
          loadingMore={fetchingMore}
          loadMoreText="More results"
        />
      </section>
    </Page>
  );
}

export const SEARCH_SCREEN_QUERY = gql`
  query SearchScreen($params: SearchArticlesParams!, $first: Int!, $after: String, $withTotal: Boolean! = true) {
    searchArticles(params: $params, first: $first, after: $after) {
      totalCount @include(if: $withTotal)
      pageInfo {
        endCursor
        hasNextPage
      }
      documents {
        highlight
        article {
          _id
          ...ArticleCard_article
        }
      }
    }
  }
`;

export const SEARCH_FILTERS_QUERY = gql`
  query SearchFilters {
    categoriesAsTree {
      _id
      name
      children {
        _id
        name
        children {
          _id
          name
          children {
            _id
            name
            children {
              _id
              name
            }
          }
        }
      }
    }
    allChannels {
      _id
      name
    }
    getBrowseStat {
      desks {
        _id
        name
      }
    }
    contributors {
      _id
      name
    }
  }
`;

export const SEARCH_TAGS_QUERY = gql`
  query SearchTags($params: TagListParams) {
    tags(params: $params) {
      items {
        _id
        name
      }
      total
    }
  }
`;

export const SEARCH_TAG_QUERY = gql`
  query SearchTag($id: ID!) {
    findTagById(id: $id) {
      _id
      name
    }
  }
`;
