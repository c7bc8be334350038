/**
 * The permit route's path and the shapes a hook needs to record a call it settled itself (no zod, so the
 * lean guard entry dist/guard.js stays small): a call the guard's grants or permission rules decided goes
 * to the editor only to be recorded (ledger and live feed), never to be judged. permit-protocol.ts holds
 * the full protocol and the editor's request schema.
 */

import type { SettledCall } from '../guard/types';

export type { SettledCall };

/** Request path of the permit route. */
export const PERMIT_PATH = '/v1/permit';

/** The editor's answer to a settled call: the id of the record it wrote. */
export interface RecordedResponse {
  v: 1;
  status: 'recorded';
  recordId: string;
}

/** Whether `v` is a `recorded` answer of the permit route. */
export function isRecordedResponse(v: unknown): v is RecordedResponse {
  const r = v as { v?: unknown; status?: unknown; recordId?: unknown } | null;
  return typeof r === 'object' && r !== null && r.v === 1 && r.status === 'recorded' && typeof r.recordId === 'string';
}
