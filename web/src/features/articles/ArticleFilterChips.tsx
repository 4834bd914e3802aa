//! The chips of the article list's active filters ('Topic: Energy ×', 'Channel: Oil Weekly ×'), one
//! per id in the URL. The URL holds only ids, so each chip finds its name: topics from the list the
//! topic select loaded, publishers from the page's rows (else as a desk), tags, channels and
//! promotional content by their own lookups. A name that cannot be found shows as the id.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Button } from '../../components/Button';
import { FILTER_KEYS, type ArticleFilters, type FilterKey } from './articleListState';
import {
  ArticleFilterChannelDocument,
  ArticleFilterDeskDocument,
  ArticleFilterPromotionsDocument,
  ArticleFilterTagDocument,
} from './__generated__/ArticleFilterChips.generated';

export interface NamedRecord {
  _id: string;
  name: string;
}

export interface ArticleFilterChipsProps {
  filters: ArticleFilters;
  /** 'Topic' or 'Category' (spec 1 §1 wording). */
  topicWord: string;
  topics: readonly NamedRecord[];
  /** The publishers of the rows on screen. */
  publishers: readonly NamedRecord[];
  onRemove: (key: FilterKey, id: string) => void;
  onClear: () => void;
}

const KIND_WORDS: Record<Exclude<FilterKey, 'categoryId'>, string> = {
  publishedBy: 'Publisher',
  tagId: 'Tag',
  channel: 'Channel',
  promotionalContentId: 'Promotional content',
};

export function ArticleFilterChips({ filters, topicWord, topics, publishers, onRemove, onClear }: ArticleFilterChipsProps) {
  const chips = FILTER_KEYS.flatMap((key) => filters[key].map((id) => ({ key, id })));
  if (chips.length === 0) return null;
  return (
    <div role="group" aria-label="Active filters" className="insights-article-chips">
      {chips.map(({ key, id }) => {
        const remove = () => onRemove(key, id);
        const chip = `${key}:${id}`;
        switch (key) {
          case 'categoryId':
            return <FilterChip key={chip} kind={topicWord} name={topics.find((t) => t._id === id)?.name ?? id} onRemove={remove} />;
          case 'publishedBy':
            return <PublisherChip key={chip} id={id} publishers={publishers} onRemove={remove} />;
          case 'tagId':
            return <TagChip key={chip} id={id} onRemove={remove} />;
          case 'channel':
            return <ChannelChip key={chip} id={id} onRemove={remove} />;
          case 'promotionalContentId':
            return <PromotionChip key={chip} id={id} onRemove={remove} />;
        }
      })}
      {chips.length > 1 && <Button text="Clear filters" variant="minimal" size="small" onClick={onClear} />}
    </div>
  );
}

/** One chip: its text, and × to remove the filter. `name` null: still looking it up. */
export function FilterChip({ kind, name, onRemove }: { kind: string; name: string | null; onRemove: () => void }) {
  const text = `${kind}: ${name ?? '…'}`;
  return (
    <span className="insights-article-chip">
      <span>{text}</span>
      <Button icon="cross" variant="minimal" size="small" label={`Remove filter ${text}`} onClick={onRemove} />
    </span>
  );
}

interface LookupChipProps {
  id: string;
  onRemove: () => void;
}

function PublisherChip({ id, publishers, onRemove }: LookupChipProps & { publishers: readonly NamedRecord[] }) {
  const known = publishers.find((p) => p._id === id)?.name;
  // A contributor is not a desk: the lookup fails and the chip shows the id.
  const { data, error } = useQuery(ArticleFilterDeskDocument, { variables: { id }, skip: !!known });
  return <FilterChip kind={KIND_WORDS.publishedBy} name={known ?? data?.findDeskById.name ?? (error ? id : null)} onRemove={onRemove} />;
}

function TagChip({ id, onRemove }: LookupChipProps) {
  const { data, error } = useQuery(ArticleFilterTagDocument, { variables: { id } });
  return <FilterChip kind={KIND_WORDS.tagId} name={data?.findTagById.name ?? (error ? id : null)} onRemove={onRemove} />;
}

function ChannelChip({ id, onRemove }: LookupChipProps) {
  const { data, error } = useQuery(ArticleFilterChannelDocument, { variables: { id } });
  return <FilterChip kind={KIND_WORDS.channel} name={data?.channel.name ?? (error ? id : null)} onRemove={onRemove} />;
}

function PromotionChip({ id, onRemove }: LookupChipProps) {
  const { data, error } = useQuery(ArticleFilterPromotionsDocument);
  const name = data ? (data.promotionalContentOptions.find((p) => p._id === id)?.name ?? id) : error ? id : null;
  return <FilterChip kind={KIND_WORDS.promotionalContentId} name={name} onRemove={onRemove} />;
}

export const ARTICLE_FILTER_NAME_QUERIES = gql`
  query ArticleFilterDesk($id: ID!) {
    findDeskById(id: $id) {
      _id
      name
    }
  }

  query ArticleFilterTag($id: ID!) {
    findTagById(id: $id) {
      _id
      name
    }
  }

  query ArticleFilterChannel($id: ID!) {
    channel(id: $id) {
      _id
      name
    }
  }

  query ArticleFilterPromotions {
    promotionalContentOptions {
      _id
      name
    }
  }
`;
