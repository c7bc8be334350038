// Loads TypeScript sources of this repository into a benchmark as one esbuild bundle (the same bundler and
// target as dist/), so a bench measures production-shaped code without a tsx loader on the hot path.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Bundles `source` (an ES module whose imports are repository paths such as './src/tools/judgment-service') for
 * Node 20 and imports it. Resolves with the module namespace; rejects with esbuild's error.
 */
export async function bundleSources(source) {
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'jev-bench-'));
  const outfile = join(dir, 'bundle.mjs');
  try {
    await build({
      stdin: { contents: source, resolveDir: root, loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile,
      logLevel: 'warning',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Nearest-rank percentile `f` in [0,1] of ascending `sorted` values. */
export function percentile(sorted, f) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(f * sorted.length) - 1))];
}

/** `{n, p50, p95, mean}` of `values` (ms). */
export function stats(values) {
  const s = [...values].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 0.5), p95: percentile(s, 0.95), mean: s.reduce((a, b) => a + b, 0) / s.length };
}
