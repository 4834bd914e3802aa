//! A screen's frame: its heading (the page's only h1), the document title after it, and content.
import { H1 } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../lib/pageTitle';
import './Page.css';

export interface PageProps {
  title: string;
  /** Shown above the heading (admin forms: a breadcrumb). */
  breadcrumbs?: ReactNode;
  children?: ReactNode;
}

export function Page({ title, breadcrumbs, children }: PageProps) {
  useDocumentTitle(title);
  return (
    <section className="insights-page" aria-labelledby="page-title">
      {breadcrumbs}
      <H1 id="page-title" className="insights-page-title">
        {title}
      </H1>
      {children}
    </section>
  );
}

/** A full-screen message (sign-in states, access screens) centred on its own. */
export function MessageScreen({ children }: { children: ReactNode }) {
  return <main className="insights-message-screen">{children}</main>;
}
