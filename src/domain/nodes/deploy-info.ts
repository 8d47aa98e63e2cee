import type { AgentPlatform } from './platform.js';

export interface InstallScript {
  url: string;
  /** The command up to the secret, which the admin (or the UI) appends. */
  commandPrefix: string;
}

export type DeployInfo = Record<AgentPlatform, InstallScript>;

/** Host and explicit port of the public URL as install scripts take them (no IPv6 brackets). */
export function publicEndpoint(publicUrl: string): { scheme: string; host: string; port: string } {
  const url = new URL(publicUrl);
  return {
    scheme: url.protocol.replace(/:$/, ''),
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port,
  };
}

/** Install script URLs and command prefixes for every platform (reference §5.10). */
export function deployInfo(publicUrl: string): DeployInfo {
  const { host, port } = publicEndpoint(publicUrl);
  const target = port === '' ? host : `${host} ${port}`;
  const script = (path: string) => `${publicUrl}/deploy/${path}`;
  const unix = (path: string): InstallScript => ({
    url: script(path),
    commandPrefix: `curl -fsSL ${script(path)} | sudo bash -s -- ${target} `,
  });
  const ps1 = script('windows/install.ps1');
  return {
    linux: unix('linux/install.sh'),
    macos: unix('macos/install.sh'),
    windows: {
      url: ps1,
      commandPrefix: `iwr -UseBasicParsing ${ps1} -OutFile install.ps1; powershell -ExecutionPolicy Bypass -File .\\install.ps1 ${target} `,
    },
  };
}
