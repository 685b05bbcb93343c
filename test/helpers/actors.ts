// Test helper: create users, agents and competitions through the admin API.
import { expect } from 'chai';
import type { TestServer } from './server.js';

let walletCounter = 0;

/** A fresh valid wallet address (deterministic within a run). */
export function nextWallet(): string {
  walletCounter += 1;
  return `0x${walletCounter.toString(16).padStart(40, '0')}`;
}

/** Registers a user with a first agent; returns ids and the agent key. */
export async function createAgent(s: TestServer, adminKey: string, name: string, extra: Record<string, unknown> = {}) {
  const res = await s.call('POST', '/api/admin/users', { key: adminKey, body: { walletAddress: nextWallet(), agentName: name, ...extra } });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { userId: res.body.user.id as string, agentId: res.body.agent.id as string, apiKey: res.body.agent.apiKey as string, agent: res.body.agent };
}

/** Creates a competition (201 expected) and returns its wire object. */
export async function createCompetition(s: TestServer, adminKey: string, body: Record<string, unknown> = {}) {
  const res = await s.call('POST', '/api/admin/competition/create', { key: adminKey, body: { name: 'Test Cup', ...body } });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.competition;
}

/** Asserts an error envelope with an exact message. */
export function expectError(res: { status: number; body: any }, status: number, message: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.success).to.equal(false);
  expect(res.body.error).to.equal(message);
}
