//! One embedded view: Tableau's Embedding API v3 web component, `<tableau-viz src token>`, which the
//! API's module script (added to the page once) turns into the interactive chart. Made with the DOM
//! so its attributes are exactly Tableau's whether or not the script has defined the element yet.
import { useLayoutEffect, useRef } from 'react';
import { loadEmbeddingApi, vizUrl, type TableauSettings } from './tableau';

export interface TableauVizProps {
  settings: TableauSettings;
  /** `Workbook/View` (a chart's `path`). */
  path: string;
  token: string;
  /** Accessible name of the chart (its title). */
  title: string;
}

export function TableauViz({ settings, path, token, title }: TableauVizProps) {
  const ref = useRef<HTMLDivElement>(null);
  const src = vizUrl(settings, path);

  useLayoutEffect(() => {
    loadEmbeddingApi(settings.embeddingScriptUrl);
  }, [settings.embeddingScriptUrl]);

  useLayoutEffect(() => {
    const container = ref.current;
    if (!container) return;
    const viz = container.ownerDocument.createElement('tableau-viz');
    viz.setAttribute('src', src);
    viz.setAttribute('token', token);
    viz.setAttribute('toolbar', 'hidden');
    viz.setAttribute('hide-tabs', '');
    viz.setAttribute('width', '100%');
    container.replaceChildren(viz);
    return () => container.replaceChildren();
  }, [src, token]);

  return <div ref={ref} className="insights-tableau-viz" role="figure" aria-label={title} />;
}
