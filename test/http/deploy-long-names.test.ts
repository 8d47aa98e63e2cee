import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentAssetFiles } from '../../src/deploy/asset-files.js';
import { buildTestApp, tempHome, type TestApp } from '../support/build-app.js';
import { seedNode } from '../support/seed-nodes.js';

/** Names the file system cannot hold are files that do not exist: 404, never a 500. */
let t: TestApp;
let secret: string;

beforeAll(async () => {
  t = await buildTestApp();
  mkdirSync(join(t.config.home, 'deploy', 'linux'), { recursive: true });
  writeFileSync(join(t.config.home, 'deploy', 'linux', 'node_linux_amd64'), 'agent');
  secret = (await seedNode(t)).secret;
});
afterAll(async () => t.close());

const LONG = [
  'a'.repeat(256),
  'é'.repeat(128), // 256 bytes in UTF-8
  `${'b'.repeat(200)}/${'c'.repeat(200)}/${'d'.repeat(300)}`,
  Array.from({ length: 40 }, () => 'e'.repeat(200)).join('/'), // over PATH_MAX
];

describe('/deploy with names longer than a file system allows', () => {
  it.each(LONG.map((name) => [name.length, name]))(
    'answers 404 for a %i-character name',
    async (_len, name) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/deploy/linux/${encodeURIComponent(name).replace(/%2F/g, '/')}`,
        headers: { 'x-node-secret': secret },
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe('Not Found');
    },
  );

  it('locates nothing, without throwing', async () => {
    const files = new AgentAssetFiles(join(tempHome(), 'deploy'));
    mkdirSync(join(files.root, 'linux'), { recursive: true });
    for (const name of LONG) await expect(files.locate(`linux/${name}`)).resolves.toBeNull();
  });
});
