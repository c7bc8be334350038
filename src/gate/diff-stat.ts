/**
 * A `git diff --stat`-like summary computed from unified diff text, for the gate's evidence when the
 * staged diff comes from VS Code's Git API (which offers the patch, not the stat). No `vscode` import.
 */

/** One file of a unified diff. */
export interface FileStat {
  /** Path after the change (the old path for a deletion). */
  path: string;
  /** Path before a rename or copy. */
  from?: string;
  status: 'modified' | 'added' | 'deleted' | 'renamed' | 'copied';
  binary: boolean;
  insertions: number;
  deletions: number;
}

const unquote = (p: string): string => {
  // git quotes paths with unusual bytes: "a/sp\303\251cial" → keep it readable without decoding octal.
  return p.startsWith('"') && p.endsWith('"') ? p.slice(1, -1) : p;
};

/**
 * Files of a unified diff (`git diff` output, with or without `--binary`), in order. Hunk lines are
 * counted only after a file's first `@@`, so added lines that start with `++` are not taken for headers.
 */
export function diffFiles(diff: string): FileStat[] {
  const files: FileStat[] = [];
  let cur: FileStat | undefined;
  let inHunks = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      const m = /^diff --git (?:"?a\/)(.*?)"? (?:"?b\/)(.*?)"?$/.exec(line);
      cur = { path: unquote(m?.[2] ?? line.slice(11)), status: 'modified', binary: false, insertions: 0, deletions: 0 };
      files.push(cur);
      inHunks = false;
      continue;
    }
    if (!cur) continue;
    if (!inHunks) {
      if (line.startsWith('@@')) inHunks = true;
      else if (line.startsWith('new file mode')) cur.status = 'added';
      else if (line.startsWith('deleted file mode')) cur.status = 'deleted';
      else if (line.startsWith('rename from ')) {
        cur.status = 'renamed';
        cur.from = unquote(line.slice(12));
      } else if (line.startsWith('rename to ')) cur.path = unquote(line.slice(10));
      else if (line.startsWith('copy from ')) {
        cur.status = 'copied';
        cur.from = unquote(line.slice(10));
      } else if (line.startsWith('copy to ')) cur.path = unquote(line.slice(8));
      else if (line.startsWith('Binary files ') || line === 'GIT binary patch') cur.binary = true;
      continue;
    }
    if (line.startsWith('+')) cur.insertions++;
    else if (line.startsWith('-')) cur.deletions++;
  }
  return files;
}

/**
 * The summary as text: one line per file (`path | +I -D`, `(binary)`, `(new)`, `(deleted)`,
 * `(renamed from X)`) and a total line. Empty string for an empty diff.
 */
export function diffStat(diff: string): string {
  const files = diffFiles(diff);
  if (files.length === 0) return '';
  const lines = files.map((f) => {
    const notes = [
      f.status === 'added' ? 'new' : f.status === 'deleted' ? 'deleted' : f.status === 'renamed' ? `renamed from ${f.from}` : f.status === 'copied' ? `copied from ${f.from}` : '',
      f.binary ? 'binary' : '',
    ].filter(Boolean);
    const counts = f.binary ? '' : ` +${f.insertions} -${f.deletions}`;
    return ` ${f.path} |${counts}${notes.length ? ` (${notes.join(', ')})` : ''}`;
  });
  const ins = files.reduce((n, f) => n + f.insertions, 0);
  const del = files.reduce((n, f) => n + f.deletions, 0);
  lines.push(` ${files.length} file${files.length === 1 ? '' : 's'} changed, ${ins} insertion${ins === 1 ? '' : 's'}(+), ${del} deletion${del === 1 ? '' : 's'}(-)`);
  return lines.join('\n');
}
