/** Cuts `text` to `max` characters (UTF-16 units) with an ellipsis. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
