//! What jsdom lacks and Lexical looks for, for tests of screens with the rich text editor. Without
//! InputEvent.getTargetRanges, Lexical thinks the browser has no `beforeinput` and ignores typed
//! text, so this must run before Lexical loads: import it first in the test file. Lexical's paste
//! and drop handlers tell events apart by their classes; it measures the caret to scroll.
const rect = { x: 0, y: 0, width: 0, height: 0, top: 0, left: 0, right: 0, bottom: 0, toJSON: () => ({}) };
Range.prototype.getBoundingClientRect ??= () => rect as DOMRect;
Range.prototype.getClientRects ??= () => [] as unknown as DOMRectList;
(InputEvent.prototype as unknown as { getTargetRanges: () => StaticRange[] }).getTargetRanges = () => [];
const globals = globalThis as unknown as Record<string, unknown>;
globals.DragEvent ??= class DragEvent extends MouseEvent {};
globals.ClipboardEvent ??= class ClipboardEvent extends Event {};
