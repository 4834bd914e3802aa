//! Toasts (Blueprint OverlayToaster), created on first use.
import { OverlayToaster, Position, type Intent, type Toaster } from '@blueprintjs/core';
import { createRoot, type Root } from 'react-dom/client';

let toaster: Promise<Toaster> | null = null;
let mounted: { root: Root; container: Element | DocumentFragment } | null = null;

function getToaster(): Promise<Toaster> {
  toaster ??= OverlayToaster.create(
    { position: Position.BOTTOM, maxToasts: 3 },
    {
      domRenderer: (element, container) => {
        const root = createRoot(container);
        mounted = { root, container };
        root.render(element);
      },
    },
  );
  return toaster;
}

/** Removes the toaster and its pending timers (tests call it after each test, before the DOM goes away). */
export function unmountToaster() {
  mounted?.root.unmount();
  if (mounted?.container instanceof Element) mounted.container.remove();
  mounted = null;
  toaster = null;
}

export interface ToastOptions {
  message: string;
  intent?: Intent;
  /** Milliseconds; 0 keeps the toast until dismissed. Spec 3 §9: notices hide after 5000 ms. */
  timeout?: number;
  action?: { text: string; onClick: () => void };
}

export async function showToast({ message, intent, timeout = 5000, action }: ToastOptions): Promise<string> {
  const t = await getToaster();
  return t.show({ message, intent, timeout, action });
}
