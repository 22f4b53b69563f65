/**
 * The entry of one agent's worker thread (agent-team.ts starts it): its own store connection,
 * its own runtime, and the manager's messages served until the thread is terminated.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lazyAgent, serveAgent } from '../agent/agent-worker.js';
import type { Port } from '../agent/agent-worker.js';
import { openStore } from '../store/store.js';
import { openAgentThread } from './agent-team.js';

const { home, agent } = workerData as { home: string; agent: string };
if (!parentPort) throw new Error('agent-worker-main runs only as a worker thread (agent-team.ts starts it).');
const store = openStore({ home });
// Built on the first message: a configuration error then reaches the person with its fix.
const { runner, takeHandoff } = lazyAgent(() => openAgentThread({ store, env: process.env }, agent));
serveAgent(parentPort as unknown as Port, runner, takeHandoff);
