import type { MockLink } from '@apollo/client/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testConfig, testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { TemplateListDocument } from './__generated__/TemplateList.generated';
import { channel, OIL_DESK, TEMPLATE_IDS, topic } from './testData';
import { truncateText, usedText } from './templateText';

function template(_id: string, title: string, overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Template',
    _id,
    title,
    canEdit: true,
    usedArticlesNumber: 0,
    created: '2024-01-05T12:00:00Z',
    lastEdited: '2024-02-10T12:00:00Z',
    publishedBy: OIL_DESK,
    premiumChannel: channel(TEMPLATE_IDS.oilChannel, 'Oil Weekly'),
    categories: [topic(TEMPLATE_IDS.energy, 'Energy')],
    ...overrides,
  };
}

const TEMPLATES = [
  template(TEMPLATE_IDS.morning, 'Morning report {{today}}', {
    usedArticlesNumber: 1,
    categories: [topic(TEMPLATE_IDS.energy, 'Energy'), topic(TEMPLATE_IDS.oil, 'Oil and refined products')],
  }),
  template(TEMPLATE_IDS.weekly, 'Weekly outlook', {
    usedArticlesNumber: 12,
    created: '2023-11-20T12:00:00Z',
    lastEdited: '2024-01-20T12:00:00Z',
  }),
  template(TEMPLATE_IDS.metals, 'Metals brief', {
    canEdit: false,
    publishedBy: null,
    premiumChannel: null,
    categories: [],
    created: '2024-02-01T12:00:00Z',
    lastEdited: '2024-03-01T12:00:00Z',
  }),
];

const templatesMock: MockLink.MockedResponse = {
  request: { query: TemplateListDocument },
  result: { data: { templates: TEMPLATES } },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

const table = () => screen.getByRole('table', { name: 'Templates' });
const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent);
const rows = () =>
  within(table())
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1)
    .map((r) => [...r.cells].map((c) => c.textContent));

beforeAll(async () => {
  await import('./TemplateList');
});

describe('template wording', () => {
  it("says 'no articles', '1 article' and 'N articles'", () => {
    expect([0, 1, 2, 12].map(usedText)).toEqual(['no articles', '1 article', '2 articles', '12 articles']);
  });

  it('cuts text at 20 characters', () => {
    expect(truncateText('Energy, Oil')).toBe('Energy, Oil');
    expect(truncateText('x'.repeat(20))).toBe('x'.repeat(20));
    expect(truncateText('Energy, Oil and refined products')).toBe('Energy, Oil and refi...');
  });
});

describe('TemplateList', () => {
  it('shows every column, the usage text, cut categories and the New template button for an Editor', async () => {
    renderApp({ path: '/publisher/templates', user: testUser('Editor'), mocks: [templatesMock] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Templates' })).toBeInTheDocument();
    await within(table()).findByText('Weekly outlook');
    expect(headers()).toEqual(['Template name', 'Publisher', 'Topics', 'Channel', '# used', 'Created', 'Last Edit']);
    expect(rows()).toEqual([
      ['Metals brief', '', '', '', 'no articles', '01 Feb 2024', '01 Mar 2024'],
      ['Morning report {{today}}', 'Oil desk', 'Energy, Oil and refi...', 'Oil Weekly', '1 article', '05 Jan 2024', '10 Feb 2024'],
      ['Weekly outlook', 'Oil desk', 'Energy', 'Oil Weekly', '12 articles', '20 Nov 2023', '20 Jan 2024'],
    ]);
    // The whole list of categories is in the cut cell's tooltip.
    expect(within(table()).getByText('Energy, Oil and refi...')).toHaveAttribute('title', 'Energy, Oil and refined products');
    expect(screen.getByText('Showing 1-3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New template' })).toHaveAttribute('href', '/publisher/templates/add');
  });

  it('links a template to its form only when the Editor may edit it', async () => {
    renderApp({ path: '/publisher/templates', user: testUser('Editor'), mocks: [templatesMock] });
    expect(await screen.findByRole('link', { name: 'Weekly outlook' })).toHaveAttribute(
      'href',
      `/publisher/templates/edit/${TEMPLATE_IDS.weekly}`,
    );
    expect(screen.getByRole('link', { name: 'Morning report {{today}}' })).toBeInTheDocument();
    expect(within(table()).getByText('Metals brief')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Metals brief' })).not.toBeInTheDocument();
  });

  it.each(['Administrator', 'Contributor'] as const)(
    'shows the list to the role %s without links or the New template button',
    async (role) => {
      renderApp({ path: '/publisher/templates', user: testUser(role), mocks: [templatesMock] });
      await within(await screen.findByRole('table', { name: 'Templates' })).findByText('Weekly outlook');
      expect(within(table()).queryAllByRole('link')).toEqual([]);
      expect(screen.queryByRole('link', { name: 'New template' })).not.toBeInTheDocument();
    },
  );

  it("hides the Channel column and says 'Categories' when premium channels are off", async () => {
    const config = testConfig();
    renderApp({
      path: '/publisher/templates',
      user: testUser('Editor'),
      mocks: [templatesMock],
      config: { ...config, features: { ...config.features, premiumChannels: false } },
    });
    await within(await screen.findByRole('table', { name: 'Templates' })).findByText('Weekly outlook');
    expect(headers()).toEqual(['Template name', 'Publisher', 'Categories', '# used', 'Created', 'Last Edit']);
    expect(within(table()).queryByText('Oil Weekly')).not.toBeInTheDocument();
  });

  it('sorts and searches in the browser', async () => {
    const user = userEvent.setup();
    renderApp({ path: '/publisher/templates', user: testUser('Editor'), mocks: [templatesMock] });
    await screen.findByRole('link', { name: 'Weekly outlook' });
    const names = () => rows().map((r) => r[0]);

    await user.click(screen.getByRole('button', { name: '# used' }));
    expect(names()).toEqual(['Metals brief', 'Morning report {{today}}', 'Weekly outlook']);
    await user.click(screen.getByRole('button', { name: 'Created' }));
    expect(names()).toEqual(['Weekly outlook', 'Morning report {{today}}', 'Metals brief']);
    await user.click(screen.getByRole('button', { name: 'Created' }));
    expect(names()).toEqual(['Metals brief', 'Morning report {{today}}', 'Weekly outlook']);
    await user.click(screen.getByRole('button', { name: 'Last Edit' }));
    expect(names()).toEqual(['Weekly outlook', 'Morning report {{today}}', 'Metals brief']);

    // A category name finds its template.
    await user.type(screen.getByRole('searchbox', { name: 'Search templates...' }), 'refined');
    expect(await screen.findByText('Showing 1-1 of 1')).toBeInTheDocument();
    expect(names()).toEqual(['Morning report {{today}}']);
    await user.clear(screen.getByRole('searchbox', { name: 'Search templates...' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search templates...' }), 'nothing');
    expect(await screen.findByText('There are no items to show')).toBeInTheDocument();
  });
});
