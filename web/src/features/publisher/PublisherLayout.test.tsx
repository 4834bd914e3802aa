import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Role } from '../../lib/access';
import { testConfig, testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { publisherSidebarItems } from './sidebar';

// The screens behind these routes query the server; these tests are about the shell around them.
vi.mock('../articles/ArticleList', () => ({ default: () => <h1>Articles</h1> }));
vi.mock('../articles/editor/ArticleEditor', () => ({ default: () => <h1>Article editor</h1> }));
vi.mock('../templates/TemplateList', () => ({ default: () => <h1>Templates</h1> }));
vi.mock('../templates/TemplateForm', () => ({ default: () => <h1>Template</h1> }));

const texts = (role: Role, premiumChannels: boolean) => publisherSidebarItems(role, { premiumChannels }).map((i) => i.text);

describe('publisherSidebarItems', () => {
  it('gives administrators every section, with Channels and Topics when premium channels are on', () => {
    expect(texts('Administrator', true)).toEqual([
      'Articles',
      'Templates',
      'Channels',
      'Topics',
      'Tags',
      'Users',
      'Desks',
      'Promotional Content',
      'Interests',
      'Reader questions',
    ]);
  });

  it('says Categories and hides Channels when premium channels are off', () => {
    expect(texts('Administrator', false)).toEqual([
      'Articles',
      'Templates',
      'Categories',
      'Tags',
      'Users',
      'Desks',
      'Promotional Content',
      'Interests',
      'Reader questions',
    ]);
    expect(publisherSidebarItems('Editor', { premiumChannels: false }).find((i) => i.text === 'Categories')?.to).toBe(
      '/publisher/categories',
    );
  });

  it.each<Role>(['Editor', 'Contributor'])('leaves Promotional Content and Interests out for %s', (role) => {
    expect(texts(role, true)).toEqual(['Articles', 'Templates', 'Channels', 'Topics', 'Tags', 'Users', 'Desks']);
  });

  it('links each section to its route', () => {
    expect(Object.fromEntries(publisherSidebarItems('Administrator', { premiumChannels: true }).map((i) => [i.text, i.to]))).toEqual({
      Articles: '/publisher/articles',
      Templates: '/publisher/templates',
      Channels: '/publisher/premium-channels',
      Topics: '/publisher/topics',
      Tags: '/publisher/tags',
      Users: '/publisher/users',
      Desks: '/publisher/desks',
      'Promotional Content': '/publisher/promotional-content',
      Interests: '/publisher/interests',
      'Reader questions': '/publisher/chat-questions',
    });
  });
});

describe('PublisherLayout', () => {
  it('renders the sidebar as links and the section', async () => {
    renderApp({ path: '/publisher/articles', user: testUser('Editor') });
    const sidebar = await screen.findByRole('navigation', { name: 'Publisher' });
    const links = within(sidebar)
      .getAllByRole('link')
      .map((l) => l.textContent);
    expect(links).toEqual(['Articles', 'Templates', 'Channels', 'Topics', 'Tags', 'Users', 'Desks']);
    expect(within(sidebar).getByRole('link', { name: 'Articles' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByRole('heading', { name: 'Articles', level: 1 })).toBeInTheDocument();
  });

  it('follows the premium channels flag', async () => {
    renderApp({
      path: '/publisher/articles',
      user: testUser('Administrator'),
      config: testConfig({
        features: { ...testConfig().features, premiumChannels: false, premiumFeatures: true, cardPayments: false, intelligence: false },
      }),
    });
    const sidebar = await screen.findByRole('navigation', { name: 'Publisher' });
    expect(within(sidebar).getByRole('link', { name: 'Categories' })).toBeInTheDocument();
    expect(within(sidebar).queryByRole('link', { name: 'Channels' })).not.toBeInTheDocument();
    expect(within(sidebar).getByRole('link', { name: 'Promotional Content' })).toBeInTheDocument();
  });

  it('asks to resize the browser below the large breakpoint', async () => {
    renderApp({ path: '/publisher/articles', user: testUser('Administrator'), width: 800 });
    expect(await screen.findByText('Please resize your browser')).toBeInTheDocument();
    expect(screen.getByText(/cannot work on small devices/)).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Publisher' })).not.toBeInTheDocument();
  });
});
