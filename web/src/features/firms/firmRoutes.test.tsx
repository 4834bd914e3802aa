import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ACCESS, hasAccess, type Role } from '../../lib/access';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { NOT_FIRM_ADMIN_TEXT } from './MyFirm';

// The screens behind these routes query the server; these tests are about the routes and their guards.
vi.mock('./FirmList', () => ({ default: () => <h1>Firm list screen</h1> }));
vi.mock('./FirmForm', () => ({ default: () => <h1>Firm form screen</h1> }));
vi.mock('./FirmPage', () => ({ default: () => <h1>Firm page screen</h1> }));
vi.mock('./FirmSubscriptionForm', () => ({ default: () => <h1>Firm subscription form screen</h1> }));

const ID = '67f000000000000000000001';
const CHANNEL = '67c000000000000000000001';

const SCREENS = [
  ['/publisher/firms', 'Firm list screen'],
  ['/publisher/firms/add', 'Firm form screen'],
  [`/publisher/firms/edit/${ID}`, 'Firm form screen'],
  [`/publisher/firms/${ID}`, 'Firm page screen'],
  [`/publisher/firms/${ID}/subscriptions/add`, 'Firm subscription form screen'],
  [`/publisher/firms/${ID}/subscriptions/edit/${CHANNEL}`, 'Firm subscription form screen'],
] as const;

/** What Contributors may not open: the screens that change firms. */
const CHANGES = new Set<string>(['Firm form screen', 'Firm subscription form screen']);

/** `me.firm` of a member of Acme Bank, one of its administrators or not. */
const firmOfUser = (isAdmin: boolean) => ({ __typename: 'FirmOfUser', _id: ID, name: 'Acme Bank', isAdmin, usageEmail: false });

describe('the firm routes', () => {
  it('let every staff role read firms and only Administrators and Editors change them', () => {
    expect(ACCESS.firms).toEqual(['Administrator', 'Editor', 'Contributor']);
    for (const role of ['Administrator', 'Editor'] as const) expect(hasAccess(role, ACCESS.firmEdit)).toBe(true);
    expect(hasAccess('Contributor', ACCESS.firmEdit)).toBe(false);
    expect(hasAccess('Subscriber', ACCESS.firms)).toBe(false);
  });

  it.each(
    (['Administrator', 'Editor', 'Contributor'] as Role[]).flatMap((role) =>
      SCREENS.map(([path, screenName]) => [role, path, screenName, role === 'Contributor' && CHANGES.has(screenName)] as const),
    ),
  )('%s at %s: %s, denied = %s', async (role, path, screenName, denied) => {
    renderApp({ path, user: testUser(role) });
    await screen.findByRole('navigation', { name: 'Publisher' });
    if (denied) {
      expect(await screen.findByText(/^Access Denied:/)).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: screenName })).not.toBeInTheDocument();
    } else {
      expect(await screen.findByRole('heading', { level: 1, name: screenName })).toBeInTheDocument();
      expect(screen.queryByText(/^Access Denied:/)).not.toBeInTheDocument();
    }
  });

  it.each(SCREENS.map(([path]) => path))('refuses readers at %s', async (path) => {
    renderApp({ path, user: testUser('Subscriber') });
    expect(await screen.findByText(/^Access Denied:/)).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Publisher' })).not.toBeInTheDocument();
  });

  it('offers Firms in the publisher sidebar to every staff role', async () => {
    renderApp({ path: '/publisher/firms', user: testUser('Contributor') });
    const sidebar = await screen.findByRole('navigation', { name: 'Publisher' });
    expect(within(sidebar).getByRole('link', { name: 'Firms' })).toHaveAttribute('href', '/publisher/firms');
    expect(within(sidebar).getByRole('link', { name: 'Firms' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('My firm', () => {
  it("is offered in the account menu to a firm's administrators only", async () => {
    const admin = testUser('Subscriber', { firm: firmOfUser(true) });
    const { router, unmount } = renderApp({ path: '/channels', user: admin });
    await userEvent.click(await screen.findByRole('button', { name: /\(Account menu\)$/ }));
    const menu = await screen.findByRole('menu', { name: 'Account menu' });
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'My firm' }));
    expect(router.state.location.pathname).toBe('/my-firm');
    unmount();

    const member = testUser('Subscriber', { firm: firmOfUser(false) });
    renderApp({ path: '/channels', user: member });
    await userEvent.click(await screen.findByRole('button', { name: /\(Account menu\)$/ }));
    const other = await screen.findByRole('menu', { name: 'Account menu' });
    expect(within(other).queryByRole('menuitem', { name: 'My firm' })).not.toBeInTheDocument();
  });

  it("is in the phone menu for a firm's administrators", async () => {
    const admin = testUser('Subscriber', { firm: firmOfUser(true) });
    renderApp({ path: '/channels', user: admin, width: 500 });
    await userEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    expect(within(await screen.findByRole('menu', { name: 'Menu' })).getByRole('menuitem', { name: 'My firm' })).toHaveAttribute(
      'href',
      '/my-firm',
    );
  });

  it.each(['Subscriber', 'Editor'] as const)('opened by a %s who administers no firm, says it is for firm administrators', async (role) => {
    renderApp({ path: '/my-firm', user: testUser(role) });
    expect(await screen.findByRole('heading', { level: 1, name: 'My firm' })).toBeInTheDocument();
    expect(await screen.findByText(NOT_FIRM_ADMIN_TEXT)).toBeInTheDocument();
    expect(screen.queryByText(/^Access Denied:/)).not.toBeInTheDocument();
  });
});
