import type { MockLink } from '@apollo/client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { testUser } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderApp';
import { tableCells } from '../../../testing/tables';
import {
  ArticleHistoryDocument,
  ArticleRevisionDocument,
  RestoreArticleRevisionDocument,
  type RestoreArticleRevisionMutationVariables,
} from './__generated__/ArticleHistory.generated';
import { bodyText, listDiff, textDiff } from './revisionDiff';

type ArticleHistoryModule = typeof import('./ArticleHistory');
let historyModule: ArticleHistoryModule;

const ARTICLE = '65d000000000000000000001';
const PATH = `/publisher/articles/history/${ARTICLE}`;
const EDITOR = testUser('Editor');
const at = (day: number, hour: number) => new Date(2026, 2, day, hour, 0).toISOString();
const person = { __typename: 'UserRef', _id: '65e000000000000000000001', name: 'Edna Editor' } as const;

function summary(number: number, action: string, state: string, title: string, restoredFrom: number | null = null) {
  return {
    __typename: 'ArticleRevisionSummary',
    _id: `r${number}`,
    number,
    createdAt: at(number, 9),
    createdBy: person,
    action,
    state,
    title,
    restoredFrom,
  };
}

const SUMMARIES = [
  summary(3, 'publish', 'Published', 'Copper outlook (corrected)'),
  summary(2, 'save', 'Pending', 'Copper outlook'),
  summary(1, 'add', 'Pending', 'Copper outlook'),
];

const item = (typename: string, _id: string, name: string | null) => ({ __typename: typename, _id, name });

function disclosure(scopeType: 'channel' | 'desk', scopeName: string | null, version: number, html: string) {
  return { __typename: 'Disclosure', scopeType, scopeId: `${scopeType}1`, scopeName, version, html } as const;
}

const CHANNEL_DISCLOSURE = disclosure('channel', 'Metals Weekly', 3, '<p>Not advice.</p>');
const DESK_DISCLOSURE = disclosure('desk', 'Metals desk', 2, '<p>The desk may hold positions.</p>');

function revision(number: number, overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'ArticleRevision',
    _id: `r${number}`,
    number,
    createdAt: at(number, 9),
    createdBy: person,
    title: 'Copper outlook',
    summary: 'Prices up',
    html: '<p>Copper rose.</p><p>Stocks fell.</p>',
    premiumChannelName: 'Metals Weekly',
    isPremium: false,
    premiumExpiryOffset: null,
    categories: [item('RevisionItem', 't1', 'Copper')],
    tags: [item('RevisionItem', 'g1', 'LME')],
    contributors: [item('RevisionItem', 'u1', 'Edna Editor')],
    disclosures: [CHANNEL_DISCLOSURE, DESK_DISCLOSURE] as ReturnType<typeof disclosure>[],
    ...overrides,
  };
}

type Revision = ReturnType<typeof revision>;
const REVISIONS: Record<string, Revision> = {
  r1: revision(1),
  r2: revision(2),
  r3: revision(3, {
    title: 'Copper outlook (corrected)',
    html: '<p>Copper rose 3%.</p><p>Stocks fell.</p>',
    tags: [item('RevisionItem', 'g1', 'LME'), item('RevisionItem', 'g2', 'Comex')],
    // The desk's disclosure was edited between revisions 2 and 3 (listed desk first: the order is the screen's).
    disclosures: [disclosure('desk', 'Metals desk', 3, '<p>The desk may hold short positions.</p>'), CHANNEL_DISCLOSURE],
  }),
};

function mocks(restores: RestoreArticleRevisionMutationVariables[] = []): MockLink.MockedResponse[] {
  return [
    {
      request: { query: ArticleHistoryDocument, variables: { id: ARTICLE } },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: {
        data: {
          findArticleById: {
            __typename: 'Article',
            _id: ARTICLE,
            title: 'Copper outlook (corrected)',
            version: 7,
            state: 'Published',
            firstPublishedAt: at(3, 9),
            updatedAt: null,
          },
          articleRevisions: SUMMARIES,
        },
      },
    },
    {
      request: { query: ArticleRevisionDocument, variables: () => true },
      maxUsageCount: Number.POSITIVE_INFINITY,
      result: (variables: Record<string, unknown>) => ({ data: { articleRevision: REVISIONS[variables.id as string] } }),
    },
    {
      request: { query: RestoreArticleRevisionDocument, variables: () => true },
      result: (variables: Record<string, unknown>) => {
        restores.push(variables as RestoreArticleRevisionMutationVariables);
        return {
          data: { restoreArticleRevision: { __typename: 'Article', _id: ARTICLE, title: 'Copper outlook', state: 'Pending', version: 8 } },
        };
      },
    },
  ];
}

beforeAll(async () => {
  historyModule = await import('./ArticleHistory');
});

/** A compared field's block, by its heading ("Disclosures Changed"). */
function field(name: string): HTMLElement {
  const heading = screen.getByRole('heading', { level: 3, name: `${name} Changed` });
  return heading.closest('.insights-history-field') as HTMLElement;
}

describe('ArticleHistory', () => {
  it('lists the revisions, who and when, and compares the newest two field by field and word by word', async () => {
    renderApp({ path: PATH, user: EDITOR, mocks: mocks() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Article history' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Revisions' });
    expect(tableCells(table).slice(1)).toEqual([
      ['3', '03 Mar 2026 09:00', 'Edna Editor', 'Published', 'Published', 'Copper outlook (corrected)', 'Current'],
      ['2', '02 Mar 2026 09:00', 'Edna Editor', 'Saved', 'Pending', 'Copper outlook', 'Restore'],
      ['1', '01 Mar 2026 09:00', 'Edna Editor', 'Added', 'Pending', 'Copper outlook', 'Restore'],
    ]);
    expect(screen.getByText(/First published 03 Mar 2026 09:00/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Audit trail' })).toHaveAttribute(
      'href',
      `/publisher/audit?entityType=article&entityId=${ARTICLE}`,
    );

    // Revision 2 against 3: the title, the desk's disclosure, the tags and the body changed.
    await screen.findByText(/Revision 2 \(.*\) compared with revision 3/);
    const headings = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(headings).toEqual(['Title Changed', 'Disclosures Changed', 'Tags Changed', 'Body Changed', 'Disclosure texts Changed']);
    expect(field('Disclosures').querySelector('.insights-history-text')?.textContent).toBe(
      'Channel Metals Weekly: version 3; Desk Metals desk: version [removed: 2][added: 3]',
    );
    expect(field('Disclosure texts')).toHaveTextContent(/Desk Metals desk \(version \[removed: 2\]\[added: 3\]\):/);
    expect(
      within(field('Disclosure texts')).getByText((_, node) => node?.tagName === 'INS' && /short/.test(node.textContent ?? '')),
    ).toBeTruthy();
    expect(screen.getByText(/^Unchanged: Summary, Channel, Access, Topics, Contributors\.$/)).toBeInTheDocument();
    const added = Array.from(document.querySelectorAll('ins')).map((n) => n.textContent);
    expect(added).toEqual(expect.arrayContaining(['[added:  (corrected)]', '[added: Comex]']));
    expect(screen.getAllByText((_, node) => node?.tagName === 'INS' && /3%/.test(node.textContent ?? '')).length).toBeGreaterThan(0);
  });

  it('compares other revisions side by side', async () => {
    const user = userEvent.setup();
    renderApp({ path: PATH, user: EDITOR, mocks: mocks() });
    await screen.findByText(/Revision 2 \(.*\) compared with revision 3/);
    await user.selectOptions(screen.getByLabelText('Newer'), 'r2');
    await user.selectOptions(screen.getByLabelText('Older'), 'r1');
    expect(await screen.findByText('Nothing readers see differs between these revisions.')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Newer'), 'r3');
    await screen.findByText(/Revision 1 \(.*\) compared with revision 3/);
    await user.click(screen.getByRole('radio', { name: 'Side by side' }));
    const columns = screen.getAllByRole('heading', { level: 4 }).map((h) => h.textContent);
    expect(columns.slice(0, 2)).toEqual(['Revision 1', 'Revision 3']);
    // Each side reads its revision's disclosures at their versions.
    const sides = Array.from(field('Disclosures').querySelectorAll('.insights-history-columns > div'));
    expect(sides.map((side) => [side.querySelector('h4')?.textContent, side.querySelector('.insights-history-text')?.textContent])).toEqual(
      [
        ['Revision 1', 'Channel Metals Weekly: version 3; Desk Metals desk: version [removed: 2]'],
        ['Revision 3', 'Channel Metals Weekly: version 3; Desk Metals desk: version [added: 3]'],
      ],
    );
  });

  it('restores a revision as a new draft based on the current version, then opens the editor', async () => {
    const user = userEvent.setup();
    const restores: RestoreArticleRevisionMutationVariables[] = [];
    const { router } = renderApp({ path: PATH, user: EDITOR, mocks: mocks(restores) });
    await user.click(await screen.findByRole('button', { name: 'Restore revision 1' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Restore revision 1?' });
    expect(dialog).toHaveTextContent('as a new draft (Pending)');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(restores).toEqual([{ articleId: ARTICLE, revisionId: 'r1', version: 7 }]));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/publisher/articles/edit/${ARTICLE}`));
    expect(await screen.findByText('Revision 1 restored as a draft.')).toBeInTheDocument();
  });

  it('is for staff (a reader gets Access Denied)', async () => {
    renderApp({ path: PATH, user: testUser('Subscriber'), mocks: mocks() });
    expect(await screen.findByText(/^Access Denied/)).toBeInTheDocument();
  });
});

describe('revision diffs', () => {
  it('reads a body as text, a line per block, cells apart', () => {
    expect(bodyText('<h2>Outlook</h2><p>Copper <b>rose</b>.</p><ul><li>One</li><li>Two</li></ul>')).toBe(
      'Outlook\n\nCopper rose.\n\nOne\n\nTwo',
    );
    expect(bodyText('<table><tr><td>A</td><td>B</td></tr></table>')).toBe('A\tB');
    expect(bodyText('<p><img alt="Chart"></p>')).toBe('[image: Chart]');
  });

  it('reads the disclosures a revision was saved under as their versions, or None', () => {
    const { compare, disclosureVersions, disclosureTexts } = historyModule;
    const none: Revision = { ...REVISIONS.r1, disclosures: [] };
    expect(disclosureVersions(none)).toBe('None');
    expect(disclosureTexts(none)).toBe('None');
    expect(disclosureVersions(REVISIONS.r3)).toBe('Channel Metals Weekly: version 3; Desk Metals desk: version 3');
    expect(disclosureTexts(REVISIONS.r1)).toBe(
      'Channel Metals Weekly (version 3):\nNot advice.\n\nDesk Metals desk (version 2):\nThe desk may hold positions.',
    );
    const gone: Revision = { ...REVISIONS.r1, disclosures: [disclosure('desk', null, 4, '')] };
    expect(disclosureVersions(gone)).toBe('Desk desk1 (deleted): version 4 (withdrawn)');

    const row = (a: Revision, b: Revision) => compare(a, b).find((f) => f.name === 'Disclosures')?.parts;
    expect(row(none, REVISIONS.r1)).toEqual([
      { text: 'None', change: 'removed' },
      { text: 'Channel Metals Weekly: version 3; Desk Metals desk: version 2', change: 'added' },
    ]);
    expect(row(REVISIONS.r1, REVISIONS.r2)).toEqual([
      { text: 'Channel Metals Weekly: version 3; Desk Metals desk: version 2', change: 'same' },
    ]);
  });

  it('marks the words and items that changed', () => {
    expect(textDiff('Copper rose.', 'Copper fell.')).toEqual([
      { text: 'Copper ', change: 'same' },
      { text: 'rose', change: 'removed' },
      { text: 'fell', change: 'added' },
      { text: '.', change: 'same' },
    ]);
    expect(listDiff(['LME', 'Zinc'], ['Comex', 'LME'])).toEqual([
      { text: 'Comex', change: 'added' },
      { text: 'LME', change: 'same' },
      { text: 'Zinc', change: 'removed' },
    ]);
  });
});
