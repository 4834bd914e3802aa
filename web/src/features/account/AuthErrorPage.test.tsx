import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/browser';
import { AuthErrorPage } from './AuthErrorPage';

describe('AuthErrorPage', () => {
  it("shows 'Authentication Error', the message, and Refresh without Logout when nobody is signed in", async () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    render(<AuthErrorPage message="Cannot connect to server" />);
    expect(screen.getByRole('heading', { name: 'Authentication Error' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Cannot connect to server');
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('uses a supplied title and offers Logout to a signed-in user', async () => {
    const logout = vi.fn();
    render(<AuthErrorPage title="Session problem" message="INTERNAL::Try again" onLogout={logout} />);
    expect(screen.getByRole('heading', { name: 'Session problem' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Authentication Error' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(logout).toHaveBeenCalledTimes(1);
  });
});
