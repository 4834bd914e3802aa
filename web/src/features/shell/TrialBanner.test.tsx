import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testConfig, testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';

const trialUser = (trialMinLeft: number) => testUser('Subscriber', { trialState: 'TrialContinues', trialMinLeft });

describe('TrialBanner', () => {
  it('shows the days left near the end of a trial', async () => {
    renderApp({ path: '/for-you', user: trialUser(3 * 1440 + 10) });
    expect(await screen.findByText('You are on a free trial: 3 days remaining.')).toBeInTheDocument();
  });

  it("says 'your trial expires today' on the last day", async () => {
    renderApp({ path: '/channels', user: trialUser(90) });
    expect(await screen.findByText(/your trial expires today/)).toBeInTheDocument();
  });

  it('stays hidden while more than expiryBannerDays remain', async () => {
    renderApp({ path: '/for-you', user: trialUser(10 * 1440) });
    await screen.findByRole('heading', { name: 'All the latest market insights, tailored for you.' });
    expect(screen.queryByText(/free trial/)).not.toBeInTheDocument();
  });

  it('follows the configured expiryBannerDays', async () => {
    const config = testConfig();
    renderApp({
      path: '/for-you',
      user: trialUser(10 * 1440),
      config: { ...config, constants: { ...config.constants, expiryBannerDays: 14 } },
    });
    expect(await screen.findByText('You are on a free trial: 10 days remaining.')).toBeInTheDocument();
  });

  it('is not shown outside a trial', async () => {
    renderApp({ path: '/for-you', user: testUser('Subscriber', { trialMinLeft: 60 }) });
    await screen.findByRole('heading', { name: 'All the latest market insights, tailored for you.' });
    expect(screen.queryByText(/free trial/)).not.toBeInTheDocument();
  });
});
