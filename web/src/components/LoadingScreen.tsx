import { Spinner } from '@blueprintjs/core';
import { MessageScreen } from './Page';

/** A spinner with a text for screen readers, for waits of the whole screen. */
export function LoadingScreen({ label = 'Loading' }: { label?: string }) {
  return (
    <MessageScreen>
      <div role="status" aria-live="polite">
        <Spinner aria-label={label} />
      </div>
    </MessageScreen>
  );
}

/** A smaller spinner for a part of the screen (lazy route chunks). */
export function LoadingBlock({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" style={{ padding: 48 }}>
      <Spinner aria-label={label} />
    </div>
  );
}
