// Shared option checks of the benchmarks: a bad count ends the run at once with the flag named (exit 2).

/** `values[name]` as an integer ≥ 1; prints `--name must be …` and exits 2 otherwise. */
export function positiveInt(values, name) {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < 1) {
    console.error(`--${name} must be an integer >= 1; got ${JSON.stringify(values[name])}`);
    process.exit(2);
  }
  return n;
}
