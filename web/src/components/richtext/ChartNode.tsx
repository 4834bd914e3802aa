//! A Tableau chart block (users with tableauAccess): `<div data-chart-id="<view id>" class="editor-chart">`,
//! which the reader page turns into the chart. The editor shows the chart's title when the chart
//! list is in Apollo's cache (the picker loaded it), else its id.
import { getApolloContext } from '@apollo/client/react';
import { $create, $getDocument, $getState, $setState, createState, DecoratorNode, type DOMExportOutput, type LexicalNode } from 'lexical';
import { useContext, type JSX } from 'react';
import { TableauChartsDocument } from '../../lib/tableau/__generated__/tableau.generated';
import { isChartId } from './rules';
import { BlockFrame } from './BlockFrame';

const idState = createState('chartId', { parse: (value: unknown) => (typeof value === 'string' ? value : '') });

export const CHART_CLASS = 'editor-chart';

export class ChartNode extends DecoratorNode<JSX.Element> {
  $config() {
    return this.config('insights-chart', {
      extends: DecoratorNode,
      stateConfigs: [{ stateConfig: idState, flat: true }],
      importDOM: {
        div: (element: HTMLElement) =>
          isChartId(element.getAttribute('data-chart-id') ?? '') ? { conversion: $convertChartElement, priority: 2 as const } : null,
      },
    });
  }

  getChartId(): string {
    return $getState(this, idState);
  }

  isInline(): boolean {
    return false;
  }

  createDOM(): HTMLElement {
    const div = $getDocument().createElement('div');
    // Shown, not typed in: the caret goes around the block.
    div.contentEditable = 'false';
    return div;
  }

  updateDOM(): boolean {
    return false;
  }

  exportDOM(): DOMExportOutput {
    const div = $getDocument().createElement('div');
    div.setAttribute('data-chart-id', this.getChartId());
    div.className = CHART_CLASS;
    return { element: div };
  }

  decorate(): JSX.Element {
    return <ChartBlock nodeKey={this.getKey()} chartId={this.getChartId()} />;
  }
}

function ChartBlock({ nodeKey, chartId }: { nodeKey: string; chartId: string }) {
  // Read from the cache only: no request from the editor (the block may be a user's without tableauAccess).
  const { client } = useContext(getApolloContext());
  const title = client?.readQuery({ query: TableauChartsDocument })?.getTableauCharts.find((chart) => chart.id === chartId)?.title;
  const label = `Tableau chart: ${title ?? chartId}`;
  return (
    <BlockFrame nodeKey={nodeKey} label={label}>
      <div className="insights-richtext-placeholder">{label}</div>
    </BlockFrame>
  );
}

function $convertChartElement(element: HTMLElement) {
  return { node: $createChartNode(element.getAttribute('data-chart-id') ?? '') };
}

export function $createChartNode(id: string): ChartNode {
  return $setState($create(ChartNode), idState, id);
}

export function $isChartNode(node: LexicalNode | null | undefined): node is ChartNode {
  return node instanceof ChartNode;
}
