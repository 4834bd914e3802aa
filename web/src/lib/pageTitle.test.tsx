import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Page } from '../components/Page';
import { useNavigationFocus } from './pageTitle';

function Shell() {
  const announcement = useNavigationFocus();
  return (
    <>
      <nav>
        <Link to="/tags">Tags</Link>
        <Link to="/desks">Desks</Link>
      </nav>
      <main>
        <Outlet />
      </main>
      <div aria-live="polite" data-testid="announcer">
        {announcement}
      </div>
    </>
  );
}

function renderApp() {
  const router = createMemoryRouter(
    [
      {
        element: <Shell />,
        children: [
          { path: '/tags', element: <Page title="Tags" /> },
          { path: '/desks', element: <Page title="Desks" /> },
        ],
      },
    ],
    { initialEntries: ['/tags'] },
  );
  render(<RouterProvider router={router} />);
}

describe('page titles and navigation', () => {
  it('titles the document after the page, leaves focus alone on the first page', () => {
    renderApp();
    expect(document.title).toBe('Tags – Insights');
    expect(document.body).toHaveFocus();
    expect(screen.getByTestId('announcer')).toHaveTextContent('');
  });

  it("moves focus to the new page's heading after a navigation and announces its title", async () => {
    const user = userEvent.setup();
    renderApp();
    await user.click(screen.getByRole('link', { name: 'Desks' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Desks' })).toHaveFocus();
    expect(document.title).toBe('Desks – Insights');
    expect(screen.getByTestId('announcer')).toHaveTextContent('Desks – Insights');
  });
});
