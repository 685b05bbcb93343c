// The MCP resources: the rules and the leaderboard of each active competition, read through the same tools an agent calls.
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDef } from './tools.js';

/** The two kinds of resource, with the tool that reads each and the arguments it adds. */
const KINDS = {
  rules: { tool: 'get_rules', title: 'Rules', args: {} },
  // Every participant on one page (the route's largest page), inactive ones too, as a leaderboard shows them.
  leaderboard: { tool: 'get_leaderboard', title: 'Leaderboard', args: { limit: 100, includeInactive: true } },
} as const;
type Kind = keyof typeof KINDS;

const URI = /^compsim:\/\/competitions\/([^/?#]+)\/(rules|leaderboard)$/;

/** The URI of a competition's resource of `kind`. */
export function resourceUri(competitionId: string, kind: Kind): string {
  return `compsim://competitions/${encodeURIComponent(competitionId)}/${kind}`;
}

/** The resource templates: any competition's rules and leaderboard, by id. */
export const RESOURCE_TEMPLATES: ResourceTemplate[] = (Object.keys(KINDS) as Kind[]).map((kind) => ({
  uriTemplate: `compsim://competitions/{competitionId}/${kind}`,
  name: `competition-${kind}`,
  title: `${KINDS[kind].title} of a competition`,
  mimeType: 'application/json',
}));

/** The listed resources: the rules and the leaderboard of each competition in `competitions` (the active ones). */
export function listedResources(competitions: readonly { id: string; name: string }[]): Resource[] {
  return competitions.flatMap((c) => (Object.keys(KINDS) as Kind[]).map((kind) => ({
    uri: resourceUri(c.id, kind),
    name: `${c.name}: ${kind}`,
    title: `${KINDS[kind].title} of ${c.name}`,
    mimeType: 'application/json',
  })));
}

/** The tool call a resource URI stands for, or null for a URI that is not one of ours. */
export function resourceCall(uri: string, tools: ReadonlyMap<string, ToolDef>): { tool: ToolDef; args: Record<string, unknown> } | null {
  const m = URI.exec(uri);
  if (!m) return null;
  let competitionId: string;
  try {
    competitionId = decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
  const kind = KINDS[m[2] as Kind];
  const tool = tools.get(kind.tool);
  return tool ? { tool, args: { competitionId, ...kind.args } } : null;
}

/** A read resource's contents: the API's JSON answer as it came. */
export function resourceContents(uri: string, text: string): ReadResourceResult {
  return { contents: [{ uri, mimeType: 'application/json', text }] };
}
