import { describe, expect, it } from 'vitest';
import { testConfig } from '../testing/fixtures';
import { createUserManager, devProviderMetadata } from './auth';

describe('createUserManager', () => {
  it('uses the code flow with PKCE, refresh-token renewal and the app callback pages', () => {
    const config = testConfig();
    const { settings } = createUserManager(config, 'http://127.0.0.1:8080');
    expect(settings.authority).toBe(config.auth.authority);
    expect(settings.client_id).toBe('insights-web');
    expect(settings.scope).toBe('openid profile email offline_access');
    expect(settings.response_type).toBe('code');
    expect(settings.redirect_uri).toBe('http://127.0.0.1:8080/insights/callback');
    expect(settings.post_logout_redirect_uri).toBe('http://127.0.0.1:8080/insights/loggedout');
    expect(settings.automaticSilentRenew).toBe(true);
    expect(settings.extraQueryParams).toEqual({});
  });

  it('asks for the configured audience', () => {
    const config = testConfig();
    const { settings } = createUserManager({ ...config, auth: { ...config.auth, audience: 'insights-api' } }, 'http://127.0.0.1:8080');
    expect(settings.extraQueryParams).toEqual({ audience: 'insights-api' });
  });
});

describe('devProviderMetadata', () => {
  const config = testConfig();

  it('sends token calls through the dev server proxy when the built-in provider is on another origin', () => {
    expect(devProviderMetadata(config, 'http://127.0.0.1:5173', true)).toEqual({
      issuer: 'http://127.0.0.1:8080/oidc',
      authorization_endpoint: 'http://127.0.0.1:8080/oidc/authorize',
      token_endpoint: 'http://127.0.0.1:5173/oidc/token',
      end_session_endpoint: 'http://127.0.0.1:8080/oidc/logout',
      revocation_endpoint: 'http://127.0.0.1:5173/oidc/revoke',
      jwks_uri: 'http://127.0.0.1:5173/oidc/jwks',
    });
  });

  it('leaves discovery alone in production, on the same origin and for external issuers', () => {
    expect(devProviderMetadata(config, 'http://127.0.0.1:5173', false)).toBeUndefined();
    expect(devProviderMetadata(config, 'http://127.0.0.1:8080', true)).toBeUndefined();
    expect(
      devProviderMetadata({ ...config, auth: { ...config.auth, builtInProvider: false } }, 'http://127.0.0.1:5173', true),
    ).toBeUndefined();
  });
});
