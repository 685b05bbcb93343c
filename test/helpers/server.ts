// Test helper: a world served over real HTTP on port 0, with a small JSON client.
import type { AddressInfo } from 'node:net';
import { request, type Server } from 'node:http';
import { createServer, type ServerOptions } from '../../src/http/adapters/server.js';
import { createWorld, type World } from '../../src/world/world.js';
import { responseViolations } from './answers.js';
import type { WorldOptions } from '../../src/world/config.js';

/** Options of one call. */
export interface CallOptions { key?: string; body?: unknown; query?: Record<string, string>; headers?: Record<string, string>; raw?: string }

/** Response of one call. */
export interface CallResult { status: number; body: any; headers: Headers }

/** A running test server. */
export interface TestServer {
  world: World;
  url: string;
  /** The listening server (its `request` events show when an answer is under way). */
  server: Server;
  close(): Promise<void>;
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
}

/** Answers of test servers that did not match their documented response schema (see `answers.ts`: a root hook fails the test). */
export { responseViolations };

/** Fixed admin key used by tests that need an admin without calling setup. */
export const ADMIN_KEY = '0123456789abcdef_fedcba9876543210';

/**
 * Starts `createServer(world, serverOptions)` on an ephemeral port. Rows are frozen to catch mutation;
 * every answer is checked against its documented schema (see {@link responseViolations}).
 */
export async function startTestServer(
  options: WorldOptions = {}, serverOptions: ServerOptions | ((world: World) => Promise<ServerOptions>) = {},
): Promise<TestServer> {
  const world = await createWorld({ freezeRows: true, ...options });
  const extra = typeof serverOptions === 'function' ? await serverOptions(world) : serverOptions;
  const server: Server = createServer(world, { onResponseViolation: (v) => responseViolations.push(v), ...extra }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, path: string, opts: CallOptions = {}): Promise<CallResult> => {
    const qs = opts.query ? `?${new URLSearchParams(opts.query).toString()}` : '';
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    } else if (opts.raw !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(url + path + qs, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch { /* keep text */ }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const close = () => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return { world, url, server, close, call };
}

/**
 * One server for a describe block: started with `options` before its tests, brought into shape by
 * `setup` (which also hands the server to the block's variables), snapshotted, restored to that
 * snapshot before every test, and closed after the block.
 */
export function sharedServer(options: WorldOptions, setup: (s: TestServer) => Promise<void>): void {
  let server: TestServer | undefined;
  let snap = '';
  before(async () => {
    server = await startTestServer(options);
    await setup(server);
    snap = await server.world.snapshot();
  });
  beforeEach(() => server!.world.restore(snap));
  after(() => server?.close());
}

/** An answer as it came over the socket: the status line, the header lines (names as spelled, in order) and the body's bytes. */
export interface RawAnswer { status: string; headers: [string, string][]; body: Buffer }

/** One request over a socket, without fetch's header handling: for tests of an answer's exact head and bytes. */
export function rawCall(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const lines: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: `${res.statusCode} ${res.statusMessage}`, headers: lines, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The value of header `name` (any case) in a raw answer. */
export function rawHeader(a: RawAnswer, name: string): string | undefined {
  return a.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
}
