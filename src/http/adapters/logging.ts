// Logger factory: pino, JSON lines by default, a tiny human-readable formatter on a terminal.
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Formats one pino JSON line for people: `12:00:00 INFO  GET /api/health 200 1ms admin`. */
export function prettyLine(line: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof o.time === 'number' ? new Date(o.time).toISOString().slice(11, 19) : '';
  const level = (LEVELS[o.level as number] ?? String(o.level)).padEnd(5);
  const { time: _t, level: _l, pid: _p, hostname: _h, msg, err, ...rest } = o;
  const extra = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
  const stack = err && typeof err === 'object' && 'stack' in err ? `\n${String((err as { stack: unknown }).stack)}` : '';
  return `${time} ${level} ${String(msg ?? '')}${extra}${stack}\n`;
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  level?: string;
  /** Human-readable lines (default: when the destination is a TTY). */
  pretty?: boolean;
  destination?: NodeJS.WritableStream & { isTTY?: boolean };
}

/** A pino logger writing JSON or pretty lines to `destination` (stdout by default). */
export function createLogger(o: LoggerOptions = {}): Logger {
  const dest = o.destination ?? process.stdout;
  const pretty = o.pretty ?? Boolean(dest.isTTY);
  if (!pretty) return pino({ level: o.level ?? 'info', base: null }, dest);
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') dest.write(prettyLine(line));
      cb();
    },
  });
  return pino({ level: o.level ?? 'info', base: null }, stream);
}
