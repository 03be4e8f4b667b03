// The moderation queue's keyboard shortcuts (Gmail's and Judge.me's letters): j and k move through
// the reviews, a approves, r rejects, Enter opens the review's detail. A key typed into a field, or
// pressed with a modifier (the browser's and the screen reader's own shortcuts), is never taken.

export type ModerationKey = "next" | "previous" | "approve" | "reject";

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** The element the key was pressed in. */
  target: {
    tagName?: string;
    type?: string;
    isContentEditable?: boolean;
    getAttribute?: (name: string) => string | null;
  } | null;
}

const KEYS: Record<string, ModerationKey> = { j: "next", k: "previous", a: "approve", r: "reject" };
const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);
// Inputs nobody types into: a row's checkbox keeps the shortcuts.
const NOT_TYPED = new Set(["checkbox", "radio", "button", "submit"]);
const TYPING_ROLES = new Set(["textbox", "combobox", "searchbox", "spinbutton"]);

/** What a key press asks of the queue, or null when it is not a shortcut there. Pure. */
export function moderationKey(press: KeyPress): ModerationKey | null {
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  const t = press.target;
  const typed = t && TYPING.has(String(t.tagName).toUpperCase()) && !NOT_TYPED.has(String(t.type));
  if (t && (typed || t.isContentEditable)) return null;
  if (t && TYPING_ROLES.has(t.getAttribute?.("role") ?? "")) return null;
  return KEYS[press.key] ?? null;
}

/** The row the cursor moves to: clamped to the page's rows, the first one when none was current. */
export function moveCursor(current: number | null, action: "next" | "previous", rows: number): number | null {
  if (rows === 0) return null;
  if (current === null) return 0;
  return Math.max(0, Math.min(rows - 1, current + (action === "next" ? 1 : -1)));
}
