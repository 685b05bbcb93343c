// Library entry: createWorld, createServer, dispatch and the public types; importing it has no side effects.
export { createWorld, packageVersion, RESETTABLE_OPTIONS, type World, type ResettableOptions } from './world.js';
export { createServer, type ServerOptions } from './server.js';
export { resolveConfig, type WorldOptions } from './config.js';
export { dispatch, findRoute, routeTable, serveRequest, type IncomingRequest, type PlainRequest, type PlainResponse, type RouteMatch, type RouteTable } from './http/dispatch.js';
export { ROUTES } from './http/resources/index.js';
export type { RouteDef, HandlerRequest, HandlerResult, Principal } from './http/route.js';
export type { SimControl } from './http/world-port.js';
export type { Fault, FaultSpec } from './ports/faults.js';
export type { WorldFixture } from './fixture.js';
export type { FeedDef } from './adapters/prices/feeds.js';
export { createLogger } from './logging.js';
export { StatePersistence, type WorldPersistence } from './persistence.js';
export { FileStore, type FileStoreOptions } from './adapters/file/file-store.js';
export { StateCorruptError, StateVersionError } from './adapters/file/frame.js';
export { StateLockedError } from './adapters/file/state-files.js';
export { DomainError } from './domain/errors.js';
export type { Deps, WorldConfig } from './domain/deps.js';
export {
  addressOf, signInference, signWalletVerification, walletVerificationMessage, UPSTREAM_INFERENCE_SIGNER,
  type InferenceFields, type SignedMessage, type WalletMessageFields,
} from './signing.js';
export { DEFAULT_WALLET_DOMAIN } from './config.js';
export { runScenario, type ScenarioResult, type StepFailure, type RunEvent, type RunOptions } from './sim/scenario/runner.js';
export { parseScenario, loadScenario, validateScenario, ScenarioError } from './sim/scenario/schema.js';
export { httpTarget, type Target, type TargetRequest, type TargetResponse } from './sim/scenario/targets.js';
export type { Scenario, ScenarioDoc, Step } from './sim/scenario/types.js';
export { inProcessTarget } from './cli/in-process-target.js';
