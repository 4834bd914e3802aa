import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { testConfig, testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';

async function nav() {
  return screen.findByRole('navigation', { name: 'Main' });
}

describe('TopNav', () => {
  it("shows reader links to everyone, and Publisher's Dashboard to staff on wide screens", async () => {
    renderApp({ path: '/for-you', user: testUser('Contributor'), width: 1280 });
    const bar = await nav();
    for (const name of ['For you', 'Channels', 'Topics', 'Subscriptions', "Publisher's Dashboard", 'Search']) {
      expect(within(bar).getByRole('link', { name })).toBeInTheDocument();
    }
    expect(within(bar).getByRole('link', { name: 'For you' })).toHaveAttribute('aria-current', 'page');
    expect(within(bar).getByRole('link', { name: 'Search' })).toHaveAttribute('href', '/search');
  });

  it('leads readers to the topics directory, worded by the premium channels flag', async () => {
    const { router } = renderApp({ path: '/for-you', user: testUser('Subscriber'), width: 1280 });
    const bar = await nav();
    expect(within(bar).getByRole('link', { name: 'Topics' })).toHaveAttribute('href', '/topics-page');
    await userEvent.click(within(bar).getByRole('link', { name: 'Topics' }));
    expect(router.state.location.pathname).toBe('/topics-page');
    // Marked once the directory's code has loaded (React keeps the old screen until then).
    await waitFor(() => expect(within(bar).getByRole('link', { name: 'Topics' })).toHaveAttribute('aria-current', 'page'), {
      timeout: 5000,
    });
  });

  it("says 'Categories' when premium channels are off", async () => {
    const config = testConfig();
    renderApp({
      path: '/for-you',
      user: testUser('Subscriber'),
      width: 1280,
      config: testConfig({ features: { ...config.features, premiumChannels: false } }),
    });
    const bar = await nav();
    expect(within(bar).getByRole('link', { name: 'Categories' })).toHaveAttribute('href', '/topics-page');
    expect(within(bar).queryByRole('link', { name: 'Topics' })).not.toBeInTheDocument();
  });

  it("hides Publisher's Dashboard from subscribers", async () => {
    renderApp({ path: '/for-you', user: testUser('Subscriber'), width: 1600 });
    const bar = await nav();
    expect(within(bar).getByRole('link', { name: 'Subscriptions' })).toBeInTheDocument();
    expect(within(bar).queryByRole('link', { name: "Publisher's Dashboard" })).not.toBeInTheDocument();
  });

  it("hides Publisher's Dashboard from staff below the large breakpoint", async () => {
    renderApp({ path: '/for-you', user: testUser('Administrator'), width: 1000 });
    const bar = await nav();
    expect(within(bar).queryByRole('link', { name: "Publisher's Dashboard" })).not.toBeInTheDocument();
  });

  it('opens the account menu with account, notifications, support and log out', async () => {
    const { auth, router } = renderApp({ path: '/for-you', user: testUser('Subscriber') });
    await userEvent.click(await screen.findByRole('button', { name: /\(Account menu\)$/ }));
    const menu = await screen.findByRole('menu', { name: 'Account menu' });
    expect(within(menu).getByRole('menuitem', { name: 'Manage account' })).toHaveAttribute('href', 'https://profile.example.com/');
    expect(within(menu).getByRole('menuitem', { name: 'Contact support' })).toHaveAttribute('href', 'mailto:support@example.com');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Manage email notifications' }));
    expect(router.state.location.pathname).toBe('/email-notifications');

    await userEvent.click(screen.getByRole('button', { name: /\(Account menu\)$/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    expect(auth.signOut).toHaveBeenCalled();
  });

  it('leaves Manage account out when there is no profile page', async () => {
    renderApp({ path: '/for-you', user: testUser('Subscriber'), config: testConfig({ profileLandingUrl: null }) });
    await userEvent.click(await screen.findByRole('button', { name: /\(Account menu\)$/ }));
    const menu = await screen.findByRole('menu', { name: 'Account menu' });
    expect(within(menu).queryByRole('menuitem', { name: 'Manage account' })).not.toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Contact support' })).toBeInTheDocument();
  });

  it('uses the mobile menu below the small breakpoint', async () => {
    const { router } = renderApp({ path: '/for-you', user: testUser('Subscriber'), width: 500 });
    const bar = await nav();
    expect(within(bar).queryByRole('button', { name: /Account menu/ })).not.toBeInTheDocument();
    await userEvent.click(within(bar).getByRole('button', { name: 'Menu' }));
    const menu = await screen.findByRole('menu', { name: 'Menu' });
    expect(within(menu).getByRole('menuitem', { name: 'Manage email notifications' })).toBeInTheDocument();
    // The phone's bar has no room for a fourth link: the topics directory is in the menu.
    expect(within(bar).queryByRole('link', { name: 'Topics' })).not.toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Topics' })).toHaveAttribute('href', '/topics-page');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Search' }));
    expect(router.state.location.pathname).toBe('/search');
    expect(await screen.findByRole('heading', { name: 'Search and explore' })).toBeInTheDocument();
  });
});
