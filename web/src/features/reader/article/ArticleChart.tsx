//! Chart blocks of an article (`<div data-chart-id="<view id>">`, inserted with the editor's chart
//! button) drawn as live Tableau views: the block's view id is looked up in `getTableauCharts` for
//! its path, and the view is embedded with the user's token (lib/tableau keeps it 5 minutes).
//! Users without tableauAccess get a note instead (the token is theirs alone); without Tableau in
//! the configuration the blocks draw nothing.
import { useMemo } from 'react';
import { useConfig } from '../../../lib/config';
import { useSession } from '../../../lib/session';
import { useTableauCharts, useTableauSettings, useTableauToken } from '../../../lib/tableau/hooks';
import { TableauViz } from '../../../lib/tableau/TableauViz';
import type { TableauSettings } from '../../../lib/tableau/tableau';
import type { ArticleBlockRenderer } from './ArticleBody';

export const CHART_ATTRIBUTE = 'data-chart-id';
export const CHART_NEEDS_ACCESS = 'This chart is available to users with Tableau access.';
export const CHART_GONE = 'This chart is no longer available.';
export const CHART_FAILED = 'The chart could not be loaded.';

/** The renderer of chart blocks for ArticleBody. */
export function useChartBlock(): ArticleBlockRenderer {
  const { tableau } = useConfig();
  const { tableauAccess } = useSession();
  const settings = useTableauSettings(tableauAccess);
  return useMemo(
    () => ({
      attribute: CHART_ATTRIBUTE,
      render: (id: string) => {
        if (!tableau) return null;
        if (!settings) return <p className="insights-article-chart-note">{CHART_NEEDS_ACCESS}</p>;
        return <ArticleChart id={id} settings={settings} />;
      },
    }),
    [tableau, settings],
  );
}

function ArticleChart({ id, settings }: { id: string; settings: TableauSettings }) {
  const charts = useTableauCharts();
  const token = useTableauToken(true);
  const chart = charts.data?.getTableauCharts.find((c) => c.id === id);

  let content;
  if (charts.error || token.error) {
    content = (
      <p role="alert" className="insights-article-chart-note">
        {CHART_FAILED}
      </p>
    );
  } else if (charts.data && !chart) {
    content = <p className="insights-article-chart-note">{CHART_GONE}</p>;
  } else if (!chart || !token.token) {
    content = (
      <p role="status" className="insights-article-chart-note">
        Loading the chart…
      </p>
    );
  } else {
    content = <TableauViz settings={settings} path={chart.path} token={token.token} title={chart.title} />;
  }
  return <div className="insights-article-chart">{content}</div>;
}
