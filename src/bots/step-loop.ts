import { PredexError } from '../client';

/** Runs a bot's step until stopped, waiting between steps; a failed step is logged and never ends the loop. */
export class StepLoop {
  private stopped = false;
  private wake?: () => void;

  constructor(private readonly step: () => Promise<unknown>, private readonly waitMs: () => number, private readonly failed: (reason: string) => void) {}

  async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.step();
      } catch (error) {
        this.failed(error instanceof PredexError ? `${error.code}: ${error.message}` : String(error));
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, this.waitMs());
      });
    }
  }

  /** Ends the loop after the step under way. */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }
}
