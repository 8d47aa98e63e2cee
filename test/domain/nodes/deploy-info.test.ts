import { describe, expect, it } from 'vitest';
import { deployInfo, publicEndpoint } from '../../../src/domain/nodes/deploy-info.js';

describe('deploy info', () => {
  it('renders install commands from the public URL, host only when the port is implicit', () => {
    const info = deployInfo('https://dash.example.com');
    expect(info.linux).toEqual({
      url: 'https://dash.example.com/deploy/linux/install.sh',
      commandPrefix:
        'curl -fsSL https://dash.example.com/deploy/linux/install.sh | sudo bash -s -- dash.example.com ',
    });
    expect(info.macos.url).toBe('https://dash.example.com/deploy/macos/install.sh');
    expect(info.windows).toEqual({
      url: 'https://dash.example.com/deploy/windows/install.ps1',
      commandPrefix:
        'iwr -UseBasicParsing https://dash.example.com/deploy/windows/install.ps1 -OutFile install.ps1; powershell -ExecutionPolicy Bypass -File .\\install.ps1 dash.example.com ',
    });
  });

  it('adds an explicit port and strips IPv6 brackets', () => {
    expect(deployInfo('http://10.0.0.5:8080').linux.commandPrefix).toBe(
      'curl -fsSL http://10.0.0.5:8080/deploy/linux/install.sh | sudo bash -s -- 10.0.0.5 8080 ',
    );
    expect(publicEndpoint('http://[::1]:9000')).toEqual({
      scheme: 'http',
      host: '::1',
      port: '9000',
    });
  });
});
