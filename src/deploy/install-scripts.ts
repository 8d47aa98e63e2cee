import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../platform/package-root.js';
import { publicEndpoint } from '../domain/nodes/deploy-info.js';
import type { AgentPlatform } from '../domain/nodes/platform.js';

const TEMPLATE_DIR = join(PACKAGE_ROOT, 'templates', 'deploy');
const templates = new Map<string, string>();

function template(name: string): string {
  let text = templates.get(name);
  if (text === undefined) {
    text = readFileSync(join(TEMPLATE_DIR, name), 'utf8');
    templates.set(name, text);
  }
  return text;
}

/** A release directory name the agent accepts (spec §4.4.7); anything else becomes `unknown`. */
function releaseName(version: string): string {
  const v = version.trim();
  return /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/.test(v) && v.length <= 64 ? v : 'unknown';
}

export interface InstallScript {
  contentType: string;
  body: string;
}

/**
 * Renders the installer for one platform with Dash's public scheme and host baked in. Only
 * values matching strict patterns are substituted, so nothing from configuration can break
 * out of the script's quoting.
 */
export function renderInstallScript(
  platform: AgentPlatform,
  publicUrl: string,
  agentVersion: string,
): InstallScript {
  const { scheme, host } = publicEndpoint(publicUrl);
  if (!/^https?$/.test(scheme) || !/^[A-Za-z0-9.:_-]+$/.test(host)) {
    throw new Error('public URL cannot be rendered into an install script');
  }
  const values: Record<string, string> = {
    PLATFORM: platform,
    DASH_SCHEME: scheme,
    DASH_HOST: host,
    AGENT_VERSION: releaseName(agentVersion),
  };
  const windows = platform === 'windows';
  const body = template(windows ? 'install.ps1' : 'install.sh').replace(
    /\{\{([A-Z_]+)\}\}/g,
    (whole, key: string) => values[key] ?? whole,
  );
  return {
    contentType: windows ? 'text/plain; charset=utf-8' : 'text/x-shellscript; charset=utf-8',
    body,
  };
}
