import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TrialStore } from '../../lib/trial';
import { testConfig, testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';

// The screens behind these routes query the server; these tests are about the shell around them.
vi.mock('../articles/ArticleList', () => ({ default: () => <h1>Articles</h1> }));
vi.mock('../articles/editor/ArticleEditor', () => ({ default: () => <h1>Article editor</h1> }));
vi.mock('../templates/TemplateList', () => ({ default: () => <h1>Templates</h1> }));
vi.mock('../templates/TemplateForm', () => ({ default: () => <h1>Template</h1> }));

describe('protected-route screens', () => {
  it('shows Access Denied to a subscriber in the publisher area', async () => {
    renderApp({ path: '/publisher/articles', user: testUser('Subscriber') });
    expect(
      await screen.findByText("Access Denied: You don't have sufficient permissions to access this area of the product"),
    ).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Publisher' })).not.toBeInTheDocument();
  });

  it.each([
    ['Contributor', '/publisher/promotional-content', true],
    ['Editor', '/publisher/promotional-content', true],
    ['Administrator', '/publisher/promotional-content', false],
    ['Administrator', '/publisher/templates/add', true],
    ['Editor', '/publisher/templates/add', false],
    ['Administrator', '/publisher/articles/add', true],
    ['Contributor', '/publisher/articles/add', false],
    ['Contributor', '/publisher/templates', false],
    ['Contributor', '/publisher/premium-channels/add', true],
    ['Editor', '/publisher/premium-channels/subscribers/abc/add-bulk', false],
    ['Contributor', '/publisher/topics/subscriber-stats/abc', true],
  ] as const)('%s at %s: denied = %s', async (role, path, denied) => {
    renderApp({ path, user: testUser(role) });
    await screen.findByRole('navigation', { name: 'Publisher' });
    if (denied) {
      expect(await screen.findByText(/^Access Denied:/)).toBeInTheDocument();
    } else {
      // The guard decides as the publisher area renders (the screen behind it loads lazily).
      expect(screen.queryByText(/^Access Denied:/)).not.toBeInTheDocument();
    }
  });

  it('shows Trial ended to an expired trial reader, with the way back and the support contact', async () => {
    renderApp({
      path: '/for-you',
      user: testUser('Subscriber', { trialState: 'TrialExpired', trialMinLeft: 0 }),
      config: testConfig({ landingUrl: 'https://portal.example.com/' }),
    });
    expect(await screen.findByText('Your trial has now ended')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute('href', 'https://portal.example.com/');
    expect(screen.getByRole('link', { name: 'support@example.com' })).toHaveAttribute('href', 'mailto:support@example.com');
  });

  it('switches to Trial ended when an operation reports the trial has expired', async () => {
    const trialStore = new TrialStore();
    renderApp({ path: '/channels', user: testUser('Subscriber', { trialState: 'TrialContinues', trialMinLeft: 5000 }), trialStore });
    expect(await screen.findByRole('heading', { name: 'Find channels and subscribe' })).toBeInTheDocument();
    act(() => trialStore.markExpired());
    expect(await screen.findByText('Your trial has now ended')).toBeInTheDocument();
  });

  it('shows the not-permissioned screen, with Log out, to a user without an Insights role', async () => {
    const { auth } = renderApp({ path: '/for-you', user: testUser(null) });
    expect(await screen.findByText('User is not permissioned to use the Insights system')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'For you' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    expect(auth.signOut).toHaveBeenCalled();
  });
});
