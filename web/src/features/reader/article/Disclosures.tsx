//! An article's disclosures (issue 40): its channel's and desk's regulatory texts, at the versions it
//! was published under, under the disclaimer. Each names its source and version, so a reader (or a
//! compliance officer) can tell which text applied.
import { useId } from 'react';

export interface ArticleDisclosure {
  scopeType: 'channel' | 'desk';
  scopeName?: string | null;
  version: number;
  /** Sanitised on the server when Administrators save it. */
  html: string;
}

export function Disclosures({ disclosures }: { disclosures: readonly ArticleDisclosure[] }) {
  const titleId = useId();
  if (disclosures.length === 0) return null;
  return (
    <section className="insights-article-disclaimer insights-article-disclosures" aria-labelledby={titleId}>
      <h2 id={titleId}>Disclosures</h2>
      {disclosures.map((d) => (
        <div key={`${d.scopeType}-${d.version}`} className="insights-article-disclosure">
          <h3>
            {d.scopeType === 'channel' ? 'Channel' : 'Desk'}
            {d.scopeName ? `: ${d.scopeName}` : ''} <span className="insights-article-disclosure-version">(version {d.version})</span>
          </h3>
          <div dangerouslySetInnerHTML={{ __html: d.html }} />
        </div>
      ))}
    </section>
  );
}
