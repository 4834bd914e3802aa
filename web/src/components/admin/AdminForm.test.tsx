import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createContext, useContext, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../blueprint';
import { AdminForm } from './AdminForm';
import { CheckboxField, TextAreaField, TextField } from './fields';
import { useAdminForm, type FieldErrors } from './useAdminForm';

interface Thing {
  _id: string;
  name: string;
  description: string;
  hidden: boolean;
}

interface ThingValues extends Record<string, unknown> {
  name: string;
  description: string;
  hidden: boolean;
}

const validate = (v: ThingValues): FieldErrors<ThingValues> => ({
  ...(v.name.trim() ? {} : { name: 'This field is required' }),
  ...(v.description.trim() ? {} : { description: 'This field is required' }),
});

interface Handlers {
  save: (values: ThingValues, record: Thing | null) => Promise<unknown>;
  remove: (record: Thing) => Promise<unknown>;
}

function ThingForm({ record, save, remove }: { record: Thing | null } & Handlers) {
  const form = useAdminForm<ThingValues, Thing>({
    type: 'thing',
    listPath: '/things',
    record,
    empty: { name: '', description: '', hidden: false },
    toValues: (t) => ({ name: t.name, description: t.description, hidden: t.hidden }),
    validate,
    nameOf: (v) => v.name,
    save,
    remove,
  });
  const title = record ? 'Edit thing' : 'Add thing';
  return (
    <AdminForm
      form={form}
      title={title}
      breadcrumbs={[{ text: 'Things', to: '/things' }, { text: title }]}
      deleteTitle="Delete thing"
      deleteText={<p>2 articles use this thing and will lose it.</p>}
    >
      <TextField label="Name" maxLength={10} {...form.field('name')} />
      <TextAreaField label="Description" maxLength={500} counter {...form.field('description')} />
      <CheckboxField label="Hidden" {...form.field('hidden')} />
    </AdminForm>
  );
}

/** The record the test's form shows; re-rendering the provider hands the form another record. */
const RecordContext = createContext<Thing | null>(null);

function ThingFromContext(handlers: Handlers) {
  return <ThingForm record={useContext(RecordContext)} {...handlers} />;
}

/** The form inside a router of its own, so a test can re-render it with another record. */
function ThingRoute({ record, ...handlers }: { record: Thing | null } & Handlers) {
  const [router] = useState(() => createMemoryRouter([{ path: '*', element: <ThingFromContext {...handlers} /> }]));
  return (
    <RecordContext.Provider value={record}>
      <RouterProvider router={router} />
    </RecordContext.Provider>
  );
}

const OLD: Thing = { _id: 't1', name: 'Old', description: 'An old thing', hidden: false };

function renderForm(path: '/things/add' | '/things/edit', handlers: Partial<Handlers> = {}) {
  const save = vi.fn(handlers.save ?? (async () => ({})));
  const remove = vi.fn(handlers.remove ?? (async () => ({})));
  const router = createMemoryRouter(
    [
      { path: '/things', element: <h1>List page</h1> },
      { path: '/things/add', element: <ThingForm record={null} save={save} remove={remove} /> },
      { path: '/things/edit', element: <ThingForm record={OLD} save={save} remove={remove} /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <UiProvider>
      <RouterProvider router={router} />
    </UiProvider>,
  );
  return { save, remove, router };
}

const badInput = (fields: Record<string, string>) =>
  new CombinedGraphQLErrors({ data: null, errors: [{ message: 'Invalid input', extensions: { code: 'BAD_USER_INPUT', fields } }] });

/** The form itself: toasts of earlier tests and a closing dialog may also hold alerts and buttons. */
const form = () => within(screen.getByRole('form'));

afterEach(() => {
  vi.useRealTimers();
});

describe('useAdminForm + AdminForm', () => {
  it('is a new form without a record: Add, Cancel, no Delete, a breadcrumb back to the list', () => {
    renderForm('/things/add');
    expect(screen.getByRole('heading', { level: 1, name: 'Add thing' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Things' })).toHaveAttribute('href', '/things');
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });

  it('sets the document title to the heading', () => {
    renderForm('/things/add');
    expect(document.title).toBe('Add thing – Insights');
  });

  it('takes a refused submit to the first field to correct, and says how many need correcting', async () => {
    const user = userEvent.setup();
    const { save } = renderForm('/things/add');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByLabelText('Name')).toHaveFocus();
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('This field is required');
    expect(form().getByRole('status')).toHaveTextContent('2 fields need correcting');

    await user.type(screen.getByLabelText('Name'), 'New');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByLabelText('Description')).toHaveFocus();
    expect(form().getByRole('status')).toHaveTextContent('1 field needs correcting');
    expect(save).not.toHaveBeenCalled();
  });

  it('takes a submit the server refuses to the field it names', async () => {
    const user = userEvent.setup();
    renderForm('/things/add', { save: async () => Promise.reject(badInput({ 'item.description': 'Too vague' })) });
    await user.type(screen.getByLabelText('Name'), 'New');
    await user.type(screen.getByLabelText('Description'), 'Something');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Too vague')).toBeInTheDocument();
    expect(screen.getByLabelText('Description')).toHaveFocus();
  });

  it("is an edit form with a record: the record's values, Update and Delete", () => {
    renderForm('/things/edit');
    expect(screen.getByRole('heading', { level: 1, name: 'Edit thing' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Old');
    expect(screen.getByRole('button', { name: 'Update' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  it('keeps what the user typed when the same record is loaded again, and restarts from a changed one', async () => {
    const user = userEvent.setup();
    const handlers = { save: async () => ({}), remove: async () => ({}) };
    const { rerender } = render(
      <UiProvider>
        <ThingRoute record={OLD} {...handlers} />
      </UiProvider>,
    );
    await user.type(screen.getByLabelText('Name'), ' one');
    // A refetch brings an equal record back as a new object.
    rerender(
      <UiProvider>
        <ThingRoute record={{ ...OLD }} {...handlers} />
      </UiProvider>,
    );
    expect(screen.getByLabelText('Name')).toHaveValue('Old one');
    rerender(
      <UiProvider>
        <ThingRoute record={{ ...OLD, name: 'Renamed' }} {...handlers} />
      </UiProvider>,
    );
    expect(screen.getByLabelText('Name')).toHaveValue('Renamed');
  });

  it('shows a field error only once the field was touched', async () => {
    const user = userEvent.setup();
    renderForm('/things/add');
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Name'));
    await user.tab();
    expect(screen.getByText('This field is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Description')).toHaveAttribute('aria-invalid', 'false');
  });

  it('marks every field touched on submit and sends nothing while a rule fails', async () => {
    const user = userEvent.setup();
    const { save } = renderForm('/things/add');
    await user.type(screen.getByLabelText('Name'), 'Widget');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getAllByText('This field is required')).toHaveLength(1);
    expect(screen.getByLabelText('Description')).toHaveAttribute('aria-invalid', 'true');
    expect(save).not.toHaveBeenCalled();
  });

  it('counts the characters left and stops typing at the limit', async () => {
    const user = userEvent.setup();
    renderForm('/things/add');
    expect(screen.getByText('500 characters remaining')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Description'), 'Hello');
    expect(screen.getByText('495 characters remaining')).toBeInTheDocument();
    expect(screen.getByLabelText('Description')).toHaveAccessibleDescription('495 characters remaining');

    await user.type(screen.getByLabelText('Name'), 'abcdefghijklmno');
    expect(screen.getByLabelText('Name')).toHaveValue('abcdefghij');
    // Pasting past the limit is cut too.
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'x'.repeat(600) } });
    expect(screen.getByLabelText('Description')).toHaveValue('x'.repeat(500));
    expect(screen.getByText('0 characters remaining')).toBeInTheDocument();
  });

  it('returns to the list without a call when an edit changed nothing', async () => {
    const user = userEvent.setup();
    const { save } = renderForm('/things/edit');
    await user.type(screen.getByLabelText('Name'), 'x');
    await user.type(screen.getByLabelText('Name'), '{Backspace}');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('heading', { name: 'List page' })).toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();
  });

  it('adds, says so and returns to the list', async () => {
    const user = userEvent.setup();
    const { save } = renderForm('/things/add');
    await user.type(screen.getByLabelText('Name'), 'Widget');
    await user.type(screen.getByLabelText('Description'), 'A widget');
    await user.click(screen.getByLabelText('Hidden'));
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(save).toHaveBeenCalledWith({ name: 'Widget', description: 'A widget', hidden: true }, null);
    expect(await screen.findByRole('heading', { name: 'List page' })).toBeInTheDocument();
    expect(await screen.findByText('The thing Widget has been added.')).toBeInTheDocument();
  });

  it('updates a changed record and says so', async () => {
    const user = userEvent.setup();
    const { save } = renderForm('/things/edit');
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Renamed');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(save).toHaveBeenCalledWith({ name: 'Renamed', description: 'An old thing', hidden: false }, OLD);
    // The router commits the navigation in a transition: the toast may show first.
    expect(await screen.findByRole('heading', { name: 'List page' })).toBeInTheDocument();
    expect(await screen.findByText('The thing Renamed has been updated.')).toBeInTheDocument();
  });

  it('shows the busy indicator 2 seconds after the submit starts, and clears it on failure', async () => {
    vi.useFakeTimers();
    let fail: (e: unknown) => void = () => {};
    renderForm('/things/edit', { save: () => new Promise((_, reject) => (fail = reject)) });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Busy' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    await act(async () => vi.advanceTimersByTime(1999));
    expect(screen.queryByLabelText('Saving')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update' })).toBeDisabled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(screen.getByLabelText('Saving')).toBeInTheDocument();

    await act(async () => fail(new Error('Cannot connect to server')));
    expect(screen.queryByLabelText('Saving')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update' })).toBeEnabled();
  });

  it("keeps the user on the form with the server's message and puts BAD_USER_INPUT fields on the fields", async () => {
    const user = userEvent.setup();
    renderForm('/things/add', { save: async () => Promise.reject(badInput({ name: 'Cannot insert item due to name duplication' })) });
    await user.type(screen.getByLabelText('Name'), 'Widget');
    await user.type(screen.getByLabelText('Description'), 'A widget');
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await form().findByRole('alert')).toHaveTextContent('BAD_USER_INPUT::Invalid input');
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Cannot insert item due to name duplication');
    expect(screen.getByRole('heading', { level: 1, name: 'Add thing' })).toBeInTheDocument();
    // Editing the field clears the server's message for it.
    await user.type(screen.getByLabelText('Name'), '2');
    expect(screen.queryByText('Cannot insert item due to name duplication')).not.toBeInTheDocument();
  });

  it('deletes after confirmation and says so', async () => {
    const user = userEvent.setup();
    const { remove } = renderForm('/things/edit');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete thing' });
    expect(dialog).toHaveTextContent('2 articles use this thing and will lose it.');

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(remove).not.toHaveBeenCalled();

    await user.click(form().getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(remove).toHaveBeenCalledWith(OLD);
    expect(await screen.findByRole('heading', { name: 'List page' })).toBeInTheDocument();
    expect(await screen.findByText('The thing Old has been deleted.')).toBeInTheDocument();
  });

  it("stays on the form with the server's message when a delete fails", async () => {
    const user = userEvent.setup();
    const conflict = new CombinedGraphQLErrors({
      data: null,
      errors: [{ message: 'This topic has 2 sub-topics: delete or move them first', extensions: { code: 'CONFLICT' } }],
    });
    renderForm('/things/edit', { remove: () => Promise.reject(conflict) });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await form().findByRole('alert')).toHaveTextContent('CONFLICT::This topic has 2 sub-topics: delete or move them first');
    expect(screen.getByRole('heading', { level: 1, name: 'Edit thing' })).toBeInTheDocument();
  });
});
