/**
 * Text from outside (an API, a file, a command line) as a terminal or a message may show it: its control
 * characters (C0, DEL, C1), which could move the cursor, retitle the window or ring, written out
 * as escapes such as `\x1b` and `\u009b`. Newlines and tabs too: where they are structure, the
 * caller writes them around the escaped parts.
 */
export function escapeControls(text: string): string {
  return text.replace(/\p{Cc}/gu, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x80
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
