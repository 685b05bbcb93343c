// Test helper child: loads the compsim CLI, prints `warm`, then runs `compsim <argv>` with the JSON argument array of the first stdin line (a pre-warmed CLI process).
import { exitWhenWritten, main } from '../../src/cli/main.js';

let started = false;
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d: string) => {
  buf += d;
  const nl = buf.indexOf('\n');
  if (started || nl < 0) return;
  started = true;
  const argv = JSON.parse(buf.slice(0, nl)) as string[];
  main(argv).then((code) => exitWhenWritten(code), (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    return exitWhenWritten(1);
  });
});
// The parent went away before using this child.
process.stdin.on('end', () => {
  if (!started) process.exit(0);
});
process.stdout.write('warm\n');
