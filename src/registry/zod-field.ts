import type { z } from 'zod';
import { formatPath } from '../tools/schemas';

/**
 * First zod issue as `<field><path>: <rule>`, e.g. `agents[0].tools[2]: must not be empty` for field
 * `agents[0]`. Unknown keys are named (`servers.fs: unknown field envFile`).
 */
export function describeIssue(error: z.ZodError, field: string): string {
  const issue = error.issues[0];
  if (!issue) return `${field}: invalid`;
  const sub = issue.path.length ? formatPath(issue.path) : '';
  const where = sub === '' ? field : field === '' ? sub : sub.startsWith('[') ? `${field}${sub}` : `${field}.${sub}`;
  if (issue.code === 'unrecognized_keys') {
    const keys = [...issue.keys].sort();
    return `${where || '(root)'}: unknown field${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`;
  }
  return `${where || '(root)'}: ${issue.message}`;
}
