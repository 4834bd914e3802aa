//! An article's tags as links to their pages (/tag/{_id}): the first 5, then 'Show all' (spec 3 §9).
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/Button';
import { tagPath } from './channelText';
import '../reader.css';

/** Tags shown before 'Show all'. */
export const TAGS_SHOWN = 5;

export interface TagChipsProps {
  tags: readonly { _id: string; name: string }[];
  /** The list's accessible name. */
  label?: string;
  limit?: number;
}

export function TagChips({ tags, label = 'Tags', limit = TAGS_SHOWN }: TagChipsProps) {
  const [all, setAll] = useState(false);
  if (tags.length === 0) return null;
  const shown = all ? tags : tags.slice(0, limit);
  return (
    <div className="insights-tag-chips-frame">
      <ul aria-label={label} className="insights-reader-tags">
        {shown.map((tag) => (
          <li key={tag._id}>
            <Link to={tagPath(tag._id)} className="insights-reader-tag">
              {tag.name}
            </Link>
          </li>
        ))}
      </ul>
      {tags.length > limit && (
        <Button variant="minimal" size="small" text={all ? 'Show fewer' : `Show all (${tags.length})`} onClick={() => setAll(!all)} />
      )}
    </div>
  );
}
