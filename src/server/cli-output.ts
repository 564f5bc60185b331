/** Where a CLI command writes: stderr for progress, stdout for results. */
export interface CliOutput {
  progress(line: string, redraw: boolean): void;
  result(line: string): void;
}

/**
 * A terminal's output (a bar redrawn in place) or a log's (only the lines not marked as a
 * redraw: a line per table or phase step).
 */
export function terminalOutput(): CliOutput {
  const tty = process.stderr.isTTY;
  return {
    progress: (line, redraw) => {
      if (tty) process.stderr.write(`\r${line.padEnd(100).slice(0, Math.max(40, (process.stderr.columns ?? 100) - 1))}`);
      else if (!redraw) process.stderr.write(`${line}\n`);
    },
    result: (line) => {
      if (tty) process.stderr.write('\n');
      process.stdout.write(`${line}\n`);
    },
  };
}
