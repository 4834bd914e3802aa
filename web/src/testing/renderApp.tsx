//! Renders the real route tree (app/router.tsx) with test doubles for the browser-only parts:
//! a fixed signed-in user instead of the OIDC redirect, MockedProvider instead of the server.
import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render } from '@testing-library/react';
import { Suspense } from 'react';
import type { User } from 'oidc-client-ts';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { routes } from '../app/router';
import { UiProvider } from '../components/blueprint';
import { SessionDocument } from '../lib/__generated__/session.generated';
import { AuthContextProvider, type AuthApi } from '../lib/auth';
import { ConfigProvider, type ClientConfig } from '../lib/config';
import type { SessionUser } from '../lib/session';
import { TrialStore, TrialStoreProvider } from '../lib/trial';
import { testConfig } from './fixtures';

export function setViewportWidth(width: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

export function fakeOidcUser(sub = 'user-1'): User {
  return {
    access_token: 'test-access-token',
    id_token: 'test-id-token',
    refresh_token: 'test-refresh-token',
    expired: false,
    profile: { sub },
    state: undefined,
  } as unknown as User;
}

export function fakeAuth(overrides: Partial<AuthApi> = {}): AuthApi {
  return {
    user: fakeOidcUser(),
    ready: true,
    signIn: vi.fn(async () => {}),
    completeSignIn: vi.fn(async () => fakeOidcUser()),
    renew: vi.fn(async () => null),
    signingOut: false,
    signOut: vi.fn(async () => {}),
    ...overrides,
  };
}

export function sessionMock(user: SessionUser, isProfileComplete = true): MockLink.MockedResponse {
  return {
    request: { query: SessionDocument },
    result: { data: { me: user, isUserProfileComplete: { __typename: 'ProfileCompleteness', isProfileComplete } } },
  };
}

export interface RenderAppOptions {
  path?: string;
  user?: SessionUser;
  /** Extra mocks; the session query is mocked from `user`. */
  mocks?: MockLink.MockedResponse[];
  config?: ClientConfig;
  auth?: AuthApi;
  width?: number;
  trialStore?: TrialStore;
  isProfileComplete?: boolean;
}

export function renderApp({
  path = '/',
  user,
  mocks = [],
  config = testConfig(),
  auth = fakeAuth(),
  width = 1280,
  trialStore = new TrialStore(),
  isProfileComplete = true,
}: RenderAppOptions = {}) {
  setViewportWidth(width);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const allMocks = user ? [sessionMock(user, isProfileComplete), ...mocks] : mocks;
  const view = render(
    <UiProvider>
      <ConfigProvider config={config}>
        <AuthContextProvider value={auth}>
          <TrialStoreProvider store={trialStore}>
            <MockedProvider mocks={allMocks}>
              <Suspense fallback={null}>
                <RouterProvider router={router} />
              </Suspense>
            </MockedProvider>
          </TrialStoreProvider>
        </AuthContextProvider>
      </ConfigProvider>
    </UiProvider>,
  );
  return { ...view, router, auth, trialStore, config };
}
