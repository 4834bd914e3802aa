//! The topics picker of the article editor and the template form (spec 2 §2 "Taxonomies"): every
//! topic of `categoriesAsTree` (nested up to 5 levels, spec 1 §2) with a checkbox, branches that
//! open and close, and a filter box. Each topic is chosen on its own: checking a parent does not
//! check its sub-topics. Branches holding a chosen topic start open, so the choice is visible.
//!
//! It is an ARIA tree with checkable items and one tab stop (the WAI-ARIA tree pattern): ↓/↑ move,
//! → opens a branch or goes to its first sub-topic, ← closes it or goes to the parent, Home/End
//! jump, Space or Enter checks. Blueprint's Tree is not used: features may not import Blueprint,
//! and it has no checkboxes.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useId, useRef, useState, type JSX, type KeyboardEvent } from 'react';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { LoadingBlock } from '../LoadingScreen';
import { useConfig } from '../../lib/config';
import { formatError } from '../../lib/errors';
import { TopicTreePickerDocument } from './__generated__/TopicTreePicker.generated';
import './pickers.css';

export interface TopicTreePickerProps {
  /** Chosen topic ids. */
  value: readonly string[];
  onChange: (ids: string[]) => void;
  disabled?: boolean;
  invalid?: boolean;
}

/** A topic of the tree, whatever its level. */
export interface PickerTopic {
  _id: string;
  name: string;
  children: PickerTopic[];
}

type AnswerNode = { _id: string; name: string; children?: readonly AnswerNode[] };

/** The answer's five nested levels as one recursive type (the deepest level selects no children). */
export function toPickerTopics(nodes: readonly AnswerNode[]): PickerTopic[] {
  return nodes.map((n) => ({ _id: n._id, name: n.name, children: toPickerTopics(n.children ?? []) }));
}

/** Ids of the topics above each chosen one: the branches to open so that every choice shows. */
export function ancestorsOf(nodes: readonly PickerTopic[], chosen: ReadonlySet<string>): Set<string> {
  const open = new Set<string>();
  const walk = (node: PickerTopic, path: string[]) => {
    if (chosen.has(node._id)) path.forEach((id) => open.add(id));
    node.children.forEach((child) => walk(child, [...path, node._id]));
  };
  nodes.forEach((node) => walk(node, []));
  return open;
}

export interface FilteredTree {
  nodes: PickerTopic[];
  /** Branches kept only because a sub-topic matches: they open so the match shows. */
  toOpen: Set<string>;
}

/**
 * The topics whose name holds `text` (ignoring case), under their parents. A matching topic keeps
 * all its sub-topics; a parent that only leads to matches keeps just those and is opened.
 */
export function filterTopics(nodes: readonly PickerTopic[], text: string): FilteredTree {
  const needle = text.trim().toLowerCase();
  const toOpen = new Set<string>();
  if (!needle) return { nodes: [...nodes], toOpen };
  const keep = (list: readonly PickerTopic[]): PickerTopic[] =>
    list.flatMap((node) => {
      if (node.name.toLowerCase().includes(needle)) return [node];
      const children = keep(node.children);
      if (children.length === 0) return [];
      toOpen.add(node._id);
      return [{ ...node, children }];
    });
  return { nodes: keep(nodes), toOpen };
}

interface VisibleRow {
  id: string;
  parentId: string | null;
  hasChildren: boolean;
  open: boolean;
}

/** The rows on screen, top to bottom: what the arrow keys walk through. */
function visibleRows(nodes: readonly PickerTopic[], open: ReadonlySet<string>, parentId: string | null = null): VisibleRow[] {
  return nodes.flatMap((node) => {
    const row = { id: node._id, parentId, hasChildren: node.children.length > 0, open: open.has(node._id) };
    return [row, ...(row.hasChildren && row.open ? visibleRows(node.children, open, node._id) : [])];
  });
}

/** How many topics under `node` are chosen (shown beside a closed branch). */
function chosenInside(node: PickerTopic, chosen: ReadonlySet<string>): number {
  return node.children.reduce((n, child) => n + (chosen.has(child._id) ? 1 : 0) + chosenInside(child, chosen), 0);
}

export function TopicTreePicker({ value, onChange, disabled = false, invalid = false }: TopicTreePickerProps) {
  // 'Topic' replaces 'category' when premium channels are on (spec 1 §1).
  const topicsWord = useConfig().features.premiumChannels ? 'Topics' : 'Categories';
  const { data, loading, error, refetch } = useQuery(TopicTreePickerDocument);
  const topics = toPickerTopics(data?.categoriesAsTree ?? []);
  const chosen = new Set(value);

  const [filter, setFilter] = useState('');
  // null until the user opens or closes a branch: until then the branches of the choice are open.
  const [openState, setOpenState] = useState<ReadonlySet<string> | null>(null);
  const open = openState ?? ancestorsOf(topics, chosen);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const items = useRef(new Map<string, HTMLElement>());
  const baseId = useId();

  const filtered = filterTopics(topics, filter);
  const rows = visibleRows(filtered.nodes, open);
  // The tree's one tab stop: the focused row, else the first chosen one, else the first.
  const tabStop = rows.find((r) => r.id === focusedId)?.id ?? rows.find((r) => chosen.has(r.id))?.id ?? rows[0]?.id;

  const setOpen = (id: string, isOpen: boolean) => {
    const next = new Set(open);
    if (isOpen) next.add(id);
    else next.delete(id);
    setOpenState(next);
  };

  const toggleChecked = (id: string) => {
    if (disabled) return;
    onChange(chosen.has(id) ? value.filter((v) => v !== id) : [...value, id]);
  };

  const focusRow = (id: string | undefined) => {
    if (!id) return;
    setFocusedId(id);
    items.current.get(id)?.focus();
  };

  const onFilterChange = (text: string) => {
    setFilter(text);
    // Open the branches leading to matches; they stay open (and can be closed) afterwards.
    const { toOpen } = filterTopics(topics, text);
    if (toOpen.size > 0) setOpenState(new Set([...open, ...toOpen]));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const index = rows.findIndex((r) => r.id === tabStop);
    const row = rows[index];
    if (!row) return;
    switch (event.key) {
      case 'ArrowDown':
        focusRow(rows[index + 1]?.id);
        break;
      case 'ArrowUp':
        focusRow(rows[index - 1]?.id);
        break;
      case 'Home':
        focusRow(rows[0]?.id);
        break;
      case 'End':
        focusRow(rows[rows.length - 1]?.id);
        break;
      case 'ArrowRight':
        if (row.hasChildren && !row.open) setOpen(row.id, true);
        else if (row.hasChildren) focusRow(rows[index + 1]?.id);
        break;
      case 'ArrowLeft':
        if (row.hasChildren && row.open) setOpen(row.id, false);
        else focusRow(row.parentId ?? undefined);
        break;
      case ' ':
      case 'Enter':
        // Enter checks the topic; it never submits the surrounding form.
        toggleChecked(row.id);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  // A flat list of tree items with their levels (the tree pattern's flat form): an item's name is
  // its own text, never its open sub-topics' as well (WCAG 2.5.3).
  const renderNodes = (nodes: readonly PickerTopic[], level: number): JSX.Element[] =>
    nodes.flatMap((node) => {
      const hasChildren = node.children.length > 0;
      const isOpen = hasChildren && open.has(node._id);
      const checked = chosen.has(node._id);
      const labelId = `${baseId}-${node._id}`;
      const inside = hasChildren && !isOpen ? chosenInside(node, chosen) : 0;
      const item = (
        <li
          key={node._id}
          role="treeitem"
          aria-level={level}
          aria-checked={checked}
          aria-expanded={hasChildren ? isOpen : undefined}
          aria-disabled={disabled || undefined}
          data-id={node._id}
          tabIndex={node._id === tabStop ? 0 : -1}
          ref={(el) => {
            if (el) items.current.set(node._id, el);
            else items.current.delete(node._id);
          }}
          className="insights-topic-item"
        >
          <div className="insights-topic-row" style={{ paddingLeft: (level - 1) * 20 }} onClick={() => toggleChecked(node._id)}>
            {hasChildren ? (
              <span
                className={`insights-topic-toggle${isOpen ? ' insights-topic-toggle-open' : ''}`}
                aria-hidden
                onClick={(e) => {
                  e.stopPropagation();
                  setOpen(node._id, !isOpen);
                }}
              />
            ) : (
              <span className="insights-topic-toggle-spacer" aria-hidden />
            )}
            <span className={`insights-topic-check${checked ? ' insights-topic-check-on' : ''}`} aria-hidden />
            <span id={labelId}>{node.name}</span>
            {inside > 0 && (
              <>
                {' '}
                <span className="insights-topic-inside">{inside} chosen inside</span>
              </>
            )}
          </div>
        </li>
      );
      return isOpen ? [item, ...renderNodes(node.children, level + 1)] : [item];
    });

  if (!data) {
    if (loading) return <LoadingBlock label={`Loading ${topicsWord.toLowerCase()}`} />;
    return (
      <Banner intent="danger" role="alert">
        <p>{formatError(error)}</p>
        <Button text="Retry" size="small" onClick={() => void refetch()} />
      </Banner>
    );
  }

  return (
    <div className={`insights-topic-picker${invalid ? ' insights-topic-picker-invalid' : ''}`}>
      <input
        type="search"
        className="insights-picker-input"
        placeholder={`Filter ${topicsWord.toLowerCase()}...`}
        aria-label={`Filter ${topicsWord.toLowerCase()}`}
        value={filter}
        onChange={(e) => onFilterChange(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Enter in the filter box does not submit the form; ↓ goes into the tree.
          if (e.key === 'Enter') e.preventDefault();
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            focusRow(tabStop);
          }
        }}
      />
      {rows.length === 0 ? (
        <p className="insights-picker-empty" role="status">
          {topics.length === 0
            ? `There are no ${topicsWord.toLowerCase()} yet.`
            : `No ${topicsWord.toLowerCase()} match '${filter.trim()}'.`}
        </p>
      ) : (
        <ul
          role="tree"
          aria-label={topicsWord}
          aria-multiselectable
          aria-invalid={invalid || undefined}
          aria-disabled={disabled || undefined}
          className="insights-topic-tree"
          onKeyDown={onKeyDown}
          onFocus={(e) => {
            const item = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
            if (item?.dataset.id) setFocusedId(item.dataset.id);
          }}
        >
          {renderNodes(filtered.nodes, 1)}
        </ul>
      )}
      <p className="insights-picker-count" aria-live="polite">
        {value.length === 0 ? `No ${topicsWord.toLowerCase()} chosen` : `${value.length} chosen`}
      </p>
    </div>
  );
}

export const TOPIC_TREE_PICKER_QUERY = gql`
  fragment TopicTreePickerNode on Category {
    _id
    name
  }

  query TopicTreePicker {
    categoriesAsTree {
      ...TopicTreePickerNode
      children {
        ...TopicTreePickerNode
        children {
          ...TopicTreePickerNode
          children {
            ...TopicTreePickerNode
            children {
              ...TopicTreePickerNode
            }
          }
        }
      }
    }
  }
`;
