import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigProvider, type ClientConfig } from '../../../lib/config';
import { SessionProvider } from '../../../lib/session';
import { TableauChartsDocument, TableauTokenDocument } from '../../../lib/tableau/__generated__/tableau.generated';
import { testConfig, testUser } from '../../../testing/fixtures';
import { ArticleBody } from './ArticleBody';
import { CHART_FAILED, CHART_GONE, CHART_NEEDS_ACCESS, useChartBlock } from './ArticleChart';

const GAS = 'c3a1e2f0-0000-4000-8000-000000000001';
const OIL = 'c3a1e2f0-0000-4000-8000-000000000003';
const GONE = 'c3a1e2f0-0000-4000-8000-0000000000ff';
const SCRIPT = 'https://tableau.example/javascripts/api/tableau.embedding.3.latest.min.js';
const TABLEAU: ClientConfig['tableau'] = {
  serverUrl: 'https://tableau.example',
  site: 'research',
  embeddingScriptUrl: SCRIPT,
};

const block = (id: string) => `<div data-chart-id="${id}" class="editor-chart"></div>`;
const HTML = `<p>Before</p>${block(GAS)}<p>Between</p>${block(OIL)}${block(GONE)}`;

function chartsMock(): MockLink.MockedResponse {
  const chart = (id: string, title: string, path: string) => ({
    __typename: 'ChartsItem',
    id,
    title,
    path,
    image: `/tableau/views/${id}/image`,
  });
  return {
    request: { query: TableauChartsDocument },
    result: { data: { getTableauCharts: [chart(GAS, 'Gas Prices', 'Energy/GasPrices'), chart(OIL, 'Oil Supply', 'Energy/OilSupply')] } },
  };
}

function Body({ html }: { html: string }) {
  return <ArticleBody html={html} blocks={[useChartBlock()]} />;
}

function renderBody({ html = HTML, access = true, tableau = TABLEAU, mocks = [] as MockLink.MockedResponse[] } = {}) {
  return render(
    <ConfigProvider config={testConfig({ tableau })}>
      <SessionProvider user={testUser('Subscriber', { tableauAccess: access })}>
        <MockedProvider mocks={mocks}>
          <Body html={html} />
        </MockedProvider>
      </SessionProvider>
    </ConfigProvider>,
  );
}

const vizzes = () => [...document.querySelectorAll('tableau-viz')];

afterEach(() => document.head.querySelectorAll('script[data-tableau-embedding]').forEach((s) => s.remove()));

describe('chart blocks of an article', () => {
  it("embeds each chart's view with Tableau's web component and one token for the page", async () => {
    const token = vi.fn(() => ({
      data: {
        getTableauToken: { __typename: 'TableauToken', token: 'embed-token', expiresAt: new Date(Date.now() + 540_000).toISOString() },
      },
    }));
    renderBody({ mocks: [chartsMock(), { request: { query: TableauTokenDocument }, result: token }] });

    await waitFor(() => expect(vizzes()).toHaveLength(2));
    expect(vizzes().map((viz) => viz.getAttribute('src'))).toEqual([
      'https://tableau.example/t/research/views/Energy/GasPrices',
      'https://tableau.example/t/research/views/Energy/OilSupply',
    ]);
    for (const viz of vizzes()) expect(viz).toHaveAttribute('token', 'embed-token');
    expect(screen.getByRole('figure', { name: 'Gas Prices' })).toContainElement(vizzes()[0] as HTMLElement);
    expect(token).toHaveBeenCalledTimes(1);

    // A chart no longer in the project says so.
    expect(screen.getByText(CHART_GONE)).toBeInTheDocument();

    // The Embedding API is loaded once, as a module.
    const scripts = document.head.querySelectorAll('script[data-tableau-embedding]');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toHaveAttribute('src', SCRIPT);
    expect(scripts[0]).toHaveAttribute('type', 'module');
    // The text around the blocks stays.
    expect(screen.getByText('Between')).toBeInTheDocument();
  });

  it('tells users without tableauAccess, and asks the server nothing', async () => {
    renderBody({ access: false });
    expect(await screen.findAllByText(CHART_NEEDS_ACCESS)).toHaveLength(3);
    expect(vizzes()).toHaveLength(0);
    expect(document.head.querySelector('script[data-tableau-embedding]')).toBeNull();
  });

  it('draws nothing when Tableau is not configured', async () => {
    const { container } = renderBody({ tableau: null });
    await screen.findByText('Between');
    for (const element of container.querySelectorAll('[data-chart-id]')) expect(element).toBeEmptyDOMElement();
    expect(screen.queryByText(CHART_NEEDS_ACCESS)).not.toBeInTheDocument();
  });

  it('says when the chart cannot be loaded', async () => {
    const failure = {
      request: { query: TableauTokenDocument },
      result: { errors: [{ message: 'Tableau is not configured', extensions: { code: 'UNAVAILABLE' } }] },
    };
    renderBody({ html: block(GAS), mocks: [chartsMock(), failure] });
    expect(await screen.findByRole('alert')).toHaveTextContent(CHART_FAILED);
    expect(vizzes()).toHaveLength(0);
  });
});
