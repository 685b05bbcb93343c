// The in-process scenario target: a fresh world per scenario, each request through the door as the JSON text the HTTP target would send, without a socket.
import type { WorldOptions } from './config.js';
import { createDoor } from '../http/adapters/door.js';
import { targetResponse, type Target } from '../harness/targets.js';
import { createWorld, type World } from './world.js';

/** Admin key of in-process worlds (redacted from response logs, so any fixed key gives the same hash). */
export const IN_PROCESS_ADMIN_KEY = '5ce0a10000000000_00000000000a10ce';

/**
 * A target that builds a world from each scenario's seed, start time and world options and
 * serves it (sim API included) through the door `compsim serve` mounts: the request's body goes
 * in as the text the HTTP target would send, the answer comes back as the text Koa would send.
 */
export function inProcessTarget(): Target {
  let world: World | undefined;
  const door = createDoor();
  return {
    label: 'in-process',
    async begin(sc) {
      const { seed, startTime, world: options } = sc.doc;
      world = await createWorld({ ...(options as WorldOptions), seed, startTime, admin: { apiKey: IN_PROCESS_ADMIN_KEY } });
      return { adminKey: IN_PROCESS_ADMIN_KEY };
    },
    async send(req) {
      if (!world) throw new Error('in-process target: begin() was not called');
      const withBody = req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
      // As the HTTP target sends it: JSON text, typed as JSON unless the step says otherwise.
      const headers = withBody && req.headers['content-type'] === undefined ? { ...req.headers, 'content-type': 'application/json' } : req.headers;
      const res = await door.serve(world, {
        method: req.method, path: req.path, query: req.query, headers, ip: '127.0.0.1', ...(withBody ? { body: JSON.stringify(req.body) } : {}),
      });
      // The door's API answers are JSON it serialised itself.
      return targetResponse(res.status, res.text, res.text !== '' && res.body !== undefined);
    },
    close: async () => {
      world = undefined;
    },
  };
}
