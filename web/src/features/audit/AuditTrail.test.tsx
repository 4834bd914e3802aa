import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { stubDownloads } from '../../testing/downloads';
import { testUser } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderApp';
import { AuditEventsDocument, type AuditEventsQueryVariables } from './__generated__/AuditTrail.generated';
import { actorText, dayBound, exportUrl, summaryText, valueText } from './AuditTrail';

/** 5 Mar 2026 14:05, local time. */
const MARCH_5 = new Date(2026, 2, 5, 14, 5).toISOString();
const PATH = '/publisher/audit';
const ADMIN = testUser('Administrator');
const EDITOR_ID = '65e000000000000000000001';
const TAG_ID = '65f000000000000000000001';

function event(_id: string, overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'AuditEvent',
    _id,
    occurredAt: MARCH_5,
    actorKind: 'user',
    actorId: EDITOR_ID,
    actorRole: 'Editor',
    actorEmail: 'edna@example.com',
    actorName: 'Edna Editor',
    sourceAddress: '10.1.2.3',
    userAgent: 'Mozilla/5.0',
    requestId: 'req-1',
    action: 'editTag',
    entityType: 'tag',
    entityId: TAG_ID,
    operation: 'update',
    details: null,
    changes: [
      { __typename: 'AuditFieldChange', field: 'description', before: '"Metal"', after: '"Refined metal"' },
      { __typename: 'AuditFieldChange', field: 'name', before: '"Copper"', after: '"Copper cathodes"' },
    ],
    ...overrides,
  };
}

const EVENTS = [
  event('2'),
  event('1', {
    actorKind: 'cli',
    actorId: null,
    actorRole: null,
    actorEmail: null,
    actorName: null,
    sourceAddress: null,
    userAgent: 'insights-cli 1.0 (ops@host)',
    requestId: null,
    action: 'cli seed taxonomy',
    operation: 'insert',
    changes: [{ __typename: 'AuditFieldChange', field: 'name', before: null, after: '"Copper"' }],
  }),
  event('0', {
    action: 'GET /export/audit.csv',
    actorRole: 'Administrator',
    actorName: 'Ada Admin',
    actorId: '65e000000000000000000009',
    entityType: null,
    entityId: null,
    operation: null,
    details: '{"filters":{"entityType":"tag"}}',
    changes: [],
  }),
];

type Params = NonNullable<AuditEventsQueryVariables['params']>;

function eventsMock(calls: Params[], { rows = EVENTS, total }: { rows?: typeof EVENTS; total?: number } = {}) {
  return {
    request: { query: AuditEventsDocument, variables: () => true },
    maxUsageCount: Number.POSITIVE_INFINITY,
    result: (variables: Record<string, unknown>) => {
      const params = (variables as AuditEventsQueryVariables).params!;
      calls.push(params);
      const shown = rows.filter(
        (r) => (!params.actorId || r.actorId === params.actorId) && (!params.entityId || r.entityId === params.entityId),
      );
      return { data: { auditEvents: { __typename: 'AuditEventPage', total: total ?? shown.length, events: shown } } };
    },
  } satisfies MockLink.MockedResponse;
}

const table = () => screen.getByRole('table', { name: 'Audit trail' });
const lastCall = (calls: Params[]) => calls[calls.length - 1];

beforeAll(async () => {
  await import('./AuditTrail');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('AuditTrail', () => {
  it('lists who changed what, when and from where, and opens a row to its fields before and after', async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    renderApp({ path: PATH, user: ADMIN, mocks: [eventsMock(calls)] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit trail' })).toBeInTheDocument();
    await within(table()).findByText('cli seed taxonomy');
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Time', 'Who', 'Action', 'Record', 'What', 'From']);
    const edited = within(table()).getByText('editTag').closest('tr')!;
    expect(Array.from(edited.cells).map((c) => c.textContent)).toEqual([
      '05 Mar 2026 14:05',
      'Edna Editor (Editor)',
      'editTag',
      `ChangedTag ${TAG_ID}`,
      'description, name',
      '10.1.2.3',
    ]);
    expect(within(table()).getByText('Operator (insights-cli)')).toBeInTheDocument();
    expect(within(table()).getByText('{"filters":{"entityType":"tag"}}')).toBeInTheDocument();
    expect(lastCall(calls)).toEqual({
      actorId: null,
      entityType: null,
      entityId: null,
      action: null,
      from: null,
      to: null,
      skip: 0,
      limit: 15,
    });

    const toggle = within(edited).getByRole('button', { name: 'Show details of 05 Mar 2026 14:05 editTag' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const changes = screen.getByRole('table', { name: `Changes of Tag ${TAG_ID}` });
    expect(
      within(changes)
        .getAllByRole('row')
        .map((r) => Array.from(r.children).map((c) => c.textContent)),
    ).toEqual([
      ['Field', 'Before', 'After'],
      ['description', 'Metal', 'Refined metal'],
      ['name', 'Copper', 'Copper cathodes'],
    ]);
    expect(screen.getByText('req-1')).toBeInTheDocument();
    expect(screen.getByText('edna@example.com')).toBeInTheDocument();
    await user.click(within(edited).getByRole('button', { name: 'Hide details of 05 Mar 2026 14:05 editTag' }));
    expect(screen.queryByRole('table', { name: `Changes of Tag ${TAG_ID}` })).not.toBeInTheDocument();
  });

  it("narrows to a row's actor and record, keeps the filters in the address, and clears them", async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    const { router } = renderApp({ path: PATH, user: ADMIN, mocks: [eventsMock(calls, { total: 40 })] });
    await within(await screen.findByRole('table', { name: 'Audit trail' })).findByText('cli seed taxonomy');

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastCall(calls).skip).toBe(15));
    await user.click(screen.getAllByRole('button', { name: 'Only changes by Edna Editor (Editor)' })[0]);
    await waitFor(() => expect(lastCall(calls)).toMatchObject({ actorId: EDITOR_ID, skip: 0 }));
    expect(router.state.location.search).toBe(`?actorId=${EDITOR_ID}`);
    expect(await screen.findByRole('group', { name: 'Actor filter' })).toHaveTextContent('Only changes by Edna Editor (Editor)');

    await user.click(screen.getByRole('button', { name: `Only changes of Tag ${TAG_ID}` }));
    await waitFor(() => expect(lastCall(calls)).toMatchObject({ actorId: EDITOR_ID, entityType: 'tag', entityId: TAG_ID }));
    expect(screen.getByLabelText('Record type')).toHaveValue('tag');
    expect(screen.getByLabelText('Record id')).toHaveValue(TAG_ID);

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastCall(calls)).toMatchObject({ actorId: null, entityType: null, entityId: null }));
    expect(router.state.location.search).toBe('');
    expect(screen.getByLabelText('Record id')).toHaveValue('');
  });

  it('filters by action once typing pauses, and by a date range of local days', async () => {
    const user = userEvent.setup();
    const calls: Params[] = [];
    renderApp({ path: PATH, user: ADMIN, mocks: [eventsMock(calls)] });
    await within(await screen.findByRole('table', { name: 'Audit trail' })).findByText('cli seed taxonomy');
    await user.type(screen.getByLabelText('Action'), 'editTag');
    await waitFor(() => expect(lastCall(calls).action).toBe('editTag'), { timeout: 3000 });
    expect(calls.some((c) => c.action === 'edit')).toBe(false);

    await user.type(screen.getByLabelText('From'), '2026-03-01');
    await user.type(screen.getByLabelText('To'), '2026-03-31');
    await waitFor(() =>
      expect(lastCall(calls)).toMatchObject({
        action: 'editTag',
        from: new Date(2026, 2, 1).toISOString(),
        to: new Date(2026, 3, 1).toISOString(),
      }),
    );
  });

  it('opens on one record from the address and exports the same selection as CSV', async () => {
    const user = userEvent.setup();
    const { fetchSpy, saved, answer } = stubDownloads('blob:audit');
    const calls: Params[] = [];
    renderApp({ path: `${PATH}?entityType=tag&entityId=${TAG_ID}`, user: ADMIN, mocks: [eventsMock(calls)] });
    await within(await screen.findByRole('table', { name: 'Audit trail' })).findByText('editTag');
    expect(lastCall(calls)).toMatchObject({ entityType: 'tag', entityId: TAG_ID });

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    const [url, init] = fetchSpy.mock.calls[0];
    expect(url).toBe(`/export/audit.csv?entityType=tag&entityId=${TAG_ID}`);
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer test-access-token');
    answer(new Response('Time,Actor kind\n', { status: 200, headers: { 'content-type': 'text/csv' } }));
    await waitFor(() => expect(saved).toEqual([{ href: 'blob:audit', download: 'audit-trail.csv' }]));
  });

  it('says there is nothing to show when no event matches', async () => {
    renderApp({ path: PATH, user: ADMIN, mocks: [eventsMock([], { rows: [] })] });
    expect(await screen.findByText('There are no items to show')).toBeInTheDocument();
  });

  it.each(['Editor', 'Contributor', 'Subscriber'] as const)('is for Administrators only (%s: Access Denied)', async (role) => {
    renderApp({ path: PATH, user: testUser(role), mocks: [eventsMock([])] });
    expect(await screen.findByText(/^Access Denied/)).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Audit trail' })).not.toBeInTheDocument();
  });
});

describe('audit trail text', () => {
  it('names actors, summarises events and shows JSON values as text', () => {
    expect(actorText({ actorKind: 'user', actorName: null, actorEmail: 'a@b.c', actorRole: null })).toBe('a@b.c');
    expect(actorText({ actorKind: 'worker', actorName: null, actorEmail: null, actorRole: null })).toBe('Background worker');
    expect(actorText({ actorKind: 'system', actorName: null, actorEmail: null, actorRole: null })).toBe('System');
    expect(summaryText({ changes: [], details: null })).toBe('');
    expect(valueText(null)).toBe('—');
    expect(valueText('null')).toBe('—');
    expect(valueText('"Copper"')).toBe('Copper');
    expect(valueText('["a","b"]')).toBe('["a","b"]');
    expect(valueText('3')).toBe('3');
  });

  it('builds the export address and day bounds', () => {
    const none = { actorId: null, entityType: null, entityId: null, action: null, from: null, to: null };
    expect(exportUrl(none)).toBe('/export/audit.csv');
    expect(exportUrl({ ...none, action: 'a&b' })).toBe('/export/audit.csv?action=a%26b');
    expect(dayBound('2026-03-31', true)).toBe(new Date(2026, 3, 1).toISOString());
    expect(dayBound('2026-03-01', false)).toBe(new Date(2026, 2, 1).toISOString());
    expect(dayBound(null, false)).toBeNull();
  });
});
