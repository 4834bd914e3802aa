import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense, type ComponentType } from 'react';
import { createMemoryRouter, Outlet, RouterProvider, useSearchParams } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useScreenSearchParams } from './useScreenSearchParams';

/** A list screen whose button writes `?q=late` (as its debounced search box would), and a next
 * screen whose code is still loading until `load()` is called. */
function setup(useParams: typeof useSearchParams) {
  function List() {
    const [params, setParams] = useParams();
    return (
      <button type="button" onClick={() => setParams({ q: 'late' }, { replace: true })}>
        Search {params.get('q') ?? ''}
      </button>
    );
  }
  let load = () => {};
  const Stats = lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve) => {
        load = () => resolve({ default: () => <h1>Stats</h1> });
      }),
  );
  const router = createMemoryRouter(
    [
      {
        // As in the app: one boundary above the screens, so a transition keeps the old screen drawn.
        element: (
          <Suspense fallback={null}>
            <Outlet />
          </Suspense>
        ),
        children: [
          { path: '/articles', element: <List /> },
          { path: '/stats', element: <Stats /> },
        ],
      },
    ],
    // As in the app, under a base path.
    { basename: '/insights', initialEntries: ['/insights/articles'] },
  );
  render(<RouterProvider router={router} />);
  return { router, load: () => load() };
}

describe('useScreenSearchParams', () => {
  it('writes the address while its screen is current', async () => {
    const { router } = setup(useScreenSearchParams);
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(router.state.location).toMatchObject({ pathname: '/insights/articles', search: '?q=late' });
    expect(screen.getByRole('button', { name: 'Search late' })).toBeInTheDocument();
  });

  it('drops a write that comes after a link was followed, while the next screen is still loading', async () => {
    const { router, load } = setup(useScreenSearchParams);
    await act(() => router.navigate('/stats'));
    // The old screen is still drawn: React keeps it until the next screen's code is there.
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(router.state.location.pathname).toBe('/insights/stats');
    await act(async () => load());
    expect(await screen.findByRole('heading', { name: 'Stats' })).toBeInTheDocument();
    expect(router.state.location).toMatchObject({ pathname: '/insights/stats', search: '' });
  });

  it("is needed: react-router alone puts the old screen's view into the next screen's address", async () => {
    const { router, load } = setup(useSearchParams);
    await act(() => router.navigate('/stats'));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await act(async () => load());
    expect(router.state.location).toMatchObject({ pathname: '/insights/stats', search: '?q=late' });
  });
});
