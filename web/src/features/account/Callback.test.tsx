import { screen, waitFor } from '@testing-library/react';
import { ErrorResponse } from 'oidc-client-ts';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/browser';
import { testUser } from '../../testing/fixtures';
import { fakeAuth, fakeOidcUser, renderApp } from '../../testing/renderApp';
import { UpdateUserFromTokenDocument } from './__generated__/Callback.generated';
import { afterSignInPath } from './Callback';

function updateUserMock(role: 'Administrator' | 'Subscriber', isNewUser = false) {
  const user = testUser(role);
  return {
    request: { query: UpdateUserFromTokenDocument, variables: { idToken: 'test-id-token' } },
    result: {
      data: {
        updateUserFromToken: {
          __typename: 'UserFromToken',
          isNewUser,
          user: { __typename: 'User', _id: user._id, name: user.name, email: user.email, role, trialState: 'NoTrial', trialMinLeft: -1 },
        },
      },
    },
  };
}

function signedInWith(returnTo?: string, sub = 'user-1') {
  const user = { ...fakeOidcUser(sub), state: returnTo ? { returnTo } : undefined, profile: sub ? { sub } : {} };
  // auth.user is what completeSignIn stores in the real AuthProvider.
  return fakeAuth({ user: fakeOidcUser(), completeSignIn: vi.fn(async () => user as never) });
}

describe('afterSignInPath', () => {
  it('returns to the page the user asked for, else the root', () => {
    expect(afterSignInPath('/channels?premium', false, 'Subscriber')).toBe('/channels?premium');
    expect(afterSignInPath(undefined, false, 'Editor')).toBe('/');
    expect(afterSignInPath('https://evil.example.com/', false, 'Editor')).toBe('/');
  });

  it('sends a new reader to For You unless they came for an article', () => {
    expect(afterSignInPath('/channels', true, 'Subscriber')).toBe('/for-you');
    expect(afterSignInPath('/browse/article/65a1b2c3d4e5f60718293a4b', true, 'Subscriber')).toBe(
      '/browse/article/65a1b2c3d4e5f60718293a4b',
    );
    expect(afterSignInPath('/', true, 'Administrator')).toBe('/');
  });
});

describe('Callback', () => {
  it('completes sign-in, calls updateUserFromToken with the id token, then opens the wanted page', async () => {
    const auth = signedInWith('/subscriptions');
    const { router } = renderApp({ path: '/callback', auth, user: testUser('Subscriber'), mocks: [updateUserMock('Subscriber')] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscriptions'));
    expect(await screen.findByRole('heading', { name: 'Your subscriptions' })).toBeInTheDocument();
    expect(auth.completeSignIn).toHaveBeenCalledTimes(1);
  });

  it("goes to the role's landing page when no page was asked for", async () => {
    const auth = signedInWith(undefined);
    const { router } = renderApp({
      path: '/callback',
      auth,
      user: testUser('Administrator'),
      mocks: [updateUserMock('Administrator')],
      width: 1400,
    });
    // The session query is answered after the callback: the root then redirects by role and width.
    await waitFor(() => expect(router.state.location.pathname).toBe('/publisher/articles'));
  });

  it('sends the user to the landing page when the sign-in yields no token', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const auth = fakeAuth({
      user: null,
      completeSignIn: vi.fn(async () => Promise.reject(new Error('No matching state found in storage'))),
    });
    renderApp({ path: '/callback', auth });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://landing.example.com/'));
  });

  it('sends the user to the landing page when the token holds no user id', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    renderApp({ path: '/callback', auth: signedInWith('/for-you', '') });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://landing.example.com/'));
  });

  it('shows the Authentication Error page when the provider refuses the sign-in', async () => {
    const refusal = new ErrorResponse({ error: 'access_denied', error_description: 'The user cancelled the sign-in' });
    const auth = fakeAuth({ user: null, completeSignIn: vi.fn(async () => Promise.reject(refusal)) });
    renderApp({ path: '/callback', auth });
    expect(await screen.findByRole('heading', { name: 'Authentication Error' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The user cancelled the sign-in');
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it('shows the server error when updateUserFromToken fails', async () => {
    const auth = signedInWith('/for-you');
    renderApp({
      path: '/callback',
      auth,
      mocks: [
        {
          request: { query: UpdateUserFromTokenDocument, variables: { idToken: 'test-id-token' } },
          result: { errors: [{ message: 'Token rejected', extensions: { code: 'UNAUTHENTICATED' } }] },
        },
      ],
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('UNAUTHENTICATED::Token rejected');
  });
});
