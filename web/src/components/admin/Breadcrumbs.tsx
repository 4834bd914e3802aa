//! A breadcrumb trail (admin forms, stats pages): router links, the last item is the current page.
//! Blueprint's Breadcrumbs component would bring an overflow popover that these short trails never need.
import { Classes } from '@blueprintjs/core';
import { Link } from 'react-router';

export interface Crumb {
  text: string;
  /** A path inside the app; the current page has none. */
  to?: string;
}

export function Breadcrumbs({ items }: { items: readonly Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="insights-admin-breadcrumbs">
      <ol className={Classes.BREADCRUMBS}>
        {items.map((item, i) => (
          <li key={`${i}-${item.text}`}>
            {item.to ? (
              <Link to={item.to} className={Classes.BREADCRUMB}>
                {item.text}
              </Link>
            ) : (
              <span className={`${Classes.BREADCRUMB} ${Classes.BREADCRUMB_CURRENT}`} aria-current="page">
                {item.text}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
