export { startStub, DEFAULT_MAX_BODY_BYTES, type StubOptions, type RunningStub, type ReloadResult } from './server';
export type { ContractSource } from './contracts';
export type { NotServed } from './route';
export type { ExpectationInput, ExpectationHandle, ScenarioRef } from './expectations';
export type { CallFilter, JournalEntry } from './journal';
export { FAULT_KINDS, parseDelay, type FaultKind, type Delay } from './faults';
export type { StubWsSecurity, WsSecuritySettings } from './ws-security';
export { connectStub, type StubClient } from './client';
export { accordMatchers, type CallCount } from './matchers';
