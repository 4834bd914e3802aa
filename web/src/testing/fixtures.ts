//! Test data shaped like the server's answers (schema.graphql), typed by the generated types.
import type { ClientConfig } from '../lib/config';
import type { SessionUser } from '../lib/session';
import type { Role } from '../lib/access';

export function testConfig(overrides: Partial<ClientConfig> = {}): ClientConfig {
  return {
    __typename: 'ClientConfig',
    version: '0.1.0+test',
    auth: {
      __typename: 'AuthSettings',
      authority: 'http://127.0.0.1:8080/oidc',
      clientId: 'insights-web',
      scope: 'openid profile email offline_access',
      audience: null,
      builtInProvider: true,
    },
    features: { __typename: 'FeatureFlags', premiumChannels: true, premiumFeatures: true, cardPayments: false, intelligence: false },
    constants: {
      __typename: 'Constants',
      trialLengthDays: 14,
      trialMinDays: 1,
      trialMaxDays: 100,
      defaultTrialChannelDays: 14,
      expiryBannerDays: 7,
      autosaveIntervalMs: 3000,
      busyIndicatorDelayMs: 2000,
      idleTimeoutMs: 1_200_000,
      versionPollMs: 300_000,
      logBatchSize: 10,
      logBatchMax: 100,
      logBatchTimeoutMs: 2000,
      searchDebounceMs: 500,
      pageSizes: [15, 30, 50, 100, 200],
      defaultPageSize: 15,
      treePageSize: 100,
    },
    supportEmail: 'support@example.com',
    landingUrl: 'https://landing.example.com/',
    profileLandingUrl: 'https://profile.example.com/',
    tableau: null,
    ...overrides,
  } as ClientConfig;
}

export function testUser(role: Role | null, overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    __typename: 'User',
    _id: '65a1b2c3d4e5f60718293a4b',
    name: `Test ${role ?? 'Nobody'}`,
    email: 'test@example.com',
    role,
    isInternal: false,
    intelligence: false,
    tableauAccess: false,
    trialState: 'NoTrial',
    trialMinLeft: -1,
    firm: null,
    ...overrides,
  } as SessionUser;
}
