//! Sign-in with oidc-client-ts (OpenID Connect code flow + PKCE) against whichever issuer the
//! server's config names: the built-in development provider or an external one (DESIGN §5).
//! Tokens are renewed with the refresh token (scope includes offline_access) before they expire.
import { ErrorResponse, UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { browser } from './browser';
import type { ClientConfig } from './config';

/** The app's base path (Vite `base`, react-router `basename`). */
export const APP_BASE = '/insights';

export interface SignInState {
  /** Path inside the app (without the base) to open after sign-in. */
  returnTo?: string;
}

/**
 * Development only: the Vite dev server runs on another port than the Rust server, and the
 * built-in provider sends no CORS headers. Its token endpoint is then reached through the dev
 * server's /oidc proxy (vite.config.ts); the sign-in page itself is a plain navigation.
 */
export function devProviderMetadata(config: ClientConfig, origin: string, dev: boolean = import.meta.env.DEV) {
  if (!dev || !config.auth.builtInProvider) return undefined;
  const authority = new URL(config.auth.authority);
  if (authority.origin === origin) return undefined;
  const issuer = config.auth.authority.replace(/\/$/, '');
  const proxied = `${origin}${authority.pathname.replace(/\/$/, '')}`;
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${proxied}/token`,
    end_session_endpoint: `${issuer}/logout`,
    revocation_endpoint: `${proxied}/revoke`,
    jwks_uri: `${proxied}/jwks`,
  };
}

export function createUserManager(config: ClientConfig, origin = window.location.origin): UserManager {
  const { auth } = config;
  return new UserManager({
    metadata: devProviderMetadata(config, origin),
    authority: auth.authority,
    client_id: auth.clientId,
    scope: auth.scope,
    response_type: 'code',
    redirect_uri: `${origin}${APP_BASE}/callback`,
    post_logout_redirect_uri: `${origin}${APP_BASE}/loggedout`,
    // Some issuers need the API audience on the authorize request to issue a JWT access token.
    extraQueryParams: auth.audience ? { audience: auth.audience } : undefined,
    automaticSilentRenew: true,
    // A session iframe would need the issuer's check_session endpoint; renewal uses refresh tokens.
    monitorSession: false,
    // localStorage keeps the user signed in across tabs and after the browser restores a tab.
    userStore: new WebStorageStateStore({ store: window.localStorage }),
  });
}

/** A user whose access token can still be used. */
export function isUsable(user: User | null | undefined): user is User {
  return !!user && !user.expired && !!user.access_token;
}

export interface AuthApi {
  /** The stored user, or null; `ready` is false until storage was read. */
  user: User | null;
  ready: boolean;
  /** Starts the redirect to the identity provider. */
  signIn(returnTo?: string): Promise<void>;
  /** Finishes the redirect on /callback. */
  completeSignIn(): Promise<User>;
  /** Tries a refresh-token renewal; null when it is not possible. */
  renew(): Promise<User | null>;
  signOut(): Promise<void>;
  /** True from the moment sign-out starts: no new sign-in may start while the browser leaves. */
  signingOut: boolean;
}

const AuthContext = createContext<AuthApi | null>(null);

export function useAuth(): AuthApi {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}

/**
 * The signed-in user's access token for requests outside Apollo (uploads, images behind a bearer
 * token), renewed first when it has expired, as the GraphQL link does.
 */
export function useAccessToken(): () => Promise<string | null> {
  const auth = useAuth();
  return useCallback(async () => {
    const user = auth.user && !auth.user.expired ? auth.user : await auth.renew();
    return user?.access_token ?? null;
  }, [auth]);
}

/** For tests and stories: a fixed AuthApi. */
export function AuthContextProvider({ value, children }: { value: AuthApi; children: ReactNode }) {
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function AuthProvider({ manager, children }: { manager: UserManager; children: ReactNode }) {
  const [user, setUser] = useState<User | null>(null);
  const [ready, setReady] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  useEffect(() => {
    let active = true;
    manager
      .getUser()
      .then((u) => active && setUser(u))
      .catch(() => active && setUser(null))
      .finally(() => active && setReady(true));
    const loaded = (u: User) => setUser(u);
    const unloaded = () => setUser(null);
    manager.events.addUserLoaded(loaded);
    manager.events.addUserUnloaded(unloaded);
    return () => {
      active = false;
      manager.events.removeUserLoaded(loaded);
      manager.events.removeUserUnloaded(unloaded);
    };
  }, [manager]);

  const api = useMemo<AuthApi>(
    () => ({
      user,
      ready,
      signIn: (returnTo = '/') => manager.signinRedirect({ state: { returnTo } satisfies SignInState }),
      completeSignIn: async () => {
        const signedIn = await manager.signinRedirectCallback();
        setUser(signedIn);
        return signedIn;
      },
      renew: async () => {
        try {
          return await manager.signinSilent();
        } catch {
          return null;
        }
      },
      signingOut,
      signOut: async () => {
        // oidc-client-ts forgets the user before it navigates away; without this flag the
        // route guard would see no user and race the logout with a new sign-in.
        setSigningOut(true);
        const current = await manager.getUser();
        // The refresh token stops working at the issuer (RFC 7009), not only in this browser; an
        // issuer without a revocation endpoint still gets the end-session redirect.
        if (current?.refresh_token) await manager.revokeTokens(['refresh_token']).catch(() => undefined);
        try {
          await manager.signoutRedirect({ id_token_hint: current?.id_token });
        } catch {
          // The issuer has no end-session endpoint (or cannot be reached): forget the tokens here.
          await manager.removeUser();
          browser.assign(`${APP_BASE}/loggedout`);
        }
      },
    }),
    [manager, user, ready, signingOut],
  );

  return <AuthContext.Provider value={api}>{children}</AuthContext.Provider>;
}

/** Gives Apollo the access token of the stored user, renewing it when it has expired. */
export function accessTokenGetter(manager: UserManager): () => Promise<string | null> {
  return async () => {
    const user = await manager.getUser();
    if (!user) return null;
    if (!user.expired) return user.access_token;
    try {
      const renewed = await manager.signinSilent();
      if (renewed?.access_token) return renewed.access_token;
    } catch {
      // fall through: the error link reloads the page, which starts an interactive sign-in
    }
    throw new ErrorResponse({ error: 'login_required', error_description: 'login_required' });
  };
}

export { ErrorResponse };
export type { User };
