import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testConfig, testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { TemplateChooserDocument } from './__generated__/TemplateChooser.generated';
import { CHOOSER_TITLE } from './TemplateChooser';
import { channel, OIL_DESK, TEMPLATE_IDS as ID, topic } from './testData';

const TEMPLATES = [
  {
    __typename: 'Template',
    _id: ID.morning,
    title: 'Morning report {{today}}',
    publishedBy: OIL_DESK,
    premiumChannel: channel(ID.oilChannel, 'Oil Weekly'),
    categories: [topic(ID.energy, 'Energy'), topic(ID.oil, 'Oil and refined products')],
  },
  {
    __typename: 'Template',
    _id: ID.weekly,
    title: 'Weekly outlook',
    publishedBy: null,
    premiumChannel: channel(ID.gasChannel, 'Gas Daily'),
    categories: [],
  },
];

const chooserMock = (templates: unknown[] = TEMPLATES): MockLink.MockedResponse => ({
  request: { query: TemplateChooserDocument },
  result: { data: { templates } },
  maxUsageCount: Number.POSITIVE_INFINITY,
});

const table = () => screen.getByRole('table', { name: 'Templates' });
const rows = () =>
  within(table())
    .getAllByRole<HTMLTableRowElement>('row')
    .slice(1)
    .map((r) => [...r.cells].map((c) => c.textContent));

beforeAll(async () => {
  await import('./TemplateChooser');
});

describe('TemplateChooser', () => {
  it('lists the templates and opens the editor from the chosen one', async () => {
    const user = userEvent.setup();
    const { router } = renderApp({ path: '/publisher/articles/add-from-template', user: testUser('Contributor'), mocks: [chooserMock()] });
    expect(await screen.findByRole('heading', { level: 1, name: CHOOSER_TITLE })).toBeInTheDocument();
    await within(table()).findByText('Weekly outlook');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Template', 'Channel', 'Publisher', 'Topics']);
    expect(rows()).toEqual([
      ['Morning report {{today}}', 'Oil Weekly', 'Oil desk', 'Energy, Oil and refi...'],
      ['Weekly outlook', 'Gas Daily', '', ''],
    ]);

    await user.type(screen.getByRole('searchbox', { name: 'Search templates...' }), 'gas');
    await waitFor(() => expect(rows()).toEqual([['Weekly outlook', 'Gas Daily', '', '']]));

    await user.click(screen.getByRole('link', { name: 'Weekly outlook' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/publisher/articles/add-from-template/${ID.weekly}`));
  });

  it('leaves the Channel column out when premium channels are off', async () => {
    const config = testConfig();
    renderApp({
      path: '/publisher/articles/add-from-template',
      user: testUser('Editor'),
      mocks: [chooserMock()],
      config: { ...config, features: { ...config.features, premiumChannels: false } },
    });
    await within(await screen.findByRole('table', { name: 'Templates' })).findByText('Weekly outlook');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Template', 'Publisher', 'Categories']);
  });

  it('says there are no templates and offers an Editor to create one', async () => {
    renderApp({ path: '/publisher/articles/add-from-template', user: testUser('Editor'), mocks: [chooserMock([])] });
    expect(await screen.findByText('There are no templates yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New template' })).toHaveAttribute('href', '/publisher/templates/add');
  });

  it('offers a Contributor no link to create a template', async () => {
    renderApp({ path: '/publisher/articles/add-from-template', user: testUser('Contributor'), mocks: [chooserMock([])] });
    expect(await screen.findByText('There are no templates yet')).toBeInTheDocument();
    expect(screen.getByText('An editor can create templates to start articles from.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New template' })).not.toBeInTheDocument();
  });
});
