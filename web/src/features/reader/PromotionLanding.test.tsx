import type { MockLink } from '@apollo/client/testing';
import { GraphQLError } from 'graphql';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../lib/logger';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import {
  PromotionLandingDocument,
  RegisterPromotionInterestDocument,
  type RegisterPromotionInterestMutationVariables,
} from './__generated__/PromotionLanding.generated';

// Where Continue and the redirects lead; those pages query the server, and these tests are about this one.
vi.mock('./ForYou', () => ({ default: () => <h1>For you</h1> }));
vi.mock('./Channels', () => ({ default: () => <h1>Channels</h1> }));

const CONTENT = '66e000000000000000000002';
const PATH = `/promotion/${CONTENT}`;
const reader = testUser('Subscriber');

const PAGE = {
  __typename: 'PromotionPage',
  _id: '66f000000000000000000001',
  name: 'Webinar sign-up',
  html: '<h2>Gas outlook live</h2><p>Hear our analysts. <a href="https://example.com/agenda">Agenda</a></p>',
  successTitle: 'Thank you',
  successMessage: 'We will send you the invitation.',
};

function landingMock(promotionPage: typeof PAGE | null = PAGE): MockLink.MockedResponse {
  return {
    request: { query: PromotionLandingDocument, variables: { id: CONTENT } },
    result: { data: { findPromotionalContentById: { __typename: 'PromotionalContent', _id: CONTENT, promotionPage } } },
  };
}

function registerMock(result: MockLink.MockedResponse['result']): MockLink.MockedResponse {
  return { request: { query: RegisterPromotionInterestDocument, variables: () => true }, result };
}

beforeAll(async () => {
  await import('./PromotionLanding');
});

describe('PromotionLanding', () => {
  it('shows the page html; Register interest shows the success title and message; Continue goes to For you', async () => {
    const user = userEvent.setup();
    const register = vi.fn((_: RegisterPromotionInterestMutationVariables) => ({
      data: { notifyRegisteredInterestInPromotionalContent: true },
    }));
    const { router } = renderApp({ path: PATH, user: reader, mocks: [landingMock(), registerMock(register)] });

    expect(await screen.findByRole('heading', { level: 1, name: 'Webinar sign-up' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Gas outlook live' })).toBeInTheDocument();
    // Rendered like an article's html: links to other sites open in a new tab.
    expect(screen.getByRole('link', { name: 'Agenda' })).toHaveAttribute('target', '_blank');

    await user.click(screen.getByRole('button', { name: 'Register interest' }));
    const title = await screen.findByRole('heading', { level: 2, name: 'Thank you' });
    expect(title).toHaveFocus();
    expect(screen.getByText('We will send you the invitation.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Register interest' })).not.toBeInTheDocument();
    expect(register).toHaveBeenCalledTimes(1);
    expect(register.mock.calls[0][0]).toEqual({ item: { promotionalContentId: CONTENT } });

    // Opened directly: nothing to go back to.
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'For you' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/for-you');
  }, 15_000);

  it('goes back in history on Continue when the reader came from another page', async () => {
    const user = userEvent.setup();
    const { router } = renderApp({
      path: '/channels',
      user: reader,
      mocks: [landingMock(), registerMock({ data: { notifyRegisteredInterestInPromotionalContent: true } })],
    });
    await screen.findByRole('heading', { level: 1, name: 'Channels' });
    await act(() => router.navigate(PATH));
    await user.click(await screen.findByRole('button', { name: 'Register interest' }));
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Channels' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/channels');
  });

  it('only logs a failed registration (spec 3 §8): no error shown, the page and its button stay', async () => {
    const user = userEvent.setup();
    const warn = vi.spyOn(logger, 'warn');
    try {
      renderApp({
        path: PATH,
        user: reader,
        mocks: [landingMock(), registerMock({ errors: [new GraphQLError('Something went wrong', { extensions: { code: 'INTERNAL' } })] })],
      });
      await user.click(await screen.findByRole('button', { name: 'Register interest' }));
      await waitFor(() =>
        expect(warn).toHaveBeenCalledWith('Registering interest in promotional content failed: INTERNAL::Something went wrong', {
          promotionalContentId: CONTENT,
        }),
      );
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(screen.queryByText(/Something went wrong/)).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Register interest' })).toBeEnabled();
      expect(screen.queryByRole('heading', { name: 'Thank you' })).not.toBeInTheDocument();
    } finally {
      warn.mockRestore();
    }
  });

  it('only logs a registration the server did not record (false), and shows no success', async () => {
    const user = userEvent.setup();
    const warn = vi.spyOn(logger, 'warn');
    try {
      renderApp({
        path: PATH,
        user: reader,
        mocks: [landingMock(), registerMock({ data: { notifyRegisteredInterestInPromotionalContent: false } })],
      });
      await user.click(await screen.findByRole('button', { name: 'Register interest' }));
      await waitFor(() =>
        expect(warn).toHaveBeenCalledWith('Registering interest in promotional content was refused', { promotionalContentId: CONTENT }),
      );
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Thank you' })).not.toBeInTheDocument();
    } finally {
      warn.mockRestore();
    }
  });

  it('sends the reader to For you when the content has no page', async () => {
    const { router } = renderApp({ path: PATH, user: reader, mocks: [landingMock(null)] });
    expect(await screen.findByRole('heading', { level: 1, name: 'For you' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/for-you');
  });

  it('sends the reader to For you when the content is unknown or expired (NOT_FOUND)', async () => {
    const { router } = renderApp({
      path: PATH,
      user: reader,
      mocks: [
        {
          request: { query: PromotionLandingDocument, variables: { id: CONTENT } },
          result: { errors: [new GraphQLError('Promotional content not found', { extensions: { code: 'NOT_FOUND' } })] },
        },
      ],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'For you' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/for-you');
  });

  it('sends an id that is not one to For you without asking the server', async () => {
    const { router } = renderApp({ path: '/promotion/not-an-id', user: reader });
    await waitFor(() => expect(router.state.location.pathname).toBe('/for-you'));
  });
});
