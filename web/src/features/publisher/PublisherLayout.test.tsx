import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Role } from '../../lib/access';
import { testConfig, testUser } from '../../testing/fixtures';
import { renderApp, setViewportWidth } from '../../testing/renderApp';
import { publisherSidebarItems } from './sidebar';

// The screens behind these routes query the server; these tests are about the shell around them.
// The article list stands in for a screen with state of its own: a counter.
vi.mock('../articles/ArticleList', async () => {
  const { useState } = await import('react');
  function ArticleList() {
    const [clicks, setClicks] = useState(0);
    return (
      <>
        <h1>Articles</h1>
        <button onClick={() => setClicks(clicks + 1)}>Clicked {clicks}</button>
      </>
    );
  }
  return { default: ArticleList };
});
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
      'Firms',
      'Promotional Content',
      'Interests',
      'Reader questions',
      'Audit trail',
      'Trial policy',
      'Disclosures',
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
      'Audit trail',
      'Trial policy',
      'Disclosures',
    ]);
    expect(publisherSidebarItems('Editor', { premiumChannels: false }).find((i) => i.text === 'Categories')?.to).toBe(
      '/publisher/categories',
    );
  });

  it.each<Role>(['Editor', 'Contributor'])('leaves Promotional Content and Interests out for %s', (role) => {
    expect(texts(role, true)).toEqual(['Articles', 'Templates', 'Channels', 'Topics', 'Tags', 'Users', 'Desks', 'Firms']);
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
      Firms: '/publisher/firms',
      'Promotional Content': '/publisher/promotional-content',
      Interests: '/publisher/interests',
      'Reader questions': '/publisher/chat-questions',
      'Audit trail': '/publisher/audit',
      'Trial policy': '/publisher/trial-policy',
      Disclosures: '/publisher/disclosures',
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
    expect(links).toEqual(['Articles', 'Templates', 'Channels', 'Topics', 'Tags', 'Users', 'Desks', 'Firms']);
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
    expect(within(sidebar).queryByRole('link', { name: 'Firms' })).not.toBeInTheDocument();
    expect(within(sidebar).getByRole('link', { name: 'Promotional Content' })).toBeInTheDocument();
  });

  it('asks to resize the browser below the large breakpoint', async () => {
    renderApp({ path: '/publisher/articles', user: testUser('Administrator'), width: 800 });
    expect(await screen.findByText('Please resize your browser')).toBeInTheDocument();
    expect(screen.getByText(/cannot work on small devices/)).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Publisher' })).not.toBeInTheDocument();
  });

  it('keeps the screen and its state through a moment below the breakpoint', async () => {
    renderApp({ path: '/publisher/articles', user: testUser('Administrator'), width: 1280 });
    await userEvent.click(await screen.findByRole('button', { name: 'Clicked 0' }));
    act(() => setViewportWidth(800));
    expect(await screen.findByText('Please resize your browser')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clicked 1' })).not.toBeInTheDocument();
    act(() => setViewportWidth(1280));
    expect(await screen.findByRole('button', { name: 'Clicked 1' })).toBeInTheDocument();
    expect(screen.queryByText('Please resize your browser')).not.toBeInTheDocument();
  });
});
