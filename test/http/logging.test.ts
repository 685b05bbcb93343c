// Request logging: one pino line per request (method, path, status, ms, principal); pretty formatter for terminals.
import { expect } from 'chai';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { createLogger, prettyLine } from '../../src/http/adapters/logging.js';
import { createServer } from '../../src/http/adapters/server.js';
import { createWorld } from '../../src/world/world.js';
import { ADMIN_KEY } from '../helpers/server.js';
import { responseViolations } from '../helpers/answers.js';

describe('request logging', () => {
  it('writes one JSON line per request with method, path, status, ms and principal', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk: Buffer, _e, cb) { lines.push(...chunk.toString().split('\n').filter(Boolean)); cb(); } });
    const world = await createWorld({ admin: { apiKey: ADMIN_KEY } });
    const server = createServer(world, { logger: createLogger({ destination: sink, pretty: false }), onResponseViolation: (v) => responseViolations.push(v) }).listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await fetch(`${url}/api/admin/arenas`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    await fetch(`${url}/api/nowhere`);
    await new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); });
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries).to.have.length(2);
    expect(entries[0]).to.include({ method: 'GET', path: '/api/admin/arenas', status: 200 });
    expect(entries[0].principal).to.match(/^admin:/);
    expect(entries[0].ms).to.be.a('number');
    expect(entries[1]).to.include({ path: '/api/nowhere', status: 404, principal: 'anonymous' });
  });

  it('formats lines for people on a terminal', () => {
    const line = prettyLine(JSON.stringify({ level: 30, time: 0, msg: 'GET /api/health 200', status: 200 }));
    expect(line).to.equal('00:00:00 INFO  GET /api/health 200 {"status":200}\n');
    expect(prettyLine('not json')).to.equal('not json');
  });
});
