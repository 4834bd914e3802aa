//! Blueprint set-up for the whole app: styles and its provider (overlays, hotkeys, portals).
import { BlueprintProvider, FocusStyleManager } from '@blueprintjs/core';
import { Icons, type IconPaths } from '@blueprintjs/icons';
import type { ReactNode } from 'react';
import 'normalize.css';
import '@blueprintjs/core/lib/css/blueprint.css';
import './accessibility.css';
// Not '@blueprintjs/icons/lib/css/blueprint-icons.css': 1.8 MB of icon fonts; icons render as SVG.

// Focus outlines only for keyboard users; they stay visible when tabbing.
FocusStyleManager.onlyShowFocusOnTabs();

// The 16 px icons the app draws are bundled (a few kB); any other icon, or a 20 px one, comes from
// Blueprint's loader, which fetches every icon of that size at once (about 100 kB gzip): without
// this, the first icon of the first page would double the reader's first load.
const bundledIcons = import.meta.glob<IconPaths>(
  [
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/add.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/annotation.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/archive.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/arrow-left.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/blocked-person.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/briefcase.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/calendar.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/caret-down.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/caret-up.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-down.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-left.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-right.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-up.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/cog.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/cross.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/desk.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/diagram-tree.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/disable.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/document.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/double-caret-vertical.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/duplicate.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/edit.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/envelope.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/error.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/feed.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/filter.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/filter-remove.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/folder-close.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/hand-up.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/history.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/info-sign.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/link.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/lock.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/log-in.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/log-out.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/menu.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/minus.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/mobile-phone.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/more.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/move.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/notifications.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/office.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/people.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/person.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/pin.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/plus.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/print.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/refresh.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/search.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/send-message.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/share.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/shield.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/small-cross.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/star.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/tag.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/tick.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/tick-circle.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/time.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/trash.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/unlink.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/user.js',
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/warning-sign.js',
  ],
  { import: 'default', eager: true },
);
const ICON_FILE = /\/16px\/paths\/([a-z0-9-]+)\.js$/;
const bundledPaths = new Map(Object.entries(bundledIcons).map(([file, paths]) => [ICON_FILE.exec(file)?.[1] ?? file, paths]));
Icons.setLoaderOptions({
  loader: async (name, size) => {
    const paths = size === 16 ? bundledPaths.get(name) : undefined;
    if (paths) return paths;
    const { getIconPaths } = await import('./blueprintIconFallback');
    return getIconPaths(name, size);
  },
});

export function UiProvider({ children }: { children: ReactNode }) {
  return <BlueprintProvider>{children}</BlueprintProvider>;
}
