import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SessionDocument } from '../lib/__generated__/session.generated';
import { browser } from '../lib/browser';
import { testConfig, testUser } from '../testing/fixtures';
import { fakeAuth, fakeOidcUser, renderApp } from '../testing/renderApp';

describe('RequireAuth', () => {
  it('starts the sign-in for any page when nobody is signed in, remembering the page', async () => {
    const auth = fakeAuth({ user: null });
    renderApp({ path: '/channels?premium', auth });
    await waitFor(() => expect(auth.signIn).toHaveBeenCalledWith('/channels?premium'));
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('tries a refresh-token renewal before redirecting an expired user', async () => {
    const expired = { ...fakeOidcUser(), expired: true } as never;
    const auth = fakeAuth({ user: expired, renew: vi.fn(async () => null) });
    renderApp({ path: '/for-you', auth });
    await waitFor(() => expect(auth.signIn).toHaveBeenCalledWith('/for-you'));
    expect(auth.renew).toHaveBeenCalled();
  });

  it('starts no new sign-in while signing out, even once the user is gone', async () => {
    const auth = fakeAuth({ user: null, signingOut: true });
    renderApp({ path: '/for-you', auth });
    expect(await screen.findByLabelText('Signing you out')).toBeInTheDocument();
    expect(auth.signIn).not.toHaveBeenCalled();
  });

  it('does not start a sign-in on /loggedout, and offers to sign in again', async () => {
    const auth = fakeAuth({ user: null });
    renderApp({ path: '/loggedout', auth });
    expect(await screen.findByRole('heading', { name: 'You are signed out' })).toBeInTheDocument();
    expect(auth.signIn).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
    expect(auth.signIn).toHaveBeenCalledWith('/');
  });
});

describe('SessionGate', () => {
  it('sends a user with an incomplete profile to the profile page', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    renderApp({ path: '/for-you', user: testUser('Subscriber'), isProfileComplete: false });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://profile.example.com/'));
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('lets an incomplete profile in when no profile page is configured', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    renderApp({
      path: '/for-you',
      user: testUser('Subscriber'),
      isProfileComplete: false,
      config: testConfig({ profileLandingUrl: null }),
    });
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('shows the Authentication Error page with Logout when me cannot be loaded', async () => {
    renderApp({ path: '/for-you', mocks: [{ request: { query: SessionDocument }, error: new TypeError('Failed to fetch') }] });
    expect(await screen.findByRole('heading', { name: 'Authentication Error' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Cannot connect to server');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });
});
