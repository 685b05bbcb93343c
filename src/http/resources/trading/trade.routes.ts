// Paper trading: execute and quote (shared paths: the caller's key picks the generation).
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { executeBody, quoteQuery } from './request.js';
import { executeAnyGeneration, quoteAnyGeneration } from '../legacy/shared.js';
import { executeResponses, quoteResponses } from './response.js';

/** Trade routes. */
export const TRADE_ROUTES: RouteDef[] = [
  route({
    id: 'trade.execute', method: 'POST', path: '/api/trade/execute', auth: 'key', agentOnly: true, generation: 'shared', tag: 'trade',
    summary: 'Execute a paper trade (a team key gets the legacy engine and transaction)', schemas: { responses: executeResponses, body: executeBody },
    handler: executeAnyGeneration,
  }),
  route({
    id: 'trade.quote', method: 'GET', path: '/api/trade/quote', auth: 'key', generation: 'shared', tag: 'trade',
    // The current query schema is applied in the handler to agent keys; team keys get the legacy checks.
    summary: 'Quote a paper trade (no success field, as upstream; a team key gets the legacy quote)', schemas: { responses: quoteResponses, query: quoteQuery },
    handler: quoteAnyGeneration,
  }),
];
