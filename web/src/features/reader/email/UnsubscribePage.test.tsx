import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { logger } from '../../../lib/logger';
import { fakeAuth, renderApp } from '../../../testing/renderApp';
import { ALREADY_UNSUBSCRIBED, MISSING_LINK } from './UnsubscribePage';
import { NETWORK_MESSAGE } from './unsubscribe';

const TOKEN = 'dTE6YzE.c2lnbmF0dXJl';
const EMAIL = 'sam.subscriber@client.example';
const INVALID = 'This unsubscribe link is not valid. Use the link of a recent email, or manage your email notifications after signing in.';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Answer = Response | Error;

/** The server's /unsubscribe: answers in turn, recording each request's JSON body. */
function stubServer(...answers: Answer[]) {
  const bodies: Record<string, string>[] = [];
  const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    expect(String(input)).toBe('/unsubscribe');
    expect(init?.method).toBe('POST');
    bodies.push(JSON.parse(String(init?.body)) as Record<string, string>);
    const answer = answers.shift();
    if (!answer) throw new Error('unexpected call');
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { bodies, fetchMock };
}

/** Signed out: the page must not start a sign-in. */
function open(path = `/unsubscribe?data=${TOKEN}`) {
  const auth = fakeAuth({ user: null });
  renderApp({ path, auth });
  return auth;
}

const reasons = () => screen.getByRole('radiogroup', { name: 'Why are you unsubscribing?' });

describe('Unsubscribe page', () => {
  it('shows whose link it is and the reasons, then unsubscribes with the chosen reason (not sent → unsubscribed)', async () => {
    const { bodies } = stubServer(json(200, { email: EMAIL, channelName: 'Oil Weekly', subscribed: true }), json(200, { status: true }));
    const auth = open();
    expect(await screen.findByRole('heading', { level: 1, name: `Unsubscribe ${EMAIL}` })).toBeInTheDocument();
    expect(screen.getByText('Oil Weekly')).toBeInTheDocument();
    expect(screen.getByText('Stop emails about new articles in Oil Weekly to this address?')).toBeInTheDocument();
    expect(
      within(reasons())
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(['I get too many emails', 'The content is not relevant to me', "I don't remember subscribing", 'Other']);
    expect(bodies).toEqual([{ data: TOKEN }]);

    // A reason first.
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(reasons()).toHaveAccessibleDescription('Choose a reason.');
    expect(bodies).toHaveLength(1);

    await userEvent.click(screen.getByRole('radio', { name: 'I get too many emails' }));
    expect(reasons()).not.toHaveAccessibleDescription('Choose a reason.');
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeInTheDocument();
    expect(document.title).toBe('You are unsubscribed – Insights');
    expect(bodies[1]).toEqual({ data: TOKEN, reason: 'too_frequent' });
    expect(screen.getByRole('status')).toHaveTextContent(`${EMAIL} will no longer get emails about new articles in Oil Weekly.`);
    expect(screen.getByRole('link', { name: 'Manage email notifications' })).toHaveAttribute('href', '/email-notifications');
    expect(auth.signIn).not.toHaveBeenCalled();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('says so when the emails were already off at the time of unsubscribing (not unsubscribed)', async () => {
    const { bodies } = stubServer(json(200, { email: EMAIL, channelName: null, subscribed: true }), json(200, { status: false }));
    open();
    expect(await screen.findByText('Stop all emails about new articles in your channels to this address?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: "I don't remember subscribing" }));
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('status')).toHaveTextContent(ALREADY_UNSUBSCRIBED);
    expect(bodies[1]).toEqual({ data: TOKEN, reason: 'dont_remember' });
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument();
  });

  it('says so at once when the link’s emails are off already', async () => {
    stubServer(json(200, { email: EMAIL, channelName: 'Oil Weekly', subscribed: false }));
    open();
    expect(await screen.findByRole('heading', { level: 1, name: `Unsubscribe ${EMAIL}` })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(ALREADY_UNSUBSCRIBED);
    expect(screen.getByText(`${EMAIL} gets no emails about new articles in Oil Weekly.`)).toBeInTheDocument();
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage email notifications' })).toHaveAttribute('href', '/email-notifications');
  });

  it('shows the server’s message for a link it refuses (400)', async () => {
    stubServer(json(400, { code: 'BAD_USER_INPUT', message: 'Invalid input', fields: { data: INVALID } }));
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'This link cannot be used' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(INVALID);
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument();
  });

  it('refuses a link without data without asking the server', async () => {
    const { fetchMock } = stubServer();
    open('/unsubscribe');
    expect(await screen.findByRole('alert')).toHaveTextContent(MISSING_LINK);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('offers to try again when the server cannot be reached', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {});
    stubServer(new TypeError('Failed to fetch'), json(200, { email: EMAIL, channelName: 'Oil Weekly', subscribed: true }));
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent(NETWORK_MESSAGE);
    expect(warn).toHaveBeenCalledWith('Unsubscribe failed: Failed to fetch');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: `Unsubscribe ${EMAIL}` })).toBeInTheDocument();
  });

  it('keeps the form with a message when unsubscribing fails, and goes through on a second try', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {});
    const { bodies } = stubServer(
      json(200, { email: EMAIL, channelName: 'Oil Weekly', subscribed: true }),
      new TypeError('Failed to fetch'),
      json(500, { code: 'INTERNAL', message: 'Internal error' }),
      json(200, { status: true }),
    );
    open();
    await userEvent.click(await screen.findByRole('radio', { name: 'Other' }));
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(NETWORK_MESSAGE);
    expect(screen.getByRole('radio', { name: 'Other' })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong. Please try again in a moment.'));
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeInTheDocument();
    expect(bodies.slice(1)).toEqual(Array(3).fill({ data: TOKEN, reason: 'other' }));
    expect(warn).toHaveBeenCalledWith('Unsubscribe failed: HTTP 500 Internal error');
  });

  it('shows a link refused at the moment of unsubscribing as invalid', async () => {
    stubServer(
      json(200, { email: EMAIL, channelName: null, subscribed: true }),
      json(400, { code: 'BAD_USER_INPUT', message: 'Invalid input', fields: { data: INVALID } }),
    );
    open();
    await userEvent.click(await screen.findByRole('radio', { name: 'The content is not relevant to me' }));
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'This link cannot be used' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(INVALID);
  });
});
