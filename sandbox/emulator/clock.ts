// One clock for the whole emulator so tests can move time forward (token expiry, presigned URL
// expiry) without sleeping.
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
