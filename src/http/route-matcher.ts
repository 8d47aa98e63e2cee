import type { HttpMethod, RouteDef } from './route-def.js';

interface CompiledPath {
  pattern: RegExp;
  method: HttpMethod;
}

function compile(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}

/** Answers "which methods does this concrete path accept?" for 405 + Allow. */
export class RouteMatcher {
  private readonly compiled: CompiledPath[] = [];

  constructor(routes: readonly RouteDef[]) {
    for (const route of routes) {
      for (const path of [route.path, ...(route.aliases ?? [])]) {
        this.compiled.push({ pattern: compile(path), method: route.method });
      }
    }
  }

  allowedMethods(url: string): HttpMethod[] {
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const methods = new Set<HttpMethod>();
    for (const c of this.compiled) if (c.pattern.test(path)) methods.add(c.method);
    return [...methods];
  }
}
