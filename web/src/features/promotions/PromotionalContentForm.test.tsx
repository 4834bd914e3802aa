import type { MockLink } from '@apollo/client/testing';
import { GraphQLError } from 'graphql';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import {
  AddPromotionalContentDocument,
  DeletePromotionalContentDocument,
  EditPromotionalContentDocument,
  PromotionalContentByIdDocument,
  PromotionPageChoicesDocument,
  type AddPromotionalContentMutationVariables,
  type EditPromotionalContentMutationVariables,
  type PromotionPageChoicesQueryVariables,
} from './__generated__/PromotionalContentForm.generated';
import { PromotionalContentListDocument } from './__generated__/PromotionalContentList.generated';
import { validateContent, type ContentValues } from './PromotionalContentForm';
import { CONTENT_IDS, contentRecord, PAGE_IDS } from './testData';
import { stubObjectUrls } from '../../testing/objectUrls';

const ADD = '/publisher/promotional-content/add';
const EDIT = `/publisher/promotional-content/edit/${CONTENT_IDS.webinar}`;
const administrator = testUser('Administrator');

const PAGES = [
  { __typename: 'PromotionPage', _id: PAGE_IDS.webinar, name: 'Webinar sign-up' },
  { __typename: 'PromotionPage', _id: PAGE_IDS.summit, name: 'Summit registration' },
];

/** A fake `allPages` for the picker: the pages whose name matches; records each search. */
function pagesMock(calls: PromotionPageChoicesQueryVariables[] = []): MockLink.MockedResponse {
  return {
    request: { query: PromotionPageChoicesDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const v = variables as PromotionPageChoicesQueryVariables;
      calls.push(v);
      const q = v.searchQuery?.toLowerCase() ?? '';
      return { data: { allPages: { __typename: 'PromotionPagePage', pages: PAGES.filter((p) => p.name.toLowerCase().includes(q)) } } };
    },
  };
}

/** The list the form returns to. */
const listMock: MockLink.MockedResponse = {
  request: { query: PromotionalContentListDocument, variables: () => true },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: { data: { promotionalContent: { __typename: 'PromotionalContentPage', total: 0, promotionalContent: [] } } },
};

const byId = (record = contentRecord()): MockLink.MockedResponse => ({
  request: { query: PromotionalContentByIdDocument, variables: { id: record._id } },
  result: { data: { findPromotionalContentById: record } },
});

const form = () => within(screen.getByRole('form'));
const field = (label: string) => screen.getByLabelText(label, { selector: 'input, textarea' });
const destination = () => screen.getByRole('radiogroup', { name: 'Destination link' });

beforeAll(async () => {
  await import('./PromotionalContentForm');
  await import('./PromotionalContentList');
});

describe('validateContent', () => {
  const now = new Date(2026, 2, 5);
  const valid: ContentValues = {
    name: 'Spring offer',
    description: '',
    articleImage: null,
    sidebarImage: null,
    destination: 'ExternalLink',
    link: 'https://example.com/offer',
    promotionPageId: null,
    expiryDate: '',
  };

  it('accepts a named content with a link', () => {
    expect(validateContent(valid, now)).toEqual({});
  });

  it('wants a name of at most 50 characters, a description of at most 250 and a destination', () => {
    expect(validateContent({ ...valid, name: ' ', destination: 'NotSelected' }, now)).toEqual({
      name: 'This field is required',
      destination: 'Please choose a destination link',
    });
    expect(validateContent({ ...valid, name: 'x'.repeat(51), description: 'x'.repeat(251) }, now)).toEqual({
      name: 'Maximum 50 characters',
      description: 'Maximum 250 characters',
    });
  });

  it('requires the link or the page, by the destination', () => {
    expect(validateContent({ ...valid, link: '' }, now)).toEqual({ link: 'This field is required' });
    expect(validateContent({ ...valid, link: '', destination: 'CustomLandingPage' }, now)).toEqual({
      promotionPageId: 'This field is required',
    });
    expect(validateContent({ ...valid, destination: 'CustomLandingPage', promotionPageId: PAGES[0] }, now)).toEqual({});
  });

  it("refuses an expiry in the past ('Date cannot be in the past') or not dd/MM/yyyy ('Invalid Expiry Date')", () => {
    expect(validateContent({ ...valid, expiryDate: '05/03/2026' }, now)).toEqual({});
    expect(validateContent({ ...valid, expiryDate: '04/03/2026' }, now)).toEqual({ expiryDate: 'Date cannot be in the past' });
    expect(validateContent({ ...valid, expiryDate: 'tomorrow' }, now)).toEqual({ expiryDate: 'Invalid Expiry Date' });
  });
});

describe('PromotionalContentForm', () => {
  it('shows messages only once a field is touched, and blocks the save until a destination is chosen', async () => {
    const user = userEvent.setup();
    const add = vi.fn(() => ({ data: { addPromotionalContent: contentRecord() } }));
    renderApp({
      path: ADD,
      user: administrator,
      mocks: [pagesMock(), { request: { query: AddPromotionalContentDocument, variables: () => true }, result: add }],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add promotional content' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'Promotional Content' }),
    ).toHaveAttribute('href', '/publisher/promotional-content');
    expect(field('Name')).not.toHaveAccessibleDescription();

    await user.click(field('Name'));
    await user.tab();
    expect(field('Name')).toHaveAccessibleDescription('This field is required');
    expect(screen.queryByText('Please choose a destination link')).not.toBeInTheDocument();
    await user.type(field('Name'), 'x'.repeat(55));
    expect(field('Name')).toHaveValue('x'.repeat(50));

    await user.click(form().getByRole('button', { name: 'Add' }));
    expect(screen.getByText('Please choose a destination link')).toBeInTheDocument();
    expect(within(destination()).getByRole('radio', { name: 'External link' })).not.toBeChecked();
    expect(within(destination()).getByRole('radio', { name: 'Custom landing page' })).not.toBeChecked();
    expect(add).not.toHaveBeenCalled();
  }, 20_000);

  it('swaps the required field with the destination and adds with only the chosen one', async () => {
    const user = userEvent.setup();
    const searches: PromotionPageChoicesQueryVariables[] = [];
    const add = vi.fn((_: AddPromotionalContentMutationVariables) => ({ data: { addPromotionalContent: contentRecord() } }));
    renderApp({
      path: ADD,
      user: administrator,
      mocks: [pagesMock(searches), listMock, { request: { query: AddPromotionalContentDocument, variables: () => true }, result: add }],
    });
    await screen.findByRole('heading', { level: 1, name: 'Add promotional content' });
    await user.type(field('Name'), 'Energy webinar');
    await user.type(field('Description'), 'Join our analysts live.');

    await user.click(within(destination()).getByRole('radio', { name: 'External link' }));
    expect(screen.queryByText('Please choose a destination link')).not.toBeInTheDocument();
    await user.click(form().getByRole('button', { name: 'Add' }));
    expect(field('Link')).toHaveAccessibleDescription('This field is required');
    expect(screen.queryByRole('combobox', { name: 'Promotion page' })).not.toBeInTheDocument();
    await user.type(field('Link'), 'https://example.com/webinar');
    expect(field('Link')).not.toHaveAccessibleDescription();

    // The page is now the required one; the link typed above is kept but not sent.
    await user.click(within(destination()).getByRole('radio', { name: 'Custom landing page' }));
    expect(screen.queryByLabelText('Link')).not.toBeInTheDocument();
    const picker = screen.getByRole('combobox', { name: 'Promotion page' });
    expect(picker).toHaveAccessibleDescription('This field is required');
    expect(screen.getByRole('link', { name: 'Create a promotion page' })).toHaveAttribute('href', '/publisher/promotional-page/add');

    await user.type(picker, 'summit');
    const matches = await screen.findByRole('listbox', { name: 'Matching promotion pages' });
    await waitFor(() =>
      expect(
        within(matches)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Summit registration']),
    );
    expect(searches.at(-1)).toEqual({ searchQuery: 'summit' });
    await user.keyboard('{Enter}');
    expect(screen.getByRole('link', { name: 'Open Summit registration' })).toHaveAttribute(
      'href',
      `/publisher/promotional-page/edit/${PAGE_IDS.summit}`,
    );

    await user.type(field('Expiry date'), '30/06/2099');
    await user.click(form().getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('The promotional content Energy webinar has been added.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Promotional Content' })).toBeInTheDocument();
    expect(add).toHaveBeenCalledTimes(1);
    expect(add.mock.calls[0][0].item).toEqual({
      name: 'Energy webinar',
      description: 'Join our analysts live.',
      articleImage: null,
      sidebarImage: null,
      destination: 'CustomLandingPage',
      link: null,
      promotionPageId: PAGE_IDS.summit,
      expiryDate: '2099-06-30',
    });
  }, 20_000);

  it("says 'Date cannot be in the past' for a past expiry and 'Invalid Expiry Date' for an unreadable one", async () => {
    const user = userEvent.setup();
    renderApp({ path: ADD, user: administrator, mocks: [pagesMock()] });
    await screen.findByRole('heading', { level: 1, name: 'Add promotional content' });
    expect(field('Expiry date')).toHaveAttribute('placeholder', 'dd/MM/yyyy');
    await user.type(field('Expiry date'), '01/01/2020');
    await user.tab();
    expect(field('Expiry date')).toHaveAccessibleDescription('Date cannot be in the past');
    await user.clear(field('Expiry date'));
    await user.type(field('Expiry date'), '31/02/2099');
    expect(field('Expiry date')).toHaveAccessibleDescription('Invalid Expiry Date');
    await user.clear(field('Expiry date'));
    expect(field('Expiry date')).not.toHaveAccessibleDescription();
  });

  it('edits with the version, and shows the server’s field errors on their fields', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(new Blob(['png'], { type: 'image/png' })));
    stubObjectUrls();
    const edit = vi.fn((_: EditPromotionalContentMutationVariables) => ({
      errors: [
        new GraphQLError('Invalid input', {
          extensions: { code: 'BAD_USER_INPUT', fields: { link: 'Enter a link starting with https://, http:// or /' } },
        }),
      ],
    }));
    renderApp({
      path: EDIT,
      user: administrator,
      mocks: [
        byId(contentRecord({ destination: 'ExternalLink', link: 'https://example.com/old', promotionPageId: null, promotionPage: null })),
        pagesMock(),
        { request: { query: EditPromotionalContentDocument, variables: () => true }, result: edit },
      ],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit promotional content' })).toBeInTheDocument();
    expect(field('Name')).toHaveValue('Energy webinar');
    expect(field('Expiry date')).toHaveValue('30/06/2099');
    expect(within(destination()).getByRole('radio', { name: 'External link' })).toBeChecked();
    await waitFor(() => expect(screen.getByRole('img', { name: 'Article image preview' })).toHaveAttribute('src', 'blob:image'));
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/uploads/article.png');

    await user.clear(field('Link'));
    await user.type(field('Link'), 'ftp://example.com');
    await user.click(form().getByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('BAD_USER_INPUT::Invalid input');
    expect(field('Link')).toHaveAccessibleDescription('Enter a link starting with https://, http:// or /');
    expect(edit.mock.calls[0][0].item).toMatchObject({
      _id: CONTENT_IDS.webinar,
      version: 4,
      destination: 'ExternalLink',
      link: 'ftp://example.com',
      promotionPageId: null,
      expiryDate: '2099-06-30',
    });
    // Still on the form, with what was typed.
    expect(field('Link')).toHaveValue('ftp://example.com');
  });

  it('opens the chosen page for editing from the form, naming this content as its parent', async () => {
    renderApp({ path: EDIT, user: administrator, mocks: [byId(), pagesMock()] });
    expect(await screen.findByRole('link', { name: 'Open Webinar sign-up' })).toHaveAttribute(
      'href',
      `/publisher/promotional-page/edit/${PAGE_IDS.webinar}?parentContentId=${CONTENT_IDS.webinar}`,
    );
    // The chosen page shows read-only, with a button to change it.
    expect(field('Promotion page')).toHaveValue('Webinar sign-up');
    expect(screen.getByRole('button', { name: 'Change Webinar sign-up' })).toBeInTheDocument();
  });

  it('deletes only after the confirmation', async () => {
    const user = userEvent.setup();
    const remove = vi.fn(() => ({ data: { deletePromotionalContent: true } }));
    renderApp({
      path: EDIT,
      user: administrator,
      mocks: [
        byId(),
        pagesMock(),
        listMock,
        { request: { query: DeletePromotionalContentDocument, variables: { id: CONTENT_IDS.webinar } }, result: remove },
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit promotional content' });

    await user.click(form().getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(
      'Delete the promotional content Energy webinar? It is used by 3 articles and 1 topic, which will lose it.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(remove).not.toHaveBeenCalled();

    await user.click(form().getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The promotional content Energy webinar has been deleted.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Promotional Content' })).toBeInTheDocument();
    expect(remove).toHaveBeenCalledTimes(1);
  });

  it('is for Administrators only', async () => {
    renderApp({ path: ADD, user: testUser('Editor') });
    expect(await screen.findByText(/^Access Denied:/)).toBeInTheDocument();
  });
});
