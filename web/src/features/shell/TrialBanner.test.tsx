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

  it('shows the remaining days from the start of the trial as information', async () => {
    renderApp({ path: '/for-you', user: trialUser(14 * 1440) });
    const text = await screen.findByText('You are on a free trial: 14 days remaining.');
    const banner = text.closest('.bp6-callout');
    expect(banner).not.toHaveClass('bp6-intent-warning');
  });

  it('turns into a warning when fewer than expiryBannerDays remain', async () => {
    const config = testConfig();
    renderApp({
      path: '/for-you',
      user: trialUser(10 * 1440),
      config: { ...config, constants: { ...config.constants, expiryBannerDays: 14 } },
    });
    const text = await screen.findByText('You are on a free trial: 10 days remaining.');
    const banner = text.closest('.bp6-callout');
    expect(banner).toHaveClass('bp6-intent-warning');
  });

  it('is not shown outside a trial', async () => {
    renderApp({ path: '/for-you', user: testUser('Subscriber', { trialMinLeft: 60 }) });
    await screen.findByRole('heading', { name: 'All the latest market insights, tailored for you.' });
    expect(screen.queryByText(/free trial/)).not.toBeInTheDocument();
  });
});
