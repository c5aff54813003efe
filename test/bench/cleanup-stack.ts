/**
 * Everything the bench must undo (child processes, the temp store), run in reverse order once,
 * whether the run passed, failed, threw or was interrupted.
 */
export class CleanupStack {
  private readonly steps: { label: string; run: () => Promise<void> | void }[] = [];
  private done = false;

  push(label: string, run: () => Promise<void> | void): void {
    this.steps.push({ label, run });
  }

  async runAll(): Promise<void> {
    if (this.done) return;
    this.done = true;
    for (const step of this.steps.reverse()) {
      try {
        await step.run();
      } catch (error) {
        process.stderr.write(`cleanup (${step.label}) failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  }
}
