/** Where a command writes: the result to stdout, progress and faults to stderr (tests pass their own). */
export interface Output {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const processOutput: Output = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};
