/** Lines one call may log; the bytes cap is in SandboxLimits. */
export const maxLogLinesPerCall = 100;

/** What one call logged, capped in lines and bytes; past a cap, one line says the rest was dropped. */
export class CallLog {
  readonly lines: string[] = [];
  private bytes = 0;
  private full = false;

  constructor(private readonly maxBytes: number) {}

  add(text: string): void {
    if (this.full) return;
    const size = Buffer.byteLength(text);
    if (this.lines.length >= maxLogLinesPerCall || this.bytes + size > this.maxBytes) {
      this.full = true;
      this.lines.push(
        `(log limit reached: ${maxLogLinesPerCall} lines or ${this.maxBytes} bytes per call; the rest of this call's log was dropped)`,
      );
      return;
    }
    this.bytes += size;
    this.lines.push(text);
  }
}
