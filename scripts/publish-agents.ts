// Publishes the standalone agents built under dist/agent/bin to $DASH_HOME/deploy (default ./data),
// as `dash serve` does at start; `make agents` runs it so a running Dash serves them at once.
import { resolve } from 'node:path';
import process from 'node:process';
import { publishAgentAssets } from '../src/deploy/agent-assets.js';

const home = resolve(process.env.DASH_HOME ?? 'data');
const r = publishAgentAssets(home);
for (const a of r.written) process.stdout.write(`published ${home}/deploy/${a}\n`);
for (const a of r.unchanged) process.stdout.write(`unchanged ${home}/deploy/${a}\n`);
for (const a of r.missing) process.stdout.write(`not built: ${a}\n`);
for (const a of r.rejected) process.stderr.write(`rejected: ${a}\n`);
if (r.rejected.length > 0) process.exit(1);
