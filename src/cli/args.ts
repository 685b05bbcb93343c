// Command-line parsing for `compsim serve`: typed options with clear errors (exit code 2 on misuse).

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
  simApi?: true;
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
}

/** A usage error: printed with the usage text, exit code 2. */
export class UsageError extends Error {}

/**
 * Reports a command's failure on `stderr` as `<prefix>: <message>` and gives its exit code: a
 * {@link UsageError} is followed by the usage text (2), anything else stands alone (1).
 */
export function failure(prefix: string, usage: string, err: unknown, stderr: { write(text: string): unknown }): number {
  if (err instanceof UsageError) {
    stderr.write(`${prefix}: ${err.message}\n\n${usage}\n`);
    return 2;
  }
  stderr.write(`${prefix}: ${(err as Error).message}\n`);
  return 1;
}

export const USAGE = `Usage: compsim serve [options]
       compsim run <scenario files or folders> [options]     (compsim run --help)
       compsim record --target <url> --out <file> [options]  (compsim record --help)
       compsim replay --trades <file> --prices <tape.json> [options]  (compsim replay --help)
       compsim state inspect|compact|export <dir>            (compsim state --help)
       compsim openapi [--server-url <url>] [--no-sim] > openapi.json
       compsim sign-wallet --key <hex> --api-key <key> [--url <url>]  (compsim sign-wallet --help)
       compsim sign-inference --key <hex> --model <m> --prompt <p> --output <o>

Options:
  --port <n>            TCP port (default 3000; 0 = any free port)
  --host <addr>         interface to bind (default 127.0.0.1)
  --seed <n|text>       seed of ids, keys and the random-walk feed (default: the world file's, else 1)
  --clock manual|system manual: virtual time stands still unless advanced; system: wall-clock time (default manual)
  --world <file.json>   world fixture to load (e.g. fixtures/worlds/demo.json)
  --admin-key <key>     admin API key to create (format: 16 hex + "_" + 16 hex)
  --log-level <level>   trace|debug|info|warn|error|fatal|silent (default info)
  --sim-api             serve the simulation control API /api/sim/* (admin key; off by default)
  --rate-limits upstream|off  the hosted service's per-agent rate limits on virtual time (default off)
  --state <dir>         keep the world in <dir> across restarts (journal + snapshots, fsync before each answer;
                        one process per directory); without it everything stays in memory
  --state-compact-mb <n>  write a compacted snapshot once the journal reaches n MB (default 16)
  --wallet-domain <text>      Domain: line wallet verification expects (default: this server's base URL)
  --inference-signer <addr>   trust this inference signer too (repeatable; upstream's is always trusted)
  -h, --help            show this help`;

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];
const KEY_RE = /^[0-9a-f]{16}_[0-9a-f]{16}$/;

/** Parses the arguments after `serve`. */
export function parseServeArgs(argv: string[]): ServeArgs {
  const out: ServeArgs = { port: 3000, host: '127.0.0.1', clock: 'manual', logLevel: 'info' };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const eq = raw.indexOf('=');
    const flag = raw.startsWith('--') && eq > 0 ? raw.slice(0, eq) : raw;
    const value = (): string => {
      if (raw.startsWith('--') && eq > 0) return raw.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--port': {
        const v = value();
        const n = Number(v);
        if (!/^\d+$/.test(v) || n > 65535) throw new UsageError(`--port must be an integer 0-65535, got '${v}'`);
        out.port = n;
        break;
      }
      case '--host': out.host = value(); break;
      case '--seed': {
        const v = value();
        out.seed = /^-?\d+$/.test(v) ? Number(v) : v;
        break;
      }
      case '--clock': {
        const v = value();
        if (v !== 'manual' && v !== 'system') throw new UsageError(`--clock must be manual or system, got '${v}'`);
        out.clock = v;
        break;
      }
      case '--world': out.world = value(); break;
      case '--admin-key': {
        const v = value();
        if (!KEY_RE.test(v)) throw new UsageError('--admin-key must be 16 lower-case hex, "_", 16 lower-case hex');
        out.adminKey = v;
        break;
      }
      case '--log-level': {
        const v = value();
        if (!LEVELS.includes(v)) throw new UsageError(`--log-level must be one of ${LEVELS.join(', ')}, got '${v}'`);
        out.logLevel = v;
        break;
      }
      case '--sim-api':
        if (eq > 0) throw new UsageError('--sim-api takes no value');
        out.simApi = true;
        break;
      case '--rate-limits': {
        const v = value();
        if (v !== 'upstream' && v !== 'off') throw new UsageError(`--rate-limits must be upstream or off, got '${v}'`);
        out.rateLimits = v;
        break;
      }
      case '--wallet-domain': out.walletDomain = value(); break;
      case '--inference-signer': {
        const v = value();
        if (!/^0x[0-9a-fA-F]{40}$/.test(v)) throw new UsageError(`--inference-signer must be an address (0x + 40 hex), got '${v}'`);
        out.inferenceSigners = [...(out.inferenceSigners ?? []), v];
        break;
      }
      case '--state': out.state = value(); break;
      case '--state-compact-mb': {
        const v = value();
        if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0) throw new UsageError(`--state-compact-mb must be a positive number, got '${v}'`);
        out.stateCompactMb = Number(v);
        break;
      }
      default:
        throw new UsageError(`unknown option '${raw}'`);
    }
  }
  return out;
}
