import { emptyStaticInfo, mergeStaticInfo } from '../../src/domain/nodes/static-info.js';
import type { NodeFrontRow } from '../../src/store/ports.js';
import { agentStatic } from './agent-static.js';

/** A node's row as the front view reads it: a Debian host with the agent's static facts. */
export function frontNodeRow(id: number, over: Partial<NodeFrontRow> = {}): NodeFrontRow {
  return {
    id,
    name: `node-${id}`,
    tags: '[]',
    displayOrder: 0,
    guestVisible: false,
    os: 'linux',
    platform: 'debian',
    platformVersion: '12.8',
    kernelVersion: '6.1.0',
    arch: 'x86_64',
    staticJson: JSON.stringify(mergeStaticInfo(emptyStaticInfo(), agentStatic(), 0)),
    ...over,
  };
}
