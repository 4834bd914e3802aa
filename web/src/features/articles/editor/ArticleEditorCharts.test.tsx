import type { MockLink } from '@apollo/client/testing';
import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { RichTextEditorProps } from '../../../components/richtext/RichTextEditor';
import type { ClientConfig } from '../../../lib/config';
import { testConfig, testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { ArticleEditorArticleDocument, ArticleEditorContextDocument } from './__generated__/ArticleEditor.generated';
import { articleRecord, IDS, meRecord } from './testData';

// The body editor has its own tests (the chart picker among them); here it only shows whether it
// was asked to offer the chart button.
vi.mock('../../../components/richtext/RichTextEditor', async () => {
  const { createElement } = await import('react');
  return {
    RichTextEditor: ({ chartsEnabled = false, ariaLabel = 'Article body' }: RichTextEditorProps) =>
      createElement('textarea', { 'aria-label': ariaLabel, 'aria-description': chartsEnabled ? 'charts on' : 'charts off' }),
  };
});
vi.mock('../../../components/pickers/TopicTreePicker', () => ({ TopicTreePicker: () => null }));
vi.mock('../../../components/pickers/TagPicker', () => ({ TagPicker: () => null }));

const TABLEAU: ClientConfig['tableau'] = {
  serverUrl: 'https://tableau.example',
  site: 'research',
  embeddingScriptUrl: 'https://tableau.example/javascripts/api/tableau.embedding.3.latest.min.js',
};

function mocks(tableauAccess: boolean): MockLink.MockedResponse[] {
  const record = articleRecord();
  return [
    {
      request: { query: ArticleEditorContextDocument },
      result: { data: { me: meRecord({ tableauAccess }), promotionalContentOptions: [] } },
      maxUsageCount: Number.POSITIVE_INFINITY,
    },
    { request: { query: ArticleEditorArticleDocument, variables: { id: record._id } }, result: { data: { findArticleById: record } } },
  ];
}

function open(tableauAccess: boolean, tableau: ClientConfig['tableau']) {
  renderApp({
    path: `/publisher/articles/edit/${IDS.article}`,
    user: testUser('Editor'),
    config: testConfig({ tableau }),
    mocks: mocks(tableauAccess),
  });
}

beforeAll(async () => {
  await import('./ArticleEditor');
});

describe('the chart features of the article editor', () => {
  it('are offered to users with tableauAccess when Tableau is configured', async () => {
    open(true, TABLEAU);
    expect(await screen.findByRole('checkbox', { name: 'Display in chart section' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Article body' })).toHaveAccessibleDescription('charts on');
  });

  it('are hidden from users without tableauAccess', async () => {
    open(false, TABLEAU);
    expect(await screen.findByRole('textbox', { name: 'Article body' })).toHaveAccessibleDescription('charts off');
    expect(screen.queryByRole('checkbox', { name: 'Display in chart section' })).not.toBeInTheDocument();
  });

  it('are hidden when Tableau is not configured', async () => {
    open(true, null);
    expect(await screen.findByRole('textbox', { name: 'Article body' })).toHaveAccessibleDescription('charts off');
    expect(screen.queryByRole('checkbox', { name: 'Display in chart section' })).not.toBeInTheDocument();
  });
});
