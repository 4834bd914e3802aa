import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../../components/blueprint';
import { AuthContextProvider } from '../../lib/auth';
import { ConfigProvider } from '../../lib/config';
import { SessionProvider } from '../../lib/session';
import { testConfig, testUser } from '../../testing/fixtures';
import { fakeAuth, setViewportWidth } from '../../testing/renderApp';
import { ChatWidget, OPEN_KEY, TITLE } from './ChatWidget';

const ARTICLE_ID = '65d000000000000000000001';
const CITATION = {
  articleId: ARTICLE_ID,
  title: 'Copper demand outlook',
  publishDate: new Date(2026, 2, 5, 12).toISOString(),
  link: `/browse/article/${ARTICLE_ID}`,
};

interface Options {
  flag?: boolean;
  intelligence?: boolean;
  width?: number;
  path?: string;
}

function renderWidget({ flag = true, intelligence = true, width = 1024, path = '/for-you' }: Options = {}) {
  setViewportWidth(width);
  const config = testConfig();
  config.features = { ...config.features, intelligence: flag };
  const router = createMemoryRouter(
    [
      { path: '*', element: <ChatWidget /> },
      { path: '/browse/article/:id', element: <h1>Article page</h1> },
    ],
    { initialEntries: [path] },
  );
  return render(
    <UiProvider>
      <ConfigProvider config={config}>
        <AuthContextProvider value={fakeAuth()}>
          <SessionProvider user={testUser('Subscriber', { intelligence })}>
            <RouterProvider router={router} />
          </SessionProvider>
        </AuthContextProvider>
      </ConfigProvider>
    </UiProvider>,
  );
}

/** A streamed answer: each string is one chunk of the body, so events can be split across chunks. */
function sseResponse(chunks: string[], init: ResponseInit = {}): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' }, ...init });
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function openAndAsk(question: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: TITLE }));
  const input = screen.getByRole('textbox', { name: 'Your question' });
  await user.type(input, `${question}{Enter}`);
  return { user, input };
}

describe('ChatWidget visibility', () => {
  it('is offered with the flag, the intelligence scope and at least the small breakpoint', () => {
    renderWidget();
    expect(screen.getByRole('button', { name: TITLE })).toBeInTheDocument();
  });

  it.each<[string, Options]>([
    ['the flag is off', { flag: false }],
    ['the user lacks the intelligence scope', { intelligence: false }],
    ['the window is below the small breakpoint', { width: 767 }],
    ['the page is in the publisher area', { path: '/publisher/articles' }],
  ])('is hidden when %s', (_, options) => {
    renderWidget(options);
    expect(screen.queryByRole('button', { name: TITLE })).not.toBeInTheDocument();
  });

  it('appears and disappears as the window crosses the small breakpoint', () => {
    renderWidget({ width: 768 });
    expect(screen.getByRole('button', { name: TITLE })).toBeInTheDocument();
    act(() => setViewportWidth(600));
    expect(screen.queryByRole('button', { name: TITLE })).not.toBeInTheDocument();
  });
});

describe('ChatWidget open or minimised', () => {
  it('starts minimised, and remembers being opened and minimised', async () => {
    const user = userEvent.setup();
    const first = renderWidget();
    await user.click(screen.getByRole('button', { name: TITLE }));
    expect(screen.getByRole('region', { name: TITLE })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Your question' })).toHaveFocus();
    expect(window.localStorage.getItem(OPEN_KEY)).toBe('true');

    first.unmount();
    renderWidget();
    expect(screen.getByRole('region', { name: TITLE })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Minimise the chat' }));
    expect(screen.queryByRole('region', { name: TITLE })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(OPEN_KEY)).toBe('false');
  });

  it('minimises with Escape', async () => {
    window.localStorage.setItem(OPEN_KEY, 'true');
    const user = userEvent.setup();
    renderWidget();
    await user.click(screen.getByRole('textbox', { name: 'Your question' }));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: TITLE })).toBeInTheDocument();
  });
});

describe('ChatWidget answers', () => {
  it('sends the question with Enter and the bearer token, and renders the streamed answer and its citations', async () => {
    fetchMock.mockResolvedValue(
      sseResponse([
        event('citations', [CITATION]),
        'event: delta\ndata: "Here is what',
        ' our research says:\\n\\n"\n\n',
        event('delta', '[1] Copper demand keeps rising.'),
        ': keep-alive\n\n',
        event('done', { questionId: 'q1', conversationId: 'c1', mode: 'passages' }),
      ]),
    );
    renderWidget();
    const { input } = await openAndAsk('What about copper?');

    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(await within(log).findByText(/\[1\] Copper demand keeps rising\./)).toBeInTheDocument();
    expect(within(log).getByText('What about copper?')).toBeInTheDocument();
    expect(within(log).getByText(/^Here is what our research says:/).textContent).toBe(
      'Here is what our research says:\n\n[1] Copper demand keeps rising.',
    );
    const link = within(log).getByRole('link', { name: 'Copper demand outlook' });
    expect(link).toHaveAttribute('href', `/browse/article/${ARTICLE_ID}`);
    expect(within(log).getByText('05 Mar 2026')).toBeInTheDocument();
    expect(input).toHaveValue('');

    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/chat');
    expect(init.method).toBe('POST');
    const headers = init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer test-access-token');
    expect(JSON.parse(init.body as string)).toEqual({ question: 'What about copper?', conversationId: expect.any(String) });
  });

  it('keeps the conversation id across questions and Shift+Enter starts a new line', async () => {
    fetchMock.mockImplementation(async () => sseResponse([event('citations', []), event('delta', 'Nothing.'), event('done', {})]));
    renderWidget();
    const { user, input } = await openAndAsk('First');
    await screen.findByText('Nothing.');
    await user.type(input, 'Second{Shift>}{Enter}{/Shift}line');
    expect(input).toHaveValue('Second\nline');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const bodies = fetchMock.mock.calls.map(([, init]) => JSON.parse((init as RequestInit).body as string));
    expect(bodies[1].question).toBe('Second\nline');
    expect(bodies[1].conversationId).toBe(bodies[0].conversationId);
  });

  it('says when the reader asks too quickly, with the wait from Retry-After', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ code: 'RATE_LIMITED', message: 'x', retryAfter: 42 }), {
        status: 429,
        headers: { 'retry-after': '17', 'content-type': 'application/json' },
      }),
    );
    renderWidget();
    await openAndAsk('Again?');
    expect(await screen.findByRole('alert')).toHaveTextContent('You are asking too quickly, try again in 17 s');
  });

  it('shows the server message of a refusal, an error event, and a network failure clearly', async () => {
    fetchMock
      .mockResolvedValueOnce(new Response(JSON.stringify({ code: 'FORBIDDEN', message: 'You don’t have access' }), { status: 403 }))
      .mockResolvedValueOnce(
        sseResponse([
          event('citations', []),
          event('delta', 'Partly'),
          event('error', { message: 'The answer could not be completed. Please try again in a moment.' }),
        ]),
      )
      .mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderWidget();
    const { user, input } = await openAndAsk('One');
    expect(await screen.findByRole('alert')).toHaveTextContent('You don’t have access');

    await user.type(input, 'Two{Enter}');
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    expect(screen.getAllByRole('alert')[1]).toHaveTextContent('The answer could not be completed. Please try again in a moment.');
    expect(screen.getByText('Partly')).toBeInTheDocument();

    await user.type(input, 'Three{Enter}');
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(3));
    expect(screen.getAllByRole('alert')[2]).toHaveTextContent('Cannot connect to server');
  });

  it('does not send a blank or too long question', async () => {
    renderWidget();
    const { user, input } = await openAndAsk('   ');
    expect(fetchMock).not.toHaveBeenCalled();
    await user.clear(input);
    await user.click(input);
    await user.paste('a'.repeat(1001));
    expect(screen.getByText('Maximum 1000 characters')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.keyboard('{Enter}');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
