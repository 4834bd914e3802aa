import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import {
  AddFirmDocument,
  ArchiveFirmDocument,
  EditFirmDocument,
  FirmByIdDocument,
  FirmDomainReadersDocument,
} from './__generated__/FirmForm.generated';
import { FirmListDocument } from './__generated__/FirmList.generated';
import { FirmPageDocument } from './__generated__/FirmPage.generated';
import { FirmReadersDocument } from './__generated__/FirmReaders.generated';
import { validateFirm, type FirmValues } from './FirmForm';
import { addedDomains, splitDomains } from './firmText';
import { FIRM_IDS } from './testData';

function firmRecord(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Firm',
    _id: FIRM_IDS.acme,
    name: 'Acme Bank',
    domains: ['acme-bank.example'],
    accountNumber: 'ACC-1',
    billingMethod: 'invoice',
    notes: null,
    state: 'active',
    version: 4,
    ...overrides,
  };
}

const byId = (record = firmRecord()): MockLink.MockedResponse => ({
  request: { query: FirmByIdDocument, variables: { id: record._id } },
  result: { data: { findFirmById: record } },
});

/** The list and the firm page the form returns to. */
const landing: MockLink.MockedResponse[] = [
  {
    request: { query: FirmListDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: { data: { firms: { __typename: 'FirmPage', firms: [], total: 0 } } },
  },
  {
    request: { query: FirmPageDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: {
      data: {
        findFirmById: {
          ...firmRecord(),
          readerCount: 0,
          seatsUsed: 0,
          seatsHeld: 0,
          subscriptionCount: 0,
          subscriptions: [],
        },
      },
    },
  },
  {
    request: { query: FirmReadersDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: {
      data: { findFirmById: { __typename: 'Firm', _id: FIRM_IDS.acme, readers: { __typename: 'FirmReaderPage', total: 0, readers: [] } } },
    },
  },
];

const domainReaders = (count: number, spy = vi.fn()): MockLink.MockedResponse => ({
  request: { query: FirmDomainReadersDocument, variables: () => true },
  maxUsageCount: Number.POSITIVE_INFINITY,
  result: (variables: Record<string, unknown>) => {
    spy(variables);
    return { data: { firmDomainReaders: count } };
  },
});

const editor = testUser('Editor');
const form = () => within(screen.getByRole('form'));

beforeAll(async () => {
  await import('./FirmForm');
  await import('./FirmList');
  await import('./FirmPage');
});

describe('firm form rules', () => {
  const valid: FirmValues = { name: 'Acme Bank', domains: '', accountNumber: '', billingMethod: 'invoice', notes: '' };

  it('requires a name of at most 100 characters and a billing method', () => {
    expect(validateFirm(valid)).toEqual({});
    expect(validateFirm({ ...valid, name: '  ', billingMethod: null })).toEqual({
      name: 'This field is required',
      billingMethod: 'This field should be chosen',
    });
    expect(validateFirm({ ...valid, name: 'x'.repeat(101) })).toEqual({ name: 'Maximum 100 characters' });
    expect(validateFirm({ ...valid, accountNumber: 'a'.repeat(65) })).toEqual({ accountNumber: 'Maximum 64 characters' });
  });

  it('reads domains as the server keeps them and finds the new ones', () => {
    expect(splitDomains(' @Acme-Bank.example, acme.co.uk;acme-bank.example\nfund.example. ')).toEqual([
      'acme-bank.example',
      'acme.co.uk',
      'fund.example',
    ]);
    expect(addedDomains(['acme-bank.example'], ['acme-bank.example', 'acme.co.uk'])).toEqual(['acme.co.uk']);
    expect(addedDomains(['acme-bank.example', 'acme.co.uk'], ['acme.co.uk'])).toEqual([]);
  });
});

describe('FirmForm', () => {
  it('shows the rules once fields are touched, stops typing at 100 and sends nothing while invalid', async () => {
    const user = userEvent.setup();
    const add = vi.fn(() => ({ data: { addFirm: firmRecord() } }));
    renderApp({
      path: '/publisher/firms/add',
      user: editor,
      mocks: [{ request: { query: AddFirmDocument, variables: () => true }, result: add }],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add firm' })).toBeInTheDocument();
    await user.click(screen.getByLabelText('Name'));
    await user.tab();
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('This field is required');
    await user.type(screen.getByLabelText('Name'), 'x'.repeat(105));
    expect(screen.getByLabelText('Name')).toHaveValue('x'.repeat(100));

    await user.click(form().getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('This field should be chosen')).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Billing method' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 field needs correcting');
    expect(add).not.toHaveBeenCalled();
  }, 15_000);

  it('asks before adding domains that bring readers in, and adds the firm once confirmed', async () => {
    const user = userEvent.setup();
    const counted = vi.fn();
    const item = {
      name: 'Acme Bank',
      domains: ['acme-bank.example', 'acme.co.uk'],
      accountNumber: 'ACC-1',
      billingMethod: 'account',
      notes: null,
    };
    const add = vi.fn(() => ({ data: { addFirm: firmRecord() } }));
    renderApp({
      path: '/publisher/firms/add',
      user: editor,
      mocks: [domainReaders(3, counted), { request: { query: AddFirmDocument, variables: { item } }, result: add }, ...landing],
    });
    await user.type(await screen.findByLabelText('Name'), 'Acme Bank');
    await user.type(screen.getByLabelText('Email domains'), '@Acme-Bank.example, acme.co.uk');
    expect(screen.getByLabelText('Email domains')).toHaveAccessibleDescription(/Readers whose email address is at one of these domains/);
    await user.type(screen.getByLabelText('Account number'), 'ACC-1');
    await user.click(screen.getByRole('radio', { name: 'Clearing account' }));

    // Cancelled: nothing is saved and the form stays.
    await user.click(form().getByRole('button', { name: 'Add' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Readers will join this firm' });
    expect(dialog).toHaveTextContent('3 readers at these domains will join Acme Bank.');
    expect(counted).toHaveBeenCalledWith({ domains: ['acme-bank.example', 'acme.co.uk'], firmId: null });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(add).not.toHaveBeenCalled();

    await user.click(form().getByRole('button', { name: 'Add' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Readers will join this firm' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('The firm Acme Bank has been added.')).toBeInTheDocument();
    expect(add).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { level: 1, name: 'Firms' })).toBeInTheDocument();
  }, 15_000);

  it("saves without asking when no reader is at the new domains, and shows the server's domain message on the field", async () => {
    const user = userEvent.setup();
    const message = 'gmail.com is a public mail service: it cannot identify a firm';
    const edit = vi.fn(() => ({
      errors: [{ message: 'Invalid input', extensions: { code: 'BAD_USER_INPUT', fields: { domains: message } } }],
    }));
    renderApp({
      path: `/publisher/firms/edit/${FIRM_IDS.acme}`,
      user: editor,
      mocks: [byId(), domainReaders(0), { request: { query: EditFirmDocument, variables: () => true }, result: edit }],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit firm' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email domains')).toHaveValue('acme-bank.example');
    await user.type(screen.getByLabelText('Email domains'), ', gmail.com');
    await user.click(form().getByRole('button', { name: 'Update' }));

    await waitFor(() => expect(screen.getByLabelText('Email domains')).toHaveAccessibleDescription(new RegExp(`^${message}`)));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(form().getByRole('alert')).toHaveTextContent('BAD_USER_INPUT::Invalid input');
    expect(edit).toHaveBeenCalledTimes(1);
  });

  it("sends the version read, shows a conflict in the form's alert, and does not ask when no domain is added", async () => {
    const user = userEvent.setup();
    const counted = vi.fn();
    const item = {
      _id: FIRM_IDS.acme,
      version: 4,
      name: 'Acme Bank plc',
      domains: ['acme-bank.example'],
      accountNumber: 'ACC-1',
      billingMethod: 'invoice',
      notes: null,
    };
    const edit = vi.fn(() => ({
      errors: [{ message: 'Firm was changed by someone else: reload it', extensions: { code: 'CONFLICT' } }],
    }));
    renderApp({
      path: `/publisher/firms/edit/${FIRM_IDS.acme}`,
      user: editor,
      mocks: [byId(), domainReaders(5, counted), { request: { query: EditFirmDocument, variables: { item } }, result: edit }],
    });
    await user.type(await screen.findByLabelText('Name'), ' plc');
    await user.click(form().getByRole('button', { name: 'Update' }));
    expect(await form().findByRole('alert')).toHaveTextContent('CONFLICT::Firm was changed by someone else: reload it');
    expect(counted).not.toHaveBeenCalled();
    expect(edit).toHaveBeenCalledTimes(1);
  });

  it('archives the firm after a confirmation and goes back to its page', async () => {
    const user = userEvent.setup();
    const archive = vi.fn(() => ({ data: { archiveFirm: firmRecord({ state: 'archived', version: 5 }) } }));
    renderApp({
      path: `/publisher/firms/edit/${FIRM_IDS.acme}`,
      user: editor,
      mocks: [
        byId(),
        { request: { query: ArchiveFirmDocument, variables: { id: FIRM_IDS.acme, version: 4 } }, result: archive },
        ...landing,
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit firm' });
    await user.click(form().getByRole('button', { name: 'Archive' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Archive firm' });
    expect(dialog).toHaveTextContent('Archive the firm Acme Bank?');
    await user.click(within(dialog).getByRole('button', { name: 'Archive' }));
    expect(await screen.findByText('The firm Acme Bank has been archived.')).toBeInTheDocument();
    expect(archive).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Bank' })).toBeInTheDocument();
  });

  it('shows an archived firm read-only', async () => {
    renderApp({ path: `/publisher/firms/edit/${FIRM_IDS.acme}`, user: editor, mocks: [byId(firmRecord({ state: 'archived' }))] });
    expect(await screen.findByText('This firm is archived: it can no longer be changed.')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(form().queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    expect(form().queryByRole('button', { name: 'Archive' })).not.toBeInTheDocument();
  });
});
