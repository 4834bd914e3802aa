//! A table's frame on the firm screens: on a narrow screen the table scrolls sideways inside it,
//! never the page (WCAG 1.4.10). A frame around a table with no control of its own is a named
//! group the keyboard can reach, so that it can still be scrolled (axe 'scrollable-region-focusable');
//! a group rather than a region, so that the page's landmarks stay its sections. A frame around a
//! list with controls (search, paging, row buttons) needs no stop of its own.
import type { ReactNode } from 'react';
import './firms.css';

export function TableScroll({ label, focusable = true, children }: { label: string; focusable?: boolean; children: ReactNode }) {
  return (
    <div className="insights-firm-scroll" role="group" aria-label={label} tabIndex={focusable ? 0 : undefined}>
      {children}
    </div>
  );
}
