/**
 * Text for a terminal. Model names, claims, commit messages, candidate ids, file names and server
 * messages are untrusted: a raw ESC or CSI could recolour, hide or rewrite what the user reads (and a
 * bidirectional override could reorder it). Human-readable CLI output passes through `safeText`; JSON
 * output does not (it stays exact).
 */

/** C0 controls except tab and newline, DEL, C1 controls, and bidirectional embeddings/overrides/isolates. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every terminal control (see UNSAFE; `\r` included) replaced by a visible escape: `\x1b` for
 * code points up to U+00FF, `\u202e` above. Tab and newline stay; everything else is unchanged.
 */
export function safeText(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const n = c.charCodeAt(0);
    return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}

/** Cuts `text` to `max` characters (UTF-16 units) with an ellipsis. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
