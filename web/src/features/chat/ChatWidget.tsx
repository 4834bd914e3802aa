//! The intelligence chat widget (spec 3 §2, §4 'Chat widget', §6): for users with the
//! `intelligence` scope when the feature flag is on and the window is at least the small
//! breakpoint, on the reader pages. Open or minimised, remembered in localStorage. A question goes
//! to POST /chat; the answer streams in as text with its citations as links to the articles.
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { v4 as uuidv4 } from 'uuid';
import { Button } from '../../components/Button';
import { useAccessToken } from '../../lib/auth';
import { BREAKPOINTS, useViewportWidth } from '../../lib/breakpoints';
import { useConfig } from '../../lib/config';
import { formatDate } from '../../lib/dates';
import { useSession } from '../../lib/session';
import { askChat, ChatError, FAILED_MESSAGE, type ChatCitation } from './chatStream';
import './chat.css';

export const OPEN_KEY = 'insights.chat.open';
export const QUESTION_MAX_CHARS = 1000;
export const TITLE = 'Ask our research';

/** Open or minimised, as last left (minimised the first time). */
function readOpen(): boolean {
  try {
    return window.localStorage.getItem(OPEN_KEY) === 'true';
  } catch {
    return false;
  }
}

function writeOpen(open: boolean): void {
  try {
    window.localStorage.setItem(OPEN_KEY, String(open));
  } catch {
    // Storage disabled: the state lasts for this page only.
  }
}

/** Whether the widget is offered: the flag, the scope, a wide enough window, a reader page. */
export function useChatAvailable(): boolean {
  const config = useConfig();
  const user = useSession();
  const width = useViewportWidth();
  const { pathname } = useLocation();
  const inPublisher = pathname === '/publisher' || pathname.startsWith('/publisher/');
  return config.features.intelligence && user.intelligence && width >= BREAKPOINTS.small && !inPublisher;
}

interface Exchange {
  id: string;
  question: string;
  answer: string;
  citations: ChatCitation[];
  state: 'waiting' | 'streaming' | 'done' | 'failed';
  error?: string;
}

export function ChatWidget() {
  return useChatAvailable() ? <Chat /> : null;
}

function Chat() {
  const [open, setOpenState] = useState(readOpen);
  const setOpen = (next: boolean) => {
    setOpenState(next);
    writeOpen(next);
  };
  return open ? <ChatPanel onMinimise={() => setOpen(false)} /> : <ChatLauncher onOpen={() => setOpen(true)} />;
}

function ChatLauncher({ onOpen }: { onOpen: () => void }) {
  return (
    <div className="insights-chat-launcher">
      <Button icon="search" intent="primary" text={TITLE} onClick={onOpen} />
    </div>
  );
}

function ChatPanel({ onMinimise }: { onMinimise: () => void }) {
  const getToken = useAccessToken();
  const titleId = useId();
  const [conversationId] = useState(() => uuidv4());
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const [question, setQuestion] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const abort = useRef<AbortController | null>(null);
  const busy = exchanges.some((e) => e.state === 'waiting' || e.state === 'streaming');

  useEffect(() => {
    input.current?.focus();
    return () => abort.current?.abort();
  }, []);
  useEffect(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [exchanges]);

  const update = useCallback((id: string, change: (e: Exchange) => Partial<Exchange>) => {
    setExchanges((all) => all.map((e) => (e.id === id ? { ...e, ...change(e) } : e)));
  }, []);

  const send = async () => {
    const text = question.trim();
    if (!text || busy || text.length > QUESTION_MAX_CHARS) return;
    const id = uuidv4();
    setExchanges((all) => [...all, { id, question: text, answer: '', citations: [], state: 'waiting' }]);
    setQuestion('');
    const controller = new AbortController();
    abort.current = controller;
    try {
      await askChat(
        { question: text, conversationId, token: await getToken(), signal: controller.signal },
        {
          onCitations: (citations) => update(id, () => ({ citations })),
          onDelta: (delta) => update(id, (e) => ({ answer: e.answer + delta, state: 'streaming' })),
          onDone: () => update(id, () => ({ state: 'done' })),
        },
      );
    } catch (error) {
      if (controller.signal.aborted) return;
      update(id, () => ({ state: 'failed', error: error instanceof ChatError ? error.message : FAILED_MESSAGE }));
    } finally {
      input.current?.focus();
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };
  // Enter sends; Shift+Enter starts a new line.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };
  const tooLong = question.trim().length > QUESTION_MAX_CHARS;

  return (
    <section
      className="insights-chat-panel"
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onMinimise();
      }}
    >
      <header className="insights-chat-header">
        <h2 id={titleId}>{TITLE}</h2>
        <Button icon="minus" variant="minimal" label="Minimise the chat" onClick={onMinimise} />
      </header>
      <div className="insights-chat-log" ref={log} role="log" aria-live="polite" aria-label="Conversation">
        {exchanges.length === 0 && (
          <p className="insights-chat-intro">
            Ask a question about our research. Answers come from the articles you can read, with links to them.
          </p>
        )}
        {exchanges.map((exchange) => (
          <ExchangeView key={exchange.id} exchange={exchange} />
        ))}
      </div>
      <form className="insights-chat-form" onSubmit={submit}>
        <label htmlFor={`${titleId}-question`} className="insights-chat-label">
          Your question
        </label>
        <textarea
          id={`${titleId}-question`}
          ref={input}
          className="insights-chat-input"
          value={question}
          placeholder="Ask a question…"
          rows={2}
          onChange={(event) => setQuestion(event.target.value)}
          onKeyDown={onKeyDown}
          aria-invalid={tooLong}
          aria-describedby={tooLong ? `${titleId}-too-long` : undefined}
        />
        {tooLong && (
          <p id={`${titleId}-too-long`} className="insights-chat-error">
            Maximum {QUESTION_MAX_CHARS} characters
          </p>
        )}
        <Button type="submit" icon="send-message" intent="primary" text="Send" disabled={busy || !question.trim() || tooLong} />
      </form>
    </section>
  );
}

function ExchangeView({ exchange }: { exchange: Exchange }) {
  return (
    <article className="insights-chat-exchange" aria-busy={exchange.state === 'waiting' || exchange.state === 'streaming'}>
      <p className="insights-chat-question">{exchange.question}</p>
      {exchange.state === 'waiting' && (
        <p className="insights-chat-waiting" role="status">
          Answering…
        </p>
      )}
      {exchange.answer && <p className="insights-chat-answer">{exchange.answer.trimEnd()}</p>}
      {exchange.citations.length > 0 && (
        <ol className="insights-chat-citations" aria-label="Sources">
          {exchange.citations.map((citation) => (
            <li key={citation.articleId}>
              <Link to={`/browse/article/${encodeURIComponent(citation.articleId)}`}>{citation.title}</Link>{' '}
              <span className="insights-chat-date">{formatDate(new Date(citation.publishDate))}</span>
            </li>
          ))}
        </ol>
      )}
      {exchange.error && (
        <p className="insights-chat-error" role="alert">
          {exchange.error}
        </p>
      )}
    </article>
  );
}
