// Shared command-line flag walking for every compsim command: `--name value`, `--name=value`, positionals, and common value parsers.
import { UsageError } from './args.js';

/** One flag occurrence. */
export interface Flag {
  /** `--name` (without any `=value`). */
  name: string;
  /** The argument as written. */
  raw: string;
  /** The flag's value (the `=value` part, else the next argument); a missing value is a usage error. */
  value(): string;
  /** Refuses an inline `=value` on a flag that takes none. */
  noValue(): void;
}

/**
 * Walks `argv`: every `--flag` goes to `onFlag` (which throws UsageError for unknown ones);
 * any other argument goes to `onPositional`, or is an unknown option when there is none.
 */
export function walkFlags(argv: readonly string[], onFlag: (f: Flag) => void, onPositional?: (arg: string) => void): void {
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    if (!raw.startsWith('--')) {
      if (!onPositional) throw new UsageError(`unknown option '${raw}'`);
      onPositional(raw);
      continue;
    }
    const eq = raw.indexOf('=');
    const name = eq > 0 ? raw.slice(0, eq) : raw;
    onFlag({
      name, raw,
      value: () => {
        if (eq > 0) return raw.slice(eq + 1);
        const v = argv[++i];
        if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value`);
        return v;
      },
      noValue: () => {
        if (eq > 0) throw new UsageError(`${name} takes no value`);
      },
    });
  }
}

/** The usage error of an unrecognised flag. */
export function unknownFlag(f: Flag): never {
  throw new UsageError(`unknown option '${f.raw}'`);
}

/** A seed: an integer stays a number, anything else is a text seed. */
export function seedValue(v: string): number | string {
  return /^-?\d+$/.test(v) ? Number(v) : v;
}

/** A TCP port 0-65535. */
export function portValue(flag: string, v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new UsageError(`${flag} must be an integer 0-65535, got '${v}'`);
  return Number(v);
}

/** An http(s) URL without trailing slashes. */
export function urlValue(flag: string, v: string): string {
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new UsageError(`${flag} must be a URL such as http://127.0.0.1:3000, got '${v}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an http(s) URL, got '${v}'`);
  return v.replace(/\/+$/, '');
}
