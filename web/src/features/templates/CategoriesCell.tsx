//! The categories cell of the template lists (spec 2 §2 "Templates"): the names cut at 20
//! characters in a cell at most 150 px wide, the full list in its tooltip.
import { namesText, truncateText } from './templateText';
import './templates.css';

export function CategoriesCell({ categories }: { categories: readonly { name: string }[] }) {
  const full = namesText(categories);
  return (
    <span className="insights-template-categories" title={full || undefined}>
      {truncateText(full)}
    </span>
  );
}
