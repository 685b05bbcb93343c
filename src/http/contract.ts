// A route's request contract in one API version: its schemas without the handler-checked marks, with `competitionId` as the version's rules say (the OpenAPI document and the MCP tools show it so).
import { rule, type ApiVersion, type CompetitionIdMode } from '../domain/versions.js';
import { contractSchema, type JSONSchema, type RouteDef } from './route.js';

/** The API versions a contract is read in (the domain's list, for the API's clients: MCP tools). */
export type { ApiVersion };

/** The rules-table row deciding `competitionId` of a route, and the request part that carries it. */
const COMPETITION_ID_RULES: Record<string, { rule: 'competitionIdExecute' | 'competitionIdQuote' | 'competitionIdBalances' | 'competitionIdTrades' | 'competitionIdPerps'; part: 'query' | 'body' }> = {
  'trade.execute': { rule: 'competitionIdExecute', part: 'body' },
  'trade.quote': { rule: 'competitionIdQuote', part: 'query' },
  'agent.balances': { rule: 'competitionIdBalances', part: 'query' },
  'agent.trades': { rule: 'competitionIdTrades', part: 'query' },
  'agent.perps.positions': { rule: 'competitionIdPerps', part: 'query' },
  'agent.perps.account': { rule: 'competitionIdPerps', part: 'query' },
};

/**
 * The contract of one request part of `def` in `version`: the route's schema without its
 * handler-checked marks, with `competitionId` required, optional or not read as the version's
 * rules say.
 */
export function partContract(def: RouteDef, part: 'params' | 'query' | 'body', version: ApiVersion): JSONSchema | undefined {
  const schema = def.schemas?.[part];
  if (!schema) return undefined;
  const s = contractSchema(schema);
  const r = COMPETITION_ID_RULES[def.id];
  const props = s.properties as Record<string, JSONSchema> | undefined;
  if (!r || r.part !== part || !props?.competitionId) return s;
  const mode: CompetitionIdMode = rule(version, r.rule);
  const required = ((s.required ?? []) as string[]).filter((k) => k !== 'competitionId');
  if (mode === 'required') return { ...s, required: [...required, 'competitionId'] };
  if (mode === 'active') {
    const { competitionId, ...rest } = props;
    return { ...s, properties: { ...rest, competitionId: { ...competitionId, description: 'Not read in this API version: the active competition is used' } }, required };
  }
  return s;
}
