// Test helper: running a CLI command's main in this process with its output captured, and output streams that keep what was written.

/** An output stream that keeps what was written (`isTTY` as given). */
export function textSink(isTTY = false): { text: string; isTTY: boolean; write(s: string): boolean } {
  const out = { text: '', isTTY, write(s: string) { out.text += s; return true; } };
  return out;
}

/** A command's main (`runMain`, `sweepMain`, ...) run on `args` here; its exit code and what it printed on each stream. */
export async function captured(
  main: (args: string[], io: { stdout: { write(s: string): unknown }; stderr: { write(s: string): unknown } }) => Promise<number>,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}
