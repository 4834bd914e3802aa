//! An article's tags or topics as links to their pages: the first 5, then 'Show all' (spec 3 §9).
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/Button';
import { topicPath } from '../browse/paths';
import { tagPath } from './channelText';
import '../reader.css';

/** Tags shown before 'Show all'. */
export const TAGS_SHOWN = 5;

interface Named {
  _id: string;
  name: string;
}

export interface LinkChipsProps {
  items: readonly Named[];
  /** The list's accessible name. */
  label: string;
  /** The page of one item. */
  pathOf: (id: string) => string;
  limit?: number;
  /** The chips' look: tags grey, topics tinted. */
  kind?: 'tag' | 'topic';
}

export function LinkChips({ items, label, pathOf, limit = TAGS_SHOWN, kind = 'tag' }: LinkChipsProps) {
  const [all, setAll] = useState(false);
  if (items.length === 0) return null;
  const shown = all ? items : items.slice(0, limit);
  return (
    <div className="insights-tag-chips-frame">
      <ul aria-label={label} className="insights-reader-tags">
        {shown.map((item) => (
          <li key={item._id}>
            <Link to={pathOf(item._id)} className={kind === 'topic' ? 'insights-reader-tag insights-reader-topic' : 'insights-reader-tag'}>
              {item.name}
            </Link>
          </li>
        ))}
      </ul>
      {items.length > limit && (
        <Button variant="minimal" size="small" text={all ? 'Show fewer' : `Show all (${items.length})`} onClick={() => setAll(!all)} />
      )}
    </div>
  );
}

export interface TagChipsProps {
  tags: readonly Named[];
  /** The list's accessible name. */
  label?: string;
  limit?: number;
}

/** Tags linking to /tag/{_id}. */
export function TagChips({ tags, label = 'Tags', limit }: TagChipsProps) {
  return <LinkChips items={tags} label={label} pathOf={tagPath} limit={limit} />;
}

export interface TopicChipsProps {
  topics: readonly Named[];
  /** The list's accessible name. */
  label: string;
  limit?: number;
}

/** Topics linking to their browse page /browse/{_id}, where the reader can follow them. */
export function TopicChips({ topics, label, limit }: TopicChipsProps) {
  return <LinkChips items={topics} label={label} pathOf={topicPath} limit={limit} kind="topic" />;
}
