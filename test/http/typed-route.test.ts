// Handler inputs typed from request schemas: what tsc refuses (the @ts-expect-error lines, checked by `npm test`'s tsc --noEmit) and the run-time values the types promise.
import { expect } from 'chai';
import { createDoor } from '../../src/http/adapters/door.js';
import { handlerChecked, type HandlerRequest } from '../../src/http/route.js';
import { route, type Infer } from '../../src/http/typed-route.js';
import { limit, obj, offset, str, uuid } from '../../src/http/resources/shared/request.js';
import { createAgentBody } from '../../src/http/resources/agents/request.js';
import { createWorld } from '../../src/world/world.js';
import { checkServed } from '../helpers/answers.js';

/** True when `A` and `B` are the same type (each assignable to the other, `any` not accepted). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
/** Compiles only for `true`. */
const holds = <T extends true>(): T | undefined => undefined;

const body = obj({ name: str, owner: handlerChecked(uuid, str), tags: { type: 'array', items: str } }, ['name', 'owner']);
const query = obj({ limit: limit(10), offset, filter: str });

// Required stays required; a handler-checked property is not required by validation, so it may be absent.
holds<Same<Infer<typeof body>, { name: string; owner?: string; tags?: string[] }>>();
// A property with a default is always there (validation fills it in); query text arrives as the schema's type.
holds<Same<Infer<typeof query>, { limit: number; offset: number; filter?: string }>>();
// A real route's body: nested objects typed too.
holds<Same<Infer<typeof createAgentBody>['agent']['name'], string>>();

const echo = route({
  id: 'test.echo', method: 'POST', path: '/test/echo', auth: 'public', generation: 'current', tag: 'test', summary: 'echo',
  schemas: { body, query },
  handler: async (req) => {
    holds<Same<typeof req, HandlerRequest<Infer<typeof body>, Infer<typeof query>>>>();
    // @ts-expect-error the body schema declares no `nickname`
    const nickname: unknown = req.body.nickname;
    // @ts-expect-error `owner` is handler-checked: validation lets it be absent, so it is not a string for sure
    const owner: string = req.body.owner;
    // @ts-expect-error the query schema declares no `sort`
    const sort: unknown = req.query.sort;
    return { body: { name: req.body.name, limit: req.query.limit, offset: req.query.offset, nickname, owner, sort } };
  },
});

const bare = route({
  id: 'test.bare', method: 'GET', path: '/test/bare', auth: 'public', generation: 'current', tag: 'test', summary: 'bare',
  // @ts-expect-error without a body schema the body is unknown: nothing may be read from it
  handler: async ({ body: b }) => ({ body: b.anything }),
});

describe('typed route inputs (http/typed-route.ts)', () => {
  it('hands the handler what its types promise: defaults filled in, query text as numbers (200)', async () => {
    const world = await createWorld({});
    const res = checkServed('POST', '/test/echo', await createDoor({ routes: [echo, bare] }).serve(world, {
      method: 'POST', path: '/test/echo', headers: { 'content-type': 'application/json' }, query: { limit: '5' },
      body: JSON.stringify({ name: 'n', owner: 'not checked here' }),
    }));
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ name: 'n', limit: 5, offset: 0, owner: 'not checked here', nickname: undefined, sort: undefined });
  });

  it('refuses what the schema requires before the handler runs (400)', async () => {
    const world = await createWorld({});
    const res = checkServed('POST', '/test/echo', await createDoor({ routes: [echo] }).serve(world, {
      method: 'POST', path: '/test/echo', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ owner: 'x' }),
    }));
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ success: false, error: 'Invalid request: name (required)' });
  });
});
