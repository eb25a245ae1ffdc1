export { startStub, DEFAULT_MAX_BODY_BYTES, type StubOptions, type RunningStub, type ReloadResult } from './server';
export type { ContractSource } from './contracts';
export type { NotServed } from './route';
