// `compsim record`: a recording proxy that forwards traffic to a target and keeps a scenario skeleton file up to date.
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SkeletonBuilder } from '../harness/record.js';
import { SCHEMA_URL } from '../harness/schema.js';
import { parseBody } from '../harness/targets.js';
import type { Json } from '../harness/types.js';
import { defined, failure, opt, parseFlags, portValue, seedValue, str, urlValue, UsageError } from './args.js';
import type { OutputStream } from './run-output.js';

/** Parsed `record` options. */
export interface RecordArgs {
  target: string;
  out: string;
  port: number;
  host: string;
  adminKey?: string;
  seed?: number | string;
}

/** Help text of `compsim record`. */
export const RECORD_USAGE = `Usage: compsim record --target <url> --out <file.scenario.json> [options]

Forwards every request on the proxy port to the target and writes a scenario skeleton: one call
step per request with the observed status and body as expect, API keys replaced by actor names.
The file is rewritten after every request; stop with Ctrl-C.

Options:
  --target <url>        server to forward to (e.g. http://127.0.0.1:3000)
  --out <file>          scenario file to write
  --port <n>            proxy port (default 3001; 0 = any free port)
  --host <addr>         proxy interface (default 127.0.0.1)
  --admin-key <key>     the target's admin key: the recording starts with POST /api/sim/reset, so the
                        skeleton replays from the same seeded state (the target needs --sim-api)
  --seed <n|text>       seed of that reset (default: the target's)
  -h, --help            show this help`;

const RECORD_OPTIONS = {
  target: str, out: str, port: { type: 'string', default: '3001' }, host: { type: 'string', default: '127.0.0.1' }, 'admin-key': str, seed: str,
} as const;

/** Parses the arguments after `record`. */
export function parseRecordArgs(argv: readonly string[]): RecordArgs {
  const { values: v } = parseFlags(argv, RECORD_OPTIONS);
  const target = opt(v.target, (u) => urlValue('--target', u));
  const port = portValue('--port', v.port);
  const seed = opt(v.seed, seedValue);
  if (!target) throw new UsageError('--target is required');
  if (!v.out) throw new UsageError('--out is required');
  if (seed !== undefined && !v['admin-key']) throw new UsageError('--seed needs --admin-key (the reset is made with it)');
  return defined({ target, out: v.out, port, host: v.host, adminKey: v['admin-key'], seed });
}

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding']);

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A running recorder. */
export interface Recording { url: string; builder: SkeletonBuilder; write(): void; stop(): Promise<void> }

/** Starts the proxy; with an admin key the target is reset first. */
export async function startRecording(args: RecordArgs): Promise<Recording> {
  const builder = new SkeletonBuilder(args.adminKey);
  const schemaRef = relative(dirname(args.out), fileURLToPath(SCHEMA_URL)).split('\\').join('/');
  const write = () => writeFileSync(args.out, `${JSON.stringify(builder.scenario(schemaRef), null, 2)}\n`);
  if (args.adminKey) {
    const body: Json = args.seed !== undefined ? { seed: args.seed } : {};
    const res = await fetch(`${args.target}/api/sim/reset`, {
      method: 'POST', headers: { authorization: `Bearer ${args.adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`POST ${args.target}/api/sim/reset answered ${res.status} ${text.slice(0, 200)} (is it started with --sim-api and this admin key?)`);
    builder.add({ method: 'POST', url: '/api/sim/reset', headers: { authorization: `Bearer ${args.adminKey}` }, requestBody: body, status: 200, responseBody: parseBody(text) });
  }
  write();
  // One exchange at a time, so the skeleton's order is the order the target answered in.
  let queue = Promise.resolve();
  const server: Server = createServer((req, res) => {
    queue = queue.then(async () => {
      const raw = await readAll(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_HEADERS.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      try {
        const method = req.method ?? 'GET';
        const up = await fetch(`${args.target}${req.url ?? '/'}`, { method, headers, ...(raw.length > 0 && method !== 'GET' && method !== 'HEAD' ? { body: raw } : {}) });
        const text = await up.text();
        const type = up.headers.get('content-type');
        res.writeHead(up.status, type ? { 'content-type': type } : {});
        res.end(text);
        const requestBody = raw.length > 0 ? parseBody(raw.toString('utf8')) : undefined;
        builder.add({
          method, url: req.url ?? '/', headers, status: up.status,
          ...(requestBody !== undefined ? { requestBody: requestBody as Json } : {}),
          ...(text !== '' ? { responseBody: parseBody(text) as Json } : {}),
        });
        write();
      } catch (err) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, error: `compsim record: cannot reach ${args.target}: ${(err as Error).message}` }));
      }
    });
  });
  server.listen(args.port, args.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${args.host.includes(':') ? `[${args.host}]` : args.host}:${port}`;
  const stop = () => new Promise<void>((resolve) => {
    void queue.then(() => {
      write();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });
  return { url, builder, write, stop };
}

/** Entry of `compsim record` from main: runs until SIGINT/SIGTERM; exit 0, 2 on usage errors, 1 when the target is unusable. */
export async function recordMain(argv: readonly string[], io: { stdout: OutputStream; stderr: OutputStream } = process): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout.write(`${RECORD_USAGE}\n`);
    return 0;
  }
  let rec: Recording;
  let args: RecordArgs;
  try {
    args = parseRecordArgs(argv);
    rec = await startRecording(args);
  } catch (err) {
    return failure('compsim record', RECORD_USAGE, err, io.stderr);
  }
  io.stdout.write(`compsim record: proxy on ${rec.url} -> ${args.target}; writing ${args.out} (Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    const onSignal = () => void rec.stop().then(resolve);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  io.stdout.write(`compsim record: wrote ${args.out} (${rec.builder.scenario().steps.length} steps)\n`);
  return 0;
}
