/**
 * Bounded line buffers for a child's output streams: a flooding server can never grow host memory.
 * Holds at most `maxLines` lines of at most `maxLineChars` characters each (longer lines are cut and end
 * with "…"); older lines are dropped and counted.
 */
export class LineRing {
  private readonly buffer: string[] = [];
  private partial = '';
  private partialCut = false;
  private dropped = 0;
  private committed = 0;

  constructor(
    readonly maxLines = 200,
    readonly maxLineChars = 1_000,
  ) {}

  /** Appends raw output; complete lines enter the ring, the unfinished tail waits for its newline. */
  push(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      const piece = text.slice(start, nl < 0 ? text.length : nl);
      this.addPartial(piece);
      if (nl < 0) break;
      this.commit();
      start = nl + 1;
    }
  }

  private addPartial(piece: string): void {
    if (this.partialCut || piece === '') return;
    const room = this.maxLineChars - this.partial.length;
    if (piece.length > room) {
      this.partial += piece.slice(0, Math.max(0, room));
      this.partialCut = true;
    } else this.partial += piece;
  }

  private commit(): void {
    const line = this.partial.replace(/\r$/, '') + (this.partialCut ? '…' : '');
    this.partial = '';
    this.partialCut = false;
    this.buffer.push(line);
    this.committed++;
    if (this.buffer.length > this.maxLines) {
      this.buffer.shift();
      this.dropped++;
    }
  }

  /** Complete lines kept, oldest first, plus the unfinished tail if any. */
  lines(): string[] {
    return this.partial || this.partialCut ? [...this.buffer, this.partial + (this.partialCut ? '…' : '')] : [...this.buffer];
  }

  /** The last `n` non-blank lines. */
  tail(n: number): string[] {
    return this.lines().filter((l) => l.trim() !== '').slice(-n);
  }

  /** Count of lines committed so far (a mark for `tailSince`). */
  get total(): number {
    return this.committed;
  }

  /**
   * The last `n` non-blank lines among those committed after `mark` (plus the unfinished tail), leaving
   * out lines that start with `skipPrefix` when given.
   */
  tailSince(n: number, mark: number, skipPrefix?: string): string[] {
    const fresh = Math.min(this.buffer.length, this.committed - mark);
    const lines = this.buffer.slice(this.buffer.length - fresh);
    if (this.partial || this.partialCut) lines.push(this.partial + (this.partialCut ? '…' : ''));
    return lines.filter((l) => l.trim() !== '' && (skipPrefix === undefined || !l.startsWith(skipPrefix))).slice(-n);
  }

  /** Lines dropped because the ring was full. */
  get droppedLines(): number {
    return this.dropped;
  }

  clear(): void {
    this.buffer.length = 0;
    this.partial = '';
    this.partialCut = false;
  }
}
