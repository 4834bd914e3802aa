import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Role } from '../../lib/access';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';

// The screens behind these routes query the server; these tests are about the shell around them.
vi.mock('../articles/ArticleList', () => ({ default: () => <h1>Articles</h1> }));
vi.mock('../articles/editor/ArticleEditor', () => ({ default: () => <h1>Article editor</h1> }));
vi.mock('../templates/TemplateList', () => ({ default: () => <h1>Templates</h1> }));
vi.mock('../templates/TemplateForm', () => ({ default: () => <h1>Template</h1> }));

async function landOn(path: string, role: Role, width: number) {
  const { router } = renderApp({ path, user: testUser(role), width });
  await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument());
  return router.state.location.pathname;
}

describe('redirects', () => {
  it.each<Role>(['Administrator', 'Editor', 'Contributor'])(
    'sends %s on a wide screen from the root to the articles list',
    async (role) => {
      expect(await landOn('/', role, 1200)).toBe('/publisher/articles');
    },
  );

  it.each<Role>(['Administrator', 'Editor', 'Contributor'])('sends %s on a narrower screen from the root to For You', async (role) => {
    expect(await landOn('/', role, 1199)).toBe('/for-you');
  });

  it('sends a subscriber from the root to For You, even on a wide screen', async () => {
    expect(await landOn('/', 'Subscriber', 1600)).toBe('/for-you');
    expect(screen.getByRole('heading', { name: 'All the latest market insights, tailored for you.' })).toBeInTheDocument();
  });

  it('sends unknown paths to For You', async () => {
    expect(await landOn('/no/such/page', 'Editor', 1280)).toBe('/for-you');
  });

  // /topics-page is the topics directory (features/reader/browse/TopicsPage).
  it.each(['/browse', '/topics'])('sends the root %s to the channels page', async (path) => {
    expect(await landOn(path, 'Subscriber', 1280)).toBe('/channels');
    expect(screen.getByRole('heading', { name: 'Find channels and subscribe' })).toBeInTheDocument();
  });

  it('sends /publisher to the articles list', async () => {
    expect(await landOn('/publisher', 'Administrator', 1280)).toBe('/publisher/articles');
  });
});
