/** Bytes that arrive in chunks and leave in exact-sized pieces, copied only when a piece spans chunks. */
export class ByteQueue {
  private chunks: Buffer[] = [];
  private head = 0;
  private queued = 0;

  get length(): number {
    return this.queued;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.queued += chunk.length;
  }

  /** The next `size` bytes, or undefined (taking nothing) while fewer are queued. */
  take(size: number): Buffer | undefined {
    if (size > this.queued) return undefined;
    const first = this.chunks[0];
    if (first && first.length - this.head >= size) {
      const piece = first.subarray(this.head, this.head + size);
      this.advance(size);
      return piece;
    }
    const piece = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const chunk = this.chunks[0] as Buffer;
      const copied = chunk.copy(piece, filled, this.head, Math.min(chunk.length, this.head + size - filled));
      filled += copied;
      this.advance(copied);
    }
    return piece;
  }

  /** Everything still queued, leaving the queue empty. */
  drain(): Buffer[] {
    const rest = this.chunks.map((chunk, i) => (i === 0 ? chunk.subarray(this.head) : chunk));
    this.chunks = [];
    this.head = 0;
    this.queued = 0;
    return rest;
  }

  private advance(size: number): void {
    this.queued -= size;
    this.head += size;
    while (this.chunks[0] && this.head >= this.chunks[0].length) {
      this.head -= this.chunks[0].length;
      this.chunks.shift();
    }
  }
}
