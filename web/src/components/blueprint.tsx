//! Blueprint set-up for the whole app: styles and its provider (overlays, hotkeys, portals).
import { BlueprintProvider, FocusStyleManager } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import 'normalize.css';
import '@blueprintjs/core/lib/css/blueprint.css';
// Not '@blueprintjs/icons/lib/css/blueprint-icons.css': 1.8 MB of icon fonts; icons render as SVG.

// Focus outlines only for keyboard users; they stay visible when tabbing.
FocusStyleManager.onlyShowFocusOnTabs();

export function UiProvider({ children }: { children: ReactNode }) {
  return <BlueprintProvider>{children}</BlueprintProvider>;
}
