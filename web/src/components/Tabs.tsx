//! Tabs (Blueprint Tabs): a tab list whose chosen tab shows its panel. Arrow keys move between
//! the tabs; only the chosen panel is rendered.
//!
//!   <Tabs id="review" label="Upload review" selected={tab} onChange={setTab}
//!     tabs={[{ id: 'add', title: 'To be added (3)', panel: <List /> }, ...]} />
import { Tab, Tabs as BpTabs } from '@blueprintjs/core';
import type { JSX } from 'react';

export interface TabItem<T extends string> {
  id: T;
  title: string;
  panel: JSX.Element;
}

export interface TabsProps<T extends string> {
  /** Prefix of the tabs' and panels' element ids. */
  id: string;
  /** The tab list's accessible name. */
  label: string;
  tabs: readonly TabItem<T>[];
  selected: T;
  onChange: (id: T) => void;
}

export function Tabs<T extends string>({ id, label, tabs, selected, onChange }: TabsProps<T>) {
  return (
    <div role="region" aria-label={label} className="insights-tabs">
      <BpTabs id={id} selectedTabId={selected} onChange={(next) => onChange(next as T)} renderActiveTabPanelOnly>
        {tabs.map((tab) => (
          // disabled is explicit: the arrow keys move between tabs marked aria-disabled="false", and
          // Tab's defaultProps no longer reach Tabs through the element's props under React 19.
          <Tab key={tab.id} id={tab.id} title={tab.title} panel={tab.panel} disabled={false} />
        ))}
      </BpTabs>
    </div>
  );
}
