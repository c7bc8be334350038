// The baseline every upstream benchmark compares against: a bare fetch POSTing a captured request body to a
// System One endpoint, timed, with no work of ours around it.
import { performance } from 'node:perf_hooks';

/** A timed bare POST of `body` to `endpoint` (…/v1/systemone): resolves to ms; rejects unless 200 with answers. */
export function barePost(endpoint, body) {
  return async () => {
    const t = performance.now();
    const res = await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body });
    const parsed = JSON.parse(await res.text());
    const dt = performance.now() - t;
    if (res.status !== 200 || !parsed.answers) throw new Error(`bare POST failed: HTTP ${res.status}`);
    return dt;
  };
}
