import { vi } from 'vitest';

// jsdom lacks what Lexical looks for: first, before Lexical loads.
import '../../testing/lexicalDom';

// jsdom has no canvas: the crop itself is tested through its geometry (cropImage.test.ts); here it
// stands in for the cropped file, so the test sees what is uploaded.
vi.mock('./cropImage', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./cropImage')>()),
  cropToRatio: vi.fn(async (file: File) => new File(['cropped'], `${file.name.replace(/\.[^.]*$/, '')}-2x1.png`, { type: 'image/png' })),
}));

import type { MockLink } from '@apollo/client/testing';
import { GraphQLError } from 'graphql';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import {
  AddPromotionPageDocument,
  DeletePromotionPageDocument,
  EditPromotionPageDocument,
  PromotionPageByIdDocument,
  type AddPromotionPageMutationVariables,
  type DeletePromotionPageMutationVariables,
  type EditPromotionPageMutationVariables,
} from './__generated__/PromotionPageForm.generated';
import { PromotionPageListDocument } from './__generated__/PromotionPageList.generated';
import { cropToRatio } from './cropImage';
import { CONTENT_IDS, PAGE_IDS, pageRecord } from './testData';
import { stubObjectUrls } from '../../testing/objectUrls';

const ADD = '/publisher/promotional-page/add';
const EDIT = `/publisher/promotional-page/edit/${PAGE_IDS.webinar}`;
const REQUIRED = 'This field is required.';
const IN_USE = 'Heads up! This page is currently in use. Any updates will be reflected everywhere.';
const REFUSED = 'This page is used by another Promotional Content, so it can’t be deleted.';
const administrator = testUser('Administrator');

const listMock: MockLink.MockedResponse = {
  request: { query: PromotionPageListDocument, variables: () => true },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: { data: { allPages: { __typename: 'PromotionPagePage', total: 0, pages: [] } } },
};

const byId = (record = pageRecord()): MockLink.MockedResponse => ({
  request: { query: PromotionPageByIdDocument, variables: { id: record._id } },
  result: { data: { findPromotionPageById: record } },
});

const inUse = pageRecord({
  inUse: true,
  promotionalContent: [
    { __typename: 'PromotionalContentSummary', _id: CONTENT_IDS.webinar, name: 'Energy webinar' },
    { __typename: 'PromotionalContentSummary', _id: CONTENT_IDS.summit, name: 'Metals summit' },
  ],
});

const form = () => within(screen.getByRole('form'));
const field = (label: string) => screen.getByLabelText(label, { selector: 'input, textarea' });
const body = () => screen.getByRole('textbox', { name: 'Page content' });

beforeAll(async () => {
  await import('./PromotionPageForm');
  await import('./PromotionPageList');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('PromotionPageForm', () => {
  it("says 'This field is required.' for every field, and for the html only after a save attempt", async () => {
    const user = userEvent.setup();
    const add = vi.fn(() => ({ data: { addPromotionPage: pageRecord() } }));
    renderApp({
      path: ADD,
      user: administrator,
      mocks: [{ request: { query: AddPromotionPageDocument, variables: () => true }, result: add }],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add promotion page' })).toBeInTheDocument();
    expect(screen.queryByText(IN_USE)).not.toBeInTheDocument();

    await user.click(field('Name'));
    await user.click(body());
    await user.tab();
    expect(field('Name')).toHaveAccessibleDescription(REQUIRED);
    // Entering and leaving the editor shows nothing yet.
    expect(screen.getAllByText(REQUIRED)).toHaveLength(1);

    await user.click(form().getByRole('button', { name: 'Add' }));
    for (const label of ['Name', 'Teams channel or email', 'Social sharing image', 'Success title']) {
      expect(field(label)).toHaveAccessibleDescription(REQUIRED);
    }
    expect(field('Page summary')).toHaveAccessibleDescription(`${REQUIRED} 200 characters remaining`);
    expect(field('Success message')).toHaveAccessibleDescription(`${REQUIRED} 200 characters remaining`);
    // The seven fields, the html's included.
    expect(screen.getAllByText(REQUIRED)).toHaveLength(7);
    expect(add).not.toHaveBeenCalled();
  }, 20_000);

  it('adds a page: the html typed, the image cropped to 2:1 and uploaded, the summary held at 200', async () => {
    const user = userEvent.setup();
    const add = vi.fn((_: AddPromotionPageMutationVariables) => ({ data: { addPromotionPage: pageRecord() } }));
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(
        async () =>
          new Response(JSON.stringify({ link: '/uploads/s.png', fileName: 's.png', contentType: 'image/png', size: 7 }), { status: 201 }),
      );
    stubObjectUrls();
    renderApp({
      path: ADD,
      user: administrator,
      mocks: [listMock, { request: { query: AddPromotionPageDocument, variables: () => true }, result: add }],
    });
    await screen.findByRole('heading', { level: 1, name: 'Add promotion page' });

    await user.type(field('Name'), 'Webinar sign-up');
    await user.click(body());
    await user.keyboard('Hear our analysts');
    await user.type(field('Teams channel or email'), 'events@insights.example');
    await user.click(field('Page summary'));
    await user.paste('x'.repeat(210));
    expect(field('Page summary')).toHaveValue('x'.repeat(200));
    await user.upload(field('Social sharing image'), new File(['photo'], 'photo.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect(screen.getByRole('img', { name: 'Social sharing image preview' })).toHaveAttribute('src', 'blob:image'));
    expect(fetchMock.mock.calls[1][0]).toBe('/uploads/s.png');
    expect(cropToRatio).toHaveBeenCalledTimes(1);
    const uploaded = (fetchMock.mock.calls[0][1]?.body as FormData).get('file') as File;
    expect(uploaded.name).toBe('photo-2x1.png');
    await user.type(field('Success title'), 'Thank you');
    await user.type(field('Success message'), 'We will send you the invitation.');

    await user.click(form().getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('The promotion page Webinar sign-up has been added.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Promotion pages' })).toBeInTheDocument();
    const { item } = add.mock.calls[0][0];
    expect(item).toMatchObject({
      name: 'Webinar sign-up',
      teamsChannel: 'events@insights.example',
      pageSummary: 'x'.repeat(200),
      socialSharingImageUrl: 's.png',
      successTitle: 'Thank you',
      successMessage: 'We will send you the invitation.',
    });
    expect(item.html).toContain('Hear our analysts');
  }, 20_000);

  it('warns that a page in use changes everywhere, and names the content using it', async () => {
    renderApp({ path: EDIT, user: administrator, mocks: [byId(inUse)] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit promotion page' })).toBeInTheDocument();
    expect(screen.getByText(IN_USE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Metals summit' })).toHaveAttribute(
      'href',
      `/publisher/promotional-content/edit/${CONTENT_IDS.summit}`,
    );
    expect(field('Name')).toHaveValue('Webinar sign-up');
    expect(body()).toHaveTextContent('Hear our analysts on the gas market.');
  });

  it('has no warning for a page nobody uses, and updates it with its version', async () => {
    const user = userEvent.setup();
    const edit = vi.fn((_: EditPromotionPageMutationVariables) => ({ data: { editPromotionPage: pageRecord({ version: 3 }) } }));
    renderApp({
      path: EDIT,
      user: administrator,
      mocks: [byId(), listMock, { request: { query: EditPromotionPageDocument, variables: () => true }, result: edit }],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit promotion page' });
    expect(screen.queryByText(IN_USE)).not.toBeInTheDocument();
    await user.clear(field('Success title'));
    await user.type(field('Success title'), 'Thanks!');
    await user.click(form().getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('The promotion page Webinar sign-up has been updated.')).toBeInTheDocument();
    expect(edit.mock.calls[0][0].item).toMatchObject({
      _id: PAGE_IDS.webinar,
      version: 2,
      successTitle: 'Thanks!',
      html: pageRecord().html,
    });
  });

  it('shows the server’s refusal to delete a page in use as an error alert, and stays', async () => {
    const user = userEvent.setup();
    const remove = vi.fn((_: DeletePromotionPageMutationVariables) => ({
      errors: [new GraphQLError(REFUSED, { extensions: { code: 'CONFLICT' } })],
    }));
    renderApp({
      path: `${EDIT}?parentContentId=${CONTENT_IDS.webinar}`,
      user: administrator,
      mocks: [byId(inUse), { request: { query: DeletePromotionPageDocument, variables: () => true }, result: remove }],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit promotion page' });
    await user.click(form().getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Delete the promotion page Webinar sign-up?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await form().findByRole('alert')).toHaveTextContent(REFUSED);
    expect(screen.getByRole('heading', { level: 1, name: 'Edit promotion page' })).toBeInTheDocument();
    // Opened from a content's form, that content is named as the parent.
    expect(remove.mock.calls[0][0].item).toEqual({ _id: PAGE_IDS.webinar, parentContentId: CONTENT_IDS.webinar });
  });

  it('deletes a page nobody uses after the confirmation', async () => {
    const user = userEvent.setup();
    const remove = vi.fn((_: DeletePromotionPageMutationVariables) => ({ data: { deletePromotionPage: true } }));
    renderApp({
      path: EDIT,
      user: administrator,
      mocks: [byId(), listMock, { request: { query: DeletePromotionPageDocument, variables: () => true }, result: remove }],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit promotion page' });
    await user.click(form().getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The promotion page Webinar sign-up has been deleted.')).toBeInTheDocument();
    await waitFor(() => expect(remove).toHaveBeenCalledTimes(1));
    expect(remove.mock.calls[0][0].item).toEqual({ _id: PAGE_IDS.webinar, parentContentId: null });
  });
});
