import { vi } from 'vitest';

// jsdom lacks what Lexical looks for: first, before Lexical loads.
import '../../testing/lexicalDom';

import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { $getRoot, $isTextNode, type LexicalEditor } from 'lexical';
import type { User } from 'oidc-client-ts';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { UiProvider } from '../blueprint';
import { AuthContextProvider, type AuthApi } from '../../lib/auth';
import { TableauChartsDocument } from '../../lib/tableau/__generated__/tableau.generated';
import { RichTextEditor, type RichTextEditorProps } from './RichTextEditor';
import { DESCRIBE_IMAGE } from './dialogs';

const PROMO = '5f9b2c3e1a2b3c4d5e6f7a8b';
const CHART_GAS = 'c3a1e2f0-0000-4000-8000-000000000001';
const CHART_OIL = 'c3a1e2f0-0000-4000-8000-000000000003';

/** The Tableau project's charts (getTableauCharts), by title. */
function chartsMock(
  charts = [
    { id: CHART_GAS, title: 'Gas Prices', path: 'Energy/GasPrices' },
    { id: CHART_OIL, title: 'Oil Supply', path: 'Energy/OilSupply' },
  ],
): MockLink.MockedResponse {
  const items = charts.map((c) => ({ __typename: 'ChartsItem', ...c, image: `/tableau/views/${c.id}/image` }));
  return { request: { query: TableauChartsDocument }, result: { data: { getTableauCharts: items } } };
}
const PAGE_1 = '5f9b2c3e1a2b3c4d5e6f7a01.png';
const PAGE_2 = '5f9b2c3e1a2b3c4d5e6f7a02.png';

const auth: AuthApi = {
  user: { access_token: 'test-access-token', expired: false } as User,
  ready: true,
  signIn: async () => {},
  completeSignIn: async () => ({}) as User,
  renew: async () => null,
  signOut: async () => {},
  signingOut: false,
};

function renderEditor(props: Partial<RichTextEditorProps> = {}, mocks: MockLink.MockedResponse[] = []) {
  const onChange = vi.fn<(html: string) => void>();
  const view = render(
    <UiProvider>
      <AuthContextProvider value={auth}>
        <MockedProvider mocks={mocks}>
          <RichTextEditor initialHtml="" onChange={onChange} {...props} />
        </MockedProvider>
      </AuthContextProvider>
    </UiProvider>,
  );
  const textbox = screen.getByRole('textbox', { name: props.ariaLabel ?? 'Article body' });
  // Lexical keeps its editor on the editable element; tests use it to place the caret, as a click would.
  const editor = (textbox as HTMLElement & { __lexicalEditor: LexicalEditor }).__lexicalEditor;
  return { ...view, onChange, textbox, editor };
}

/** Puts the caret at the end of the document's `index`th block. */
function placeCaret(editor: LexicalEditor, index: number) {
  act(() => editor.update(() => $getRoot().getChildAtIndex(index)?.selectEnd(), { discrete: true }));
}

/** Selects characters `from`–`to` of the document's first text. */
function selectText(editor: LexicalEditor, from: number, to: number) {
  act(() =>
    editor.update(
      () => {
        const text = $getRoot().getFirstDescendant();
        if ($isTextNode(text)) text.select(from, to);
      },
      { discrete: true },
    ),
  );
}

/** The last HTML the editor reported. */
const lastHtml = (onChange: ReturnType<typeof renderEditor>['onChange']) => onChange.mock.lastCall?.[0];

/** Reported HTML, to look at (jsdom loads no images). */
function parse(html: string | undefined): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = html ?? '';
  return container;
}

const toolbar = () => within(screen.getByRole('toolbar', { name: 'Formatting' }));

function pdfFile(size: number): File {
  const file = new File(['%PDF-1.7'], 'report.pdf', { type: 'application/pdf' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('RichTextEditor', () => {
  it('shows the initial HTML in a named, multiline text box, and reports nothing until the content changes', async () => {
    const { textbox, onChange } = renderEditor({ initialHtml: '<h2>Outlook</h2><p>Rates <b>rise</b>.</p>', ariaLabel: 'Template body' });
    expect(textbox).toHaveAttribute('aria-multiline', 'true');
    expect(textbox).toHaveAttribute('contenteditable', 'true');
    expect(within(textbox).getByRole('heading', { level: 2, name: 'Outlook' })).toHaveClass('editor-h2');
    expect(textbox).toHaveTextContent('Rates rise.');
    expect(toolbar().getByRole('button', { name: 'Undo' })).toBeDisabled();
    await act(async () => {});
    expect(onChange).not.toHaveBeenCalled();
  });

  it('reports the HTML after typing', async () => {
    const user = userEvent.setup();
    const { textbox, onChange } = renderEditor();
    await user.click(textbox);
    await user.keyboard('Hello');
    await waitFor(() =>
      expect(lastHtml(onChange)).toBe('<p class="editor-paragraph"><span style="white-space: pre-wrap;">Hello</span></p>'),
    );
  });

  it('is not editable and has no toolbar when read-only', () => {
    const { textbox } = renderEditor({ initialHtml: '<p>Fixed</p>', readOnly: true });
    expect(textbox).toHaveAttribute('contenteditable', 'false');
    expect(screen.queryByRole('toolbar')).not.toBeInTheDocument();
  });

  it('reloads the initial HTML when the reset key changes, without reporting it as a change', async () => {
    const onChange = vi.fn();
    function Harness() {
      const [state, setState] = useState({ html: '<p>First</p>', key: 1 });
      return (
        <UiProvider>
          <AuthContextProvider value={auth}>
            <button type="button" onClick={() => setState({ html: '<p>Second</p>', key: 2 })}>
              Resume
            </button>
            <RichTextEditor initialHtml={state.html} resetKey={state.key} onChange={onChange} />
          </AuthContextProvider>
        </UiProvider>
      );
    }
    render(<Harness />);
    const textbox = screen.getByRole('textbox', { name: 'Article body' });
    expect(textbox).toHaveTextContent('First');
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(textbox).toHaveTextContent('Second'));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('formats the selection and shows the state of the toggles', async () => {
    const user = userEvent.setup();
    const { editor, onChange } = renderEditor({ initialHtml: '<p>Word</p>' });
    selectText(editor, 0, 4);
    const bold = toolbar().getByRole('button', { name: 'Bold' });
    expect(bold).toHaveAttribute('aria-pressed', 'false');
    await user.click(bold);
    await waitFor(() => expect(bold).toHaveAttribute('aria-pressed', 'true'));
    expect(lastHtml(onChange)).toContain('<strong class="editor-text-bold" style="white-space: pre-wrap;">Word</strong>');
  });

  it('applies a line height to the selected paragraph, and Default removes it', async () => {
    const user = userEvent.setup();
    const { editor, onChange, textbox } = renderEditor({ initialHtml: '<p>One</p><p>Two</p>' });
    placeCaret(editor, 1);
    await user.selectOptions(toolbar().getByRole('combobox', { name: 'Line height' }), '1.5');
    await waitFor(() =>
      expect(lastHtml(onChange)).toContain(
        '<p class="editor-paragraph" style="line-height: 1.5;"><span style="white-space: pre-wrap;">Two',
      ),
    );
    expect(lastHtml(onChange)).toMatch(/^<p class="editor-paragraph"><span[^>]*>One/);
    expect(within(textbox).getByText('Two').closest('p')).toHaveStyle({ lineHeight: '1.5' });

    await user.selectOptions(toolbar().getByRole('combobox', { name: 'Line height' }), 'Default');
    await waitFor(() => expect(lastHtml(onChange)).not.toContain('line-height'));
    expect(within(textbox).getByText('Two').closest('p')).not.toHaveAttribute('style');
  });

  it('turns a paragraph into a heading', async () => {
    const user = userEvent.setup();
    const { editor, onChange } = renderEditor({ initialHtml: '<p>Title</p>' });
    placeCaret(editor, 0);
    await user.selectOptions(toolbar().getByRole('combobox', { name: 'Block type' }), 'Heading 1');
    await waitFor(() => expect(lastHtml(onChange)).toBe('<h1 class="editor-h1"><span style="white-space: pre-wrap;">Title</span></h1>'));
  });

  it('makes a bulleted list', async () => {
    const user = userEvent.setup();
    const { editor, onChange } = renderEditor({ initialHtml: '<p>Item</p>' });
    placeCaret(editor, 0);
    await user.click(toolbar().getByRole('button', { name: 'Bulleted list' }));
    await waitFor(() => expect(lastHtml(onChange)).toContain('<ul class="editor-list-ul"><li value="1" class="editor-listitem">'));
    expect(toolbar().getByRole('button', { name: 'Bulleted list' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('links the selected text through the link dialog, refusing other schemes', async () => {
    const user = userEvent.setup();
    const { editor, onChange } = renderEditor({ initialHtml: '<p>Read the report</p>' });
    selectText(editor, 9, 15);
    await user.click(toolbar().getByRole('button', { name: 'Link' }));
    const dialog = screen.getByRole('dialog', { name: 'Insert link' });
    const address = within(dialog).getByRole('textbox', { name: 'Address' });
    expect(address).toHaveFocus();
    await user.type(address, 'javascript:alert(1){Enter}');
    expect(within(dialog).getByText('Enter a web address (http or https) or a mailto: address.')).toBeInTheDocument();
    await user.clear(address);
    await user.type(address, 'example.com/report{Enter}');
    await waitFor(() => expect(lastHtml(onChange)).toContain('report</span></a>'));
    const link = parse(lastHtml(onChange)).querySelector('a');
    expect(link).toHaveTextContent('report');
    expect(link).toHaveAttribute('href', 'https://example.com/report');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link?.previousSibling).toHaveTextContent('Read the');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('embeds only Vimeo, Spotify and Buzzsprout', async () => {
    const user = userEvent.setup();
    const { editor, onChange, textbox } = renderEditor({ initialHtml: '<p>Intro</p>' });
    placeCaret(editor, 0);
    await user.click(toolbar().getByRole('button', { name: 'Embed video or audio' }));
    const dialog = screen.getByRole('dialog', { name: 'Embed video or audio' });
    const url = within(dialog).getByRole('textbox', { name: 'Vimeo, Spotify or Buzzsprout link' });
    await user.type(url, 'https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await user.click(within(dialog).getByRole('button', { name: 'Embed' }));
    expect(within(dialog).getByText('Only Vimeo, Spotify and Buzzsprout links can be embedded.')).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();

    await user.clear(url);
    await user.type(url, 'https://vimeo.com/76979871');
    await user.click(within(dialog).getByRole('button', { name: 'Embed' }));
    // Inserted at the end, a block gets an empty paragraph after it for the caret.
    await waitFor(() =>
      expect(lastHtml(onChange)).toBe(
        '<p class="editor-paragraph"><span style="white-space: pre-wrap;">Intro</span></p>' +
          '<iframe src="https://player.vimeo.com/video/76979871" width="100%" height="360" title="Vimeo video player" frameborder="0" ' +
          'allow="autoplay; fullscreen; picture-in-picture" allowfullscreen="" loading="lazy"></iframe>' +
          '<p class="editor-paragraph"><br></p>',
      ),
    );
    expect(within(textbox).getByTitle('Vimeo video player')).toHaveAttribute('src', 'https://player.vimeo.com/video/76979871');
  });

  it('offers the chart button only with charts enabled, and inserts a chart picked from the Tableau project', async () => {
    const user = userEvent.setup();
    const { unmount } = renderEditor();
    expect(toolbar().queryByRole('button', { name: 'Tableau chart' })).not.toBeInTheDocument();
    unmount();

    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => `blob:${(blob as Blob).size}`);
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(new Blob(['png']), { status: 200 }));
    const { editor, onChange, textbox } = renderEditor({ initialHtml: '<p>Intro</p>', chartsEnabled: true }, [chartsMock()]);
    placeCaret(editor, 0);
    await user.click(toolbar().getByRole('button', { name: 'Tableau chart' }));
    const dialog = screen.getByRole('dialog', { name: 'Insert Tableau chart' });

    // The project's charts by title, each with its preview fetched with the bearer token.
    const charts = within(await within(dialog).findByRole('radiogroup', { name: 'Charts' }));
    expect(charts.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['Gas Prices', 'Oil Supply']);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe(`/tableau/views/${CHART_GAS}/image`);
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer test-access-token');
    await waitFor(() => expect(dialog.querySelectorAll('img[src^="blob:"]')).toHaveLength(2));

    // Nothing picked yet; the search narrows the list.
    await user.click(within(dialog).getByRole('button', { name: 'Insert chart' }));
    expect(within(dialog).getByText('Choose a chart.')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Search charts' }), 'oil');
    expect(charts.getAllByRole('radio')).toHaveLength(1);
    await user.click(charts.getByRole('radio', { name: 'Oil Supply' }));
    await user.click(within(dialog).getByRole('button', { name: 'Insert chart' }));

    await waitFor(() => expect(lastHtml(onChange)).toContain(`<div data-chart-id="${CHART_OIL}" class="editor-chart"></div>`));
    expect(screen.queryByRole('dialog', { name: 'Insert Tableau chart' })).not.toBeInTheDocument();
    // The block shows the chart's title (the list is in the cache).
    expect(within(textbox).getByText('Tableau chart: Oil Supply')).toBeInTheDocument();

    // A selected block goes with Remove.
    await user.click(within(textbox).getByRole('button', { name: 'Remove Tableau chart: Oil Supply' }));
    await waitFor(() => expect(lastHtml(onChange)).not.toContain('data-chart-id'));
  });

  it('inserts a chart at once on a double click, and says when the project has none or Tableau fails', async () => {
    const user = userEvent.setup();
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(null, { status: 404 }));
    const { editor, onChange, unmount } = renderEditor({ initialHtml: '<p>Intro</p>', chartsEnabled: true }, [chartsMock()]);
    placeCaret(editor, 0);
    await user.click(toolbar().getByRole('button', { name: 'Tableau chart' }));
    await user.dblClick(await screen.findByText('Gas Prices'));
    await waitFor(() => expect(lastHtml(onChange)).toContain(`data-chart-id="${CHART_GAS}"`));
    unmount();

    renderEditor({ chartsEnabled: true }, [chartsMock([])]);
    await user.click(toolbar().getByRole('button', { name: 'Tableau chart' }));
    expect(await screen.findByText('There are no charts in the Tableau project.')).toBeInTheDocument();
    cleanup();

    const failure = {
      request: { query: TableauChartsDocument },
      result: {
        errors: [{ message: 'Tableau is not available at the moment. Please try again later.', extensions: { code: 'UNAVAILABLE' } }],
      },
    };
    renderEditor({ chartsEnabled: true }, [failure]);
    await user.click(toolbar().getByRole('button', { name: 'Tableau chart' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Tableau is not available at the moment. Please try again later.');
  });

  it('inserts promotional content, but not in a list', async () => {
    const user = userEvent.setup();
    const { editor, onChange, textbox } = renderEditor({
      initialHtml: '<p>Intro</p><ul><li>Item</li></ul>',
      promotionalContent: [{ _id: PROMO, name: 'Energy webinar' }],
    });
    placeCaret(editor, 1);
    await user.click(screen.getByRole('button', { name: 'Insert promotional content' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Energy webinar' }));
    expect(await screen.findByText("You can't insert Promotional Content in a list.")).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();

    placeCaret(editor, 0);
    await user.click(screen.getByRole('button', { name: 'Insert promotional content' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Energy webinar' }));
    await waitFor(() =>
      expect(lastHtml(onChange)).toMatch(
        new RegExp(`Intro</span></p><div data-promotional-content-id="${PROMO}" class="editor-promotional-content"></div><ul`),
      ),
    );
    expect(within(textbox).getByText('Promotional content: Energy webinar')).toBeInTheDocument();
  });

  it('asks what an image shows, then uploads it and inserts it with that text', async () => {
    const user = userEvent.setup();
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(
        new Response(JSON.stringify({ link: `/uploads/${PAGE_1}`, fileName: PAGE_1, contentType: 'image/png', size: 3 }), { status: 201 }),
      );
    const { editor, onChange } = renderEditor({ initialHtml: '<p>See </p>' });
    placeCaret(editor, 0);
    await user.upload(screen.getByLabelText('Image file'), new File(['png'], 'chart.png', { type: 'image/png' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insert image chart.png' });
    await user.click(within(dialog).getByRole('button', { name: 'Insert image' }));
    expect(within(dialog).getByRole('textbox', { name: 'Alternative text' })).toHaveAccessibleDescription(DESCRIBE_IMAGE);
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(within(dialog).getByRole('textbox', { name: 'Alternative text' }), 'Copper price since 2020');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(lastHtml(onChange)).toContain(`<img src="/uploads/${PAGE_1}" alt="Copper price since 2020">`));
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/upload');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer test-access-token');
  });

  it('inserts a decorative image with an empty alt', async () => {
    const user = userEvent.setup();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ link: `/uploads/${PAGE_1}`, fileName: PAGE_1, contentType: 'image/png', size: 3 }), { status: 201 }),
    );
    const { editor, onChange } = renderEditor({ initialHtml: '<p>See </p>' });
    placeCaret(editor, 0);
    await user.upload(screen.getByLabelText('Image file'), new File(['png'], 'rule.png', { type: 'image/png' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insert image rule.png' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Decorative image (no description)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Insert image' }));
    await waitFor(() => expect(lastHtml(onChange)).toContain(`<img src="/uploads/${PAGE_1}" alt="">`));
  });

  it('refuses a PDF over 20 MB without uploading it', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    renderEditor();
    await user.upload(screen.getByLabelText('PDF file'), pdfFile(20_971_521));
    expect(await screen.findByText('The PDF is too large: it can be at most 20 MB.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('uploads a PDF and inserts one image per page, in order, showing progress meanwhile', async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => {};
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { editor, onChange } = renderEditor({ initialHtml: '<p>Report</p>' });
    placeCaret(editor, 0);
    await user.upload(screen.getByLabelText('PDF file'), pdfFile(20_971_520));
    const button = toolbar().getByRole('button', { name: 'Insert PDF pages' });
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Uploading the PDF…');

    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/upload-file');
    expect(init?.method).toBe('POST');
    const headers = new Headers(init?.headers);
    expect(headers.get('authorization')).toBe('Bearer test-access-token');
    expect(headers.get('x-request-id')).toBeTruthy();
    expect(headers.get('x-session-id')).toBeTruthy();
    expect((init?.body as FormData).get('file')).toBeInstanceOf(File);

    const pages = [PAGE_1, PAGE_2].map((fileName) => ({ link: `/uploads/${fileName}`, fileName }));
    await act(async () => answer(new Response(JSON.stringify({ pageCount: 2, pages }), { status: 201 })));
    await waitFor(() =>
      expect(lastHtml(onChange)).toBe(
        '<p class="editor-paragraph"><span style="white-space: pre-wrap;">Report</span></p>' +
          `<p class="editor-paragraph"><img src="/uploads/${PAGE_1}" alt="Page 1 of 2, report.pdf"></p>` +
          `<p class="editor-paragraph"><img src="/uploads/${PAGE_2}" alt="Page 2 of 2, report.pdf"></p>` +
          '<p class="editor-paragraph"><br></p>',
      ),
    );
    expect(button).toBeEnabled();
  });

  it('shows a failed upload in a toast', async () => {
    const user = userEvent.setup();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ code: 'BAD_USER_INPUT', message: 'File format not supported: upload a PDF' }), { status: 400 }),
    );
    const { onChange } = renderEditor();
    await user.upload(screen.getByLabelText('PDF file'), pdfFile(100));
    expect(await screen.findByText('BAD_USER_INPUT::File format not supported: upload a PDF')).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('strips tables from pasted HTML, keeping the cell text as paragraphs', async () => {
    const { editor, onChange, textbox } = renderEditor({ initialHtml: '<p>Start</p>' });
    placeCaret(editor, 0);
    const html = '<table><tr><th>Fuel</th><th>Price</th></tr><tr><td>Oil</td><td>82</td></tr></table>';
    const paste = new ClipboardEvent('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(paste, 'clipboardData', {
      value: {
        types: ['text/html', 'text/plain'],
        files: [],
        getData: (type: string) => (type === 'text/html' ? html : type === 'text/plain' ? 'Fuel Price Oil 82' : ''),
      },
    });
    fireEvent(textbox, paste);
    await waitFor(() => expect(lastHtml(onChange)).toContain('Oil'));
    expect(lastHtml(onChange)).not.toMatch(/<(table|tr|td|th)\b/);
    expect(within(textbox).queryByRole('table')).not.toBeInTheDocument();
    const texts = editor.read(() =>
      $getRoot()
        .getChildren()
        .map((node) => `${node.getType()}:${node.getTextContent()}`),
    );
    expect(texts).toEqual(['paragraph:StartFuel', 'paragraph:Price', 'paragraph:Oil', 'paragraph:82']);
  });
});
