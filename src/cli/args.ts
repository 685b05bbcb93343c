// Command-line parsing for every compsim command on util.parseArgs (usage errors exit 2), common value parsers, and the options of `compsim serve`.
import { editDistance } from '../domain/edit-distance.js';
import { API_VERSIONS, type ApiVersion } from '../domain/versions.js';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A usage error: printed with the usage text, exit code 2. */
export class UsageError extends Error {}

/** An option the command does not have, or an argument where it takes none: a one-line pointer to `--help` instead of the usage text. */
export class UnknownArgumentError extends UsageError {}

/**
 * Reports a command's failure on `stderr` as `<prefix>: <message>` and gives its exit code: an
 * {@link UnknownArgumentError} is followed by a pointer to `help` (2), another {@link UsageError}
 * by the usage text (2), anything else stands alone (1).
 */
export function failure(prefix: string, usage: string, err: unknown, stderr: { write(text: string): unknown }, help = `${prefix} --help`): number {
  if (err instanceof UnknownArgumentError) {
    stderr.write(`${prefix}: ${err.message}\nRun '${help}' for the options.\n`);
    return 2;
  }
  if (err instanceof UsageError) {
    stderr.write(`${prefix}: ${err.message}\n\n${usage}\n`);
    return 2;
  }
  stderr.write(`${prefix}: ${(err as Error).message}\n`);
  return 1;
}

/** A command's options, declared as `util.parseArgs` takes them. */
export type Options = NonNullable<ParseArgsConfig['options']>;
/** An option that takes a value, and a switch. */
export const str = { type: 'string' } as const;
export const bool = { type: 'boolean' } as const;

/**
 * Parses `argv` with `util.parseArgs` against `options`; the values come typed as declared.
 * Strict mode is off because it refuses every value that starts with a dash (`--seed -5`, a prompt
 * such as `-1`) and its errors do not quote the argument as written. Its tokens are checked here
 * instead, with compsim's messages: an unknown option, a missing value (or another `--option` in
 * its place), a value on a switch, an argument where the command takes none.
 */
export function parseFlags<O extends Options>(argv: readonly string[], options: O, positionals = false) {
  const parsed = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  for (const t of parsed.tokens) {
    if (t.kind !== 'option') {
      if (!positionals) throw new UnknownArgumentError(`unexpected argument '${argv[t.index]}'${didYouMean(argv[t.index]!, Object.keys(options))}`);
      continue;
    }
    const type = Object.hasOwn(options, t.name) ? options[t.name]!.type : undefined;
    if (type === undefined) throw new UnknownArgumentError(`unknown option '${argv[t.index]}'${didYouMean(t.name, Object.keys(options))}`);
    if (type === 'boolean' && t.value !== undefined) throw new UsageError(`${t.rawName} takes no value`);
    if (type === 'string' && (t.value === undefined || (!t.inlineValue && t.value.startsWith('--')))) throw new UsageError(`${t.rawName} needs a value`);
  }
  return parsed as unknown as ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>;
}

/**
 * ` (did you mean --port?)` for the name `given` most likely meant among `names` (written with
 * `lead`): the one it begins, or the closest within two edits (one for names under four
 * letters); '' when none is close.
 */
export function didYouMean(given: string, names: readonly string[], lead = '--'): string {
  const name = given.replace(/^-+/, '').toLowerCase();
  if (name === '') return '';
  const starts = names.filter((n) => n.startsWith(name));
  if (starts.length === 1) return ` (did you mean ${lead}${starts[0]}?)`;
  const limit = name.length >= 4 ? 2 : 1;
  let best: { n: string; d: number } | undefined;
  for (const n of names) {
    const d = editDistance(name, n);
    if (d <= limit && (best === undefined || d < best.d)) best = { n, d };
  }
  return best ? ` (did you mean ${lead}${best.n}?)` : '';
}

/** `parse(value)`, or undefined for an option not given. */
export function opt<T>(value: string | undefined, parse: (v: string) => T): T | undefined {
  return value === undefined ? undefined : parse(value);
}

/** `o` without its undefined fields (the options not given). */
export function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** One of `allowed`; the message lists them as "a, b or c" unless `described` says otherwise. */
export function choice<const C extends readonly string[]>(name: string, v: string, allowed: C, described = `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`): C[number] {
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`${name} must be ${described}, got '${v}'`);
  return v as C[number];
}

/** A seed: an integer stays a number, anything else is a text seed. */
export function seedValue(v: string): number | string {
  return /^-?\d+$/.test(v) ? Number(v) : v;
}

/** A TCP port 0-65535. */
export function portValue(name: string, v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new UsageError(`${name} must be an integer 0-65535, got '${v}'`);
  return Number(v);
}

/** An http(s) URL without trailing slashes. */
export function urlValue(name: string, v: string): string {
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new UsageError(`${name} must be a URL such as http://127.0.0.1:3000, got '${v}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${name} must be an http(s) URL, got '${v}'`);
  return v.replace(/\/+$/, '');
}

/** Parsed `serve` options. */
export interface ServeArgs {
  port: number;
  host: string;
  seed?: number | string;
  clock: 'manual' | 'system';
  world?: string;
  adminKey?: string;
  logLevel: string;
  /** Serve `/api/sim/*` (off unless `--sim-api`). */
  simApi?: boolean;
  /** `--rate-limits upstream|off` (default off). */
  rateLimits?: 'upstream' | 'off';
  /** `--state <dir>`: keep the world in this directory across restarts (default: memory only). */
  state?: string;
  /** `--state-compact-mb <n>`: compact once the journal is this many MB (default 16). */
  stateCompactMb?: number;
  /** `--wallet-domain <text>`: the `Domain:` wallet verification expects (default: the server's base URL). */
  walletDomain?: string;
  /** `--inference-signer <address>` (repeatable): trusted inference signers besides upstream's. */
  inferenceSigners?: string[];
  /** `--api-version spec|2026-08|2025-10` (default spec). */
  apiVersion?: ApiVersion;
  /** `--unknown-tokens refuse|synthetic` (default refuse). */
  unknownTokens?: 'refuse' | 'synthetic';
  /** `--max-worlds <n>`: most worlds created through `/api/sim/worlds` held at once (default 64). */
  maxWorlds?: number;
  /** `--print-keys text|json`: the start-up banner as text (default) or as one JSON line of URL, keys and ids. */
  printKeys?: 'text' | 'json';
  /** `--keys-file <path>`: write that JSON document to this file once the server answers. */
  keysFile?: string;
  /** `--mcp`: serve MCP over Streamable HTTP at `/mcp` (agents authenticate with their API key). */
  mcp?: boolean;
}

export const USAGE = `Usage: compsim serve [options]
       compsim run <scenario files or folders> [options]     (compsim run --help)
       compsim record --target <url> --out <file> [options]  (compsim record --help)
       compsim replay --trades <file> --prices <tape.json> [options]  (compsim replay --help)
       compsim sweep <scenario> --seeds 1..200 [--vary k=v1,v2] --out <dir>  (compsim sweep --help)
       compsim fork --from <url> --competition <id> --out <dir> [options]  (compsim fork --help)
       compsim state inspect|compact|export <dir>            (compsim state --help)
       compsim mcp --world demo | --url <url> --api-key <key>  (compsim mcp --help)
       compsim openapi [--server-url <url>] [--no-sim] [--api-version <v>] > openapi.json
       compsim sign-wallet --key <hex> --api-key <key> [--url <url>]  (compsim sign-wallet --help)
       compsim sign-inference --key <hex> --model <m> --prompt <p> --output <o>

Options:
  --port <n>            TCP port (default 3000; 0 = any free port)
  --host <addr>         interface to bind (default 127.0.0.1)
  --seed <n|text>       seed of ids, keys and the random-walk feed (default: the world file's, else 1)
  --clock manual|system manual: virtual time stands still unless advanced; system: wall-clock time (default manual)
  --world <file|name>   world fixture to load: a JSON file, or the name of a bundled one (demo)
  --admin-key <key>     admin API key to create (format: 16 hex + "_" + 16 hex)
  --log-level <level>   trace|debug|info|warn|error|fatal|silent (default info)
  --sim-api             serve the simulation control API /api/sim/* (admin key; off by default)
  --rate-limits upstream|off  the hosted service's per-agent rate limits on virtual time (default off)
  --api-version <v>     spec | 2026-08 | 2025-10: the API version served (default spec; docs/versions.md)
  --unknown-tokens refuse|synthetic  synthetic: any valid token address outside the catalogue gets a seeded
                        price path (default refuse: no price, as the hosted service for a token it cannot price)
  --state <dir>         keep the world in <dir> across restarts (journal + snapshots, fsync before each answer;
                        one process per directory); without it everything stays in memory
  --state-compact-mb <n>  write a compacted snapshot once the journal reaches n MB (default 16)
  --wallet-domain <text>      Domain: line wallet verification expects (default: this server's base URL)
  --inference-signer <addr>   trust this inference signer too (repeatable; upstream's is always trusted)
  --max-worlds <n>      most worlds POST /api/sim/worlds may create besides the default one (default 64)
  --mcp                 also serve MCP (Streamable HTTP) at /mcp: the agent tools for each agent's API key
  --print-keys text|json  print the URL, keys and ids at start-up as text (default) or as one JSON line
  --keys-file <path>    write them as JSON to <path> once the server answers (an older file is removed at start)
  -h, --help            show this help`;

const SERVE_OPTIONS = {
  port: { type: 'string', default: '3000' }, host: { type: 'string', default: '127.0.0.1' }, seed: str,
  clock: { type: 'string', default: 'manual' }, world: str, 'admin-key': str, 'log-level': { type: 'string', default: 'info' },
  'sim-api': bool, 'rate-limits': str, state: str, 'state-compact-mb': str, 'wallet-domain': str,
  'inference-signer': { type: 'string', multiple: true }, 'api-version': str, 'unknown-tokens': str, 'max-worlds': str, mcp: bool,
  'print-keys': str, 'keys-file': str,
} as const;

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** An `--admin-key` value: an API key's form (16 lower-case hex, "_", 16 lower-case hex). */
export function adminKeyValue(key: string): string {
  if (!/^[0-9a-f]{16}_[0-9a-f]{16}$/.test(key)) throw new UsageError('--admin-key must be 16 lower-case hex, "_", 16 lower-case hex');
  return key;
}

/** Parses the arguments after `serve`. */
export function parseServeArgs(argv: readonly string[]): ServeArgs {
  const { values: v } = parseFlags(argv, SERVE_OPTIONS);
  const key = opt(v['admin-key'], adminKeyValue);
  const signer = v['inference-signer']?.find((s) => !/^0x[0-9a-fA-F]{40}$/.test(s));
  if (signer !== undefined) throw new UsageError(`--inference-signer must be an address (0x + 40 hex), got '${signer}'`);
  const mb = v['state-compact-mb'];
  if (mb !== undefined && (!/^\d+(\.\d+)?$/.test(mb) || Number(mb) <= 0)) throw new UsageError(`--state-compact-mb must be a positive number, got '${mb}'`);
  const maxWorlds = v['max-worlds'];
  if (maxWorlds !== undefined && (!/^\d+$/.test(maxWorlds) || Number(maxWorlds) > 10_000)) throw new UsageError(`--max-worlds must be an integer 0-10000, got '${maxWorlds}'`);
  return defined({
    port: portValue('--port', v.port), host: v.host, seed: opt(v.seed, seedValue),
    clock: choice('--clock', v.clock, ['manual', 'system']), world: v.world, adminKey: key,
    logLevel: choice('--log-level', v['log-level'], LEVELS, `one of ${LEVELS.join(', ')}`), simApi: v['sim-api'],
    rateLimits: opt(v['rate-limits'], (r) => choice('--rate-limits', r, ['upstream', 'off'])),
    state: v.state, stateCompactMb: opt(mb, Number), walletDomain: v['wallet-domain'], inferenceSigners: v['inference-signer'],
    apiVersion: opt(v['api-version'], (a) => choice('--api-version', a, API_VERSIONS)),
    unknownTokens: opt(v['unknown-tokens'], (u) => choice('--unknown-tokens', u, ['refuse', 'synthetic'])),
    maxWorlds: opt(maxWorlds, Number), mcp: v.mcp,
    printKeys: opt(v['print-keys'], (k) => choice('--print-keys', k, ['text', 'json'])), keysFile: v['keys-file'],
  });
}
